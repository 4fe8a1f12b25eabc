//! The HTTP interface: one router per area, the gate in front of `/v1`, and the layers every answer
//! passes through. Handlers stay thin: extract, call the service, map.

pub mod ais;
pub mod clock;
pub mod connection;
pub mod error;
pub mod gate;
pub mod header_map;
pub mod headers;
pub mod json;
pub mod layers;
pub mod limits;
pub mod links;
pub mod operator;
pub mod path;
pub mod pis;
pub mod response_signing;
pub mod sandbox;
pub mod sca_automation;
pub mod sca_pages;
pub mod sca_trigger;
pub mod server;
pub mod sse;
pub mod tpp_dialogue;
pub mod traffic;
pub mod warnings;
pub mod workbench;

use crate::state::AppState;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;

/// The path under which the bank platform's sandbox serves `/v1` (its developer kit's scripts call
/// `/api-sandbox/v1/sandbox/...`); everything under `/v1` is served under it too.
pub const PLATFORM_PREFIX: &str = "/api-sandbox/v1";

/// The whole service for the TLS listener: its requests are marked https, so absolute links
/// (scaRedirect) point back over https.
pub fn router_for_tls(state: AppState) -> Router {
    router(state).layer(axum::Extension(sca_trigger::Https))
}

/// The whole service as an axum router.
pub fn router(state: AppState) -> Router {
    let v1 = Router::new()
        .merge(sandbox::mock_data())
        .merge(
            sandbox::controls().route_layer(from_fn_with_state(state.clone(), operator::control)),
        )
        .merge(tpp_dialogue::router())
        .merge(ais::router())
        .merge(pis::router())
        .merge(sca_automation::router())
        .route_layer(from_fn(layers::known_payment_service))
        // Unknown /v1 paths pass the gate too: an unsigned request is 400 before it is 404.
        .fallback(layers::no_such_path)
        .layer(from_fn_with_state(state.clone(), gate::gate));
    Router::new()
        // The bank platform serves its sandbox under /api-sandbox and its developer kit calls it there, so
        // the interface answers under both; links in answers name the /v1 form, which serves the same.
        .nest(PLATFORM_PREFIX, v1.clone())
        .nest("/v1", v1)
        .route("/health", axum::routing::get(health))
        .merge(sca_pages::router())
        .merge(workbench::router(state.clone()))
        .fallback(layers::no_such_path)
        .method_not_allowed_fallback(layers::no_such_method)
        .layer(from_fn_with_state(
            state.clone(),
            response_signing::sign_responses,
        ))
        .layer(from_fn_with_state(state.clone(), layers::durability))
        .layer(from_fn(workbench::access::preflight))
        .layer(from_fn(layers::content_language))
        .layer(from_fn(layers::content_charset))
        .layer(from_fn_with_state(state.clone(), traffic::capture::capture))
        .layer(CompressionLayer::new().gzip(true))
        .layer(CatchPanicLayer::custom(layers::panic_response))
        .with_state(state)
}

/// `GET /health`: unsigned readiness probe for scripts and CI (not part of the bank's interface). It also
/// tells the sandbox clock's time, so that a client (`replay`) can sign with it when the clock was moved or
/// frozen (the gate's Date window follows the sandbox clock).
async fn health(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> axum::Json<serde_json::Value> {
    let now = state
        .clock
        .now()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    axum::Json(serde_json::json!({"status": "UP", "now": now}))
}
