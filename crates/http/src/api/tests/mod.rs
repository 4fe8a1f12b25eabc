//! In-process tests of the routes' local behaviour: the whole service asked through
//! `tower::ServiceExt::oneshot` ([`harness`]), so that a handler change is tested in seconds. The
//! real-server suite (`tests/api/`) keeps what needs a real server: connections, timeouts, kill -9.

mod clock;
mod faults;
pub mod harness;
mod mock_data;
mod query;
mod transport;
