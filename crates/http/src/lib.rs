//! xs2a-http: the sandbox's HTTP face. The axum routers, the gate in front of `/v1`, thin handlers that map
//! the core's operations and refusals to HTTP, the OpenAPI document, and [`app::App`], the one place that
//! turns settings into a running service (the CLI, the desktop shell and the tests all start it).

pub mod api;
pub mod app;
pub mod logging;
