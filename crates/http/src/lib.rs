//! xs2a-http: the sandbox's HTTP face. The axum routers, the gate in front of `/v1`, thin handlers that map
//! the core's operations and refusals to HTTP, the OpenAPI document, and [`app::App`], the one place that
//! turns settings into a running service (the CLI, the desktop shell and the tests all start it).

// The layers below, by the names the code here uses (`crate::store` is `xs2a_core::store`, `crate::traffic`
// is `xs2a_workbench::traffic`): imported once. Nothing here can reach the CLI or the desktop shell.
#[allow(unused_imports)]
use xs2a_core::{
    after_sca, ais_access, batch, causes, clock, clock_control, codec, consent, customer_removal,
    domain, events, fault_effects, migrations, payment_initiation, payments, platform, refusal,
    rehearsal, sandbox, sca, signing, startup, state, store, test_credentials, tolerance,
    tpp_dialogue,
};
#[allow(unused_imports)]
use xs2a_workbench::{
    app_state, conformance, flow, outbound, own_state, rewind, state_file, stored_persona, traffic,
};

pub mod api;
pub mod app;
pub mod logging;
