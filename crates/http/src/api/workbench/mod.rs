//! The workbench under `/workbench`, never part of the bank's interface (docs/workbench-api.md): the UI,
//! the callback the composer's SCA redirects come back to, and the workbench API — the sandbox's mock data
//! and bank-side controls under the operator credential instead of a signature, TPP personas, the
//! composer, and live events. Reachable from this machine only (in a container: through its published
//! port, `reach`).

pub mod access;
mod callback;
pub mod composer;
pub mod conformance;
mod currencies;
mod fixtures;
pub mod gate;
pub mod openapi;
mod personas;
mod psu_browser;
pub mod reach;
pub mod rewind;
mod routes;
pub mod schemas;
pub mod session;
mod session_cookie;
mod ui;
pub mod verify;

use crate::api::openapi::routes::Routes;
use axum::middleware::{from_fn, from_fn_with_state};
use serde_json::json;

/// The routes under `/workbench`, each with its OpenAPI description.
pub fn routes() -> Routes {
    let api = routes::routes().map_router(|router, state| {
        router
            .fallback(crate::api::layers::no_such_path)
            .layer(from_fn_with_state(state.clone(), rewind::workbench_cause))
            .layer(from_fn_with_state(state.clone(), access::operator_api))
    });
    let html = || json!({"type": "string"});
    Routes::new()
        .get("/workbench", ui::bare, |op| {
            op.tag("Workbench")
                .summary("Redirects to /workbench/")
                .empty(308, "To /workbench/ (the query kept)")
        })
        .get("/workbench/", ui::index, move |op| {
            op.tag("Workbench")
                .summary("The workbench UI")
                .answers_with(200, "The page", "text/html", html())
        })
        .get("/workbench/callback", callback::capture, move |op| {
            op.tag("Workbench")
                .summary("Catches the bank's redirect after SCA")
                .answers_with(200, "A page saying what came back", "text/html", html())
        })
        .get("/workbench/{*file}", ui::file, |op| {
            op.tag("Workbench")
                .summary("The workbench UI's files")
                .answers_with(200, "A file", "application/octet-stream", json!({}))
                .refusals(&[404])
        })
        .nest("/workbench/api", api)
        .map_router(|router, _| router.route_layer(from_fn(access::this_machine_only)))
}
