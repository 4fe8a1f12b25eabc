//! The workbench under `/workbench`, never part of the bank's interface (docs/workbench-api.md): the UI,
//! the callback the composer's SCA redirects come back to, and the workbench API — the sandbox's mock data
//! and bank-side controls under the operator credential instead of a signature, TPP personas, the
//! composer, and live events. Reachable from this machine only.

pub mod access;
mod callback;
pub mod composer;
pub mod conformance;
mod fixtures;
pub mod gate;
pub mod openapi;
mod personas;
pub mod rewind;
pub mod schemas;
pub mod session;
mod ui;

use crate::state::AppState;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::{get, post};
use axum::Router;

/// The routes under `/workbench`.
pub fn router(state: AppState) -> Router<AppState> {
    let api = Router::new()
        .route("/session", get(session::session))
        .route("/events", get(session::events))
        .merge(crate::api::sandbox::workbench().into_router(&state))
        .route("/personas", get(personas::list).post(personas::issue))
        .route("/personas/import", post(personas::import))
        .route(
            "/personas/{id}",
            axum::routing::patch(personas::patch).delete(personas::delete),
        )
        .route("/personas/{id}/certificate", get(personas::certificate))
        .route("/operations", get(composer::operations))
        .route("/compose/preview", post(composer::preview))
        .route("/compose/send", post(composer::send))
        .route("/compose/history", get(composer::history_list))
        .route("/compose/history/{id}", get(composer::history_entry))
        .route("/compose/export", post(composer::export))
        .route("/sca/callbacks", get(callback::list))
        .route("/sca/pending", get(callback::pending))
        .route("/gate", get(gate::gate))
        .route("/state", get(fixtures::export).post(fixtures::import))
        .route("/journeys/{id}/flow", get(fixtures::journey_flow))
        .route("/snapshots", get(fixtures::snapshots))
        .route(
            "/snapshots/{name}",
            get(fixtures::download)
                .put(fixtures::take)
                .delete(fixtures::delete),
        )
        .route("/snapshots/{name}/restore", post(fixtures::restore))
        .route("/snapshots/{name}/flow", get(fixtures::flow_since))
        .route("/traffic/{id}/changes", get(rewind::changes))
        .route("/rewind", post(rewind::rewind_to))
        .route("/rewind/preview", get(rewind::preview))
        .route("/state/at/{id}", get(rewind::state_at))
        .route("/state/compare", get(rewind::compare))
        .route("/journeys/{id}/restart", post(rewind::restart))
        .merge(crate::api::traffic::router())
        .merge(crate::api::rehearsal::workbench_router())
        .merge(conformance::router())
        .fallback(crate::api::layers::no_such_path)
        .layer(from_fn_with_state(state.clone(), rewind::workbench_cause))
        .layer(from_fn_with_state(state, access::operator_api));
    Router::new()
        .route("/workbench", get(ui::bare))
        .route("/workbench/", get(ui::index))
        .route("/workbench/callback", get(callback::capture))
        .route("/workbench/{*file}", get(ui::file))
        .nest("/workbench/api", api)
        .route_layer(from_fn(access::this_machine_only))
}
