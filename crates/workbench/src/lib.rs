//! xs2a-workbench: the workbench's tools over the bank: the traffic log, recorded flows, state files, the
//! conformance report, rewind, the personas and the outbound client, and the application state that holds
//! the traffic log beside the bank's state. No HTTP server (no axum): `xs2a-http` serves these.

pub mod access;
pub mod app_state;
pub mod composer;
pub mod conformance;
pub mod flow;
pub mod outbound;
pub mod own_state;
pub mod pasted;
pub mod rewind;
pub mod state_file;
pub mod stored_persona;
pub mod traffic;
