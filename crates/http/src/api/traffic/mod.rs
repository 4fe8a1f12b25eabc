//! The traffic log over HTTP: the capture of every exchange on the port (`capture`), and the workbench
//! API that serves the log to the inspector and the flow view (`routes`).

pub mod capture;
pub mod openapi;
pub mod routes;
pub mod verdict;

use crate::app_state::AppState;
use axum::routing::get;
use axum::Router;

/// The routes under `/workbench/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/traffic", get(routes::page))
        .route("/traffic/stream", get(routes::stream))
        .route(
            "/traffic/settings",
            get(routes::settings).put(routes::set_settings),
        )
        .route("/traffic/{id}", get(routes::one))
        .route("/traffic/{id}/har", get(routes::har))
        .route("/journeys", get(routes::journeys))
        .route("/journeys/{id}", get(routes::journey))
}
