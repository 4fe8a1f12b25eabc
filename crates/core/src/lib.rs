//! xs2a-core: the bank. Its rules, the one clock and the one refusal type, the store, request signing and
//! the gate's checks, the mock data, consent, SCA, payments and the batch, and the rehearsal rules.
//!
//! It knows neither HTTP nor Tauri (no axum, hyper, tower or tauri dependency: the manifest is the proof),
//! nor the workbench's tools: operations refuse with [`refusal::Refusal`] and read time from [`clock::Clock`].
//! The modules below are listed from the foundations up (docs/architecture.md draws the graph).

// Foundations: nothing of the bank yet.
pub mod clock;
pub mod domain;
pub mod platform;
pub mod store;
pub mod test_credentials;

// The vocabulary every rule speaks.
pub mod codec;
pub mod events;
pub mod refusal;
pub mod tolerance;

// The bank's records and rules.
pub mod consent;
pub mod migrations;
pub mod payments;
pub mod rehearsal;
pub mod sandbox;
pub mod sca;
pub mod signing;
pub mod tpp_dialogue;

// What ties the rules together: the bank's shared state and the operations across several records.
pub mod after_sca;
pub mod ais_access;
pub mod batch;
pub mod causes;
pub mod clock_control;
pub mod customer_removal;
pub mod fault_effects;
pub mod payment_initiation;
pub mod startup;
pub mod state;
