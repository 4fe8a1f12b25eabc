//! Rewind: the sandbox's state at any exchange or event of the timeline, from the change journal
//! (`store::journal`, docs/rewind.md). What one entry changed, field by field with the balances it moved
//! ([`changes`]); the state before or after an entry as a state file, without touching the live state
//! ([`state_at`]); two points compared ([`compare`]); and the return itself ([`rewind`]): the journal
//! undone newest first down to the point, in one commit, itself an event of the timeline; and a journey
//! restarted from one of its steps ([`restart`], what it plays again in [`restart_steps`]).

pub mod apply;
pub mod ask;
pub mod changes;
pub mod compare;
pub mod diff;
pub mod point;
pub mod restart;
pub mod restart_steps;
pub mod summary;

pub use apply::{preview, rewind, state_at, RewindPreview, Rewound};
pub use point::{Point, Position};
