//! Talking to a running sandbox from outside, as a TPP app does: the one HTTP client, the replay
//! engine and the PSU's browser on the bank's pages. Above the core and beside `api/` (which serves HTTP)
//! and `cli/` (which parses commands): the CLI's `replay` and `conformance`, the composer's send, the
//! presentation's SCA pages and a journey's restart all use it.

pub mod client;
pub mod psu_browser;
pub mod replay_run;
