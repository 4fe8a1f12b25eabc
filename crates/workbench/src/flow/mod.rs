//! Recorded flows: the ordered exchanges of a journey (docs/fixtures.md), taken from the traffic log or
//! recorded by `serve --record`, and what replaying one needs without any transport: carrying ids from
//! earlier answers into later requests (`ids`), and comparing answers with volatile values redacted
//! (`compare`), and which TPP recorded it (`recorded_by`). The CLI's `replay` sends the requests.

pub mod compare;
pub mod from_traffic;
pub mod har;
pub mod ids;
pub mod junit;
pub mod model;
pub mod recorded_by;

pub use model::{FlowFile, Step};
