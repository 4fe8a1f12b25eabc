//! xs2a-sandbox: a local, faithful sandbox of a Norwegian bank's PSD2 access-to-account interface.
//!
//! The service is a library so that the headless CLI, the desktop shell and the integration tests all start
//! exactly the same thing through [`app::App`]. Nothing here depends on a GUI toolkit, and only `api`
//! knows HTTP: the core modules refuse with [`refusal::Refusal`] and read time from [`clock::Clock`].

pub mod after_sca;
pub mod ais_access;
pub mod api;
pub mod app;
pub mod batch;
pub mod causes;
pub mod cli;
pub mod clock;
pub mod clock_control;
pub mod codec;
pub mod conformance;
pub mod consent;
pub mod customer_removal;
pub mod domain;
pub mod events;
pub mod fault_effects;
pub mod fixtures;
pub mod flow;
pub mod migrations;
pub mod outbound;
pub mod payments;
pub mod platform;
pub mod refusal;
pub mod rehearsal;
pub mod rewind;
pub mod sandbox;
pub mod sca;
pub mod signing;
pub mod startup;
pub mod state;
pub mod state_file;
pub mod store;
pub mod stored_persona;
pub mod tolerance;
pub mod tpp_dialogue;
pub mod traffic;
pub mod workbench;
