//! Recorded flows: the ordered exchanges of a journey (docs/fixtures.md), taken from the traffic log or
//! recorded by `serve --record`, and what replaying one needs without any transport: carrying ids from
//! earlier answers into later requests (`ids`), and comparing answers with volatile values redacted
//! (`compare`). The CLI's `replay` sends the requests.

pub mod compare;
pub mod from_traffic;
pub mod har;
pub mod ids;
pub mod junit;
pub mod model;

pub use model::{FlowFile, Step};
