//! Production rehearsal (docs/rehearsal.md): the profile the bank is played in (`sandbox` or
//! `production`), the tolerances the sandbox profile grants and production does not, and the fault plan
//! that makes the bank misbehave on purpose. The core of it; `api::rehearsal` maps it to HTTP.

pub mod evaluate;
pub mod live;
pub mod plan;
pub mod presets;
pub mod profile;
pub mod register;
pub mod rule_edits;
pub mod stored;
pub mod tolerance;

pub use live::Rehearsal;
pub use profile::Profile;
pub use tolerance::Tolerance;
