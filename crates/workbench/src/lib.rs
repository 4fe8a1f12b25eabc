//! xs2a-workbench: the workbench's tools over the bank: the traffic log, recorded flows, state files, the
//! conformance report, rewind, the personas and the outbound client, and the application state that holds
//! the traffic log beside the bank's state. No HTTP server (no axum): `xs2a-http` serves these.

// The core's modules, by the names the code here uses (`crate::store` is `xs2a_core::store`): the layer
// below, imported once. Nothing here can reach a layer above.
#[allow(unused_imports)]
use xs2a_core::{
    after_sca, ais_access, batch, causes, clock, clock_control, codec, consent, customer_removal,
    domain, events, fault_effects, migrations, payment_initiation, payments, platform, refusal,
    rehearsal, sandbox, sca, signing, startup, state, store, test_credentials, tolerance,
    tpp_dialogue,
};

pub mod app_state;
pub mod conformance;
pub mod flow;
pub mod outbound;
pub mod own_state;
pub mod rewind;
pub mod state_file;
pub mod stored_persona;
pub mod traffic;
