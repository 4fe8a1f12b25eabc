//! xs2a-sandbox: a local, faithful sandbox of a Norwegian bank's PSD2 access-to-account interface.
//!
//! The service is a library so that the headless CLI, the desktop shell and the integration tests all start
//! exactly the same thing through [`server::serve`]. Nothing here depends on a GUI toolkit.

pub mod api;
pub mod batch;
pub mod cli;
pub mod clock;
pub mod consent;
pub mod domain;
pub mod error;
pub mod events;
pub mod fixtures;
pub mod payments;
pub mod sandbox;
pub mod sca;
pub mod server;
pub mod signing;
pub mod startup;
pub mod state;
pub mod store;
pub mod tpp_dialogue;
