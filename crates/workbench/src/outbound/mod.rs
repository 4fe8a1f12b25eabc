//! Talking to a running sandbox from outside, as a TPP app does: the one HTTP client and the replay
//! engine. Above the core and beside `api/` (which serves HTTP) and `cli/` (which parses commands): the
//! CLI's `replay` and `conformance`, the composer's send and a journey's restart all use it.

pub mod client;
pub mod replay_run;
