//! The HTTP interface: one router per area, the gate in front of `/v1`, and the layers every answer
//! passes through. Handlers stay thin: extract, call the service, map.

pub mod ais;
pub mod answer;
pub mod clock;
pub mod connection;
pub mod error;
pub mod framing;
pub mod gate;
pub mod headers;
pub mod json;
pub mod layers;
pub mod limits;
pub mod links;
pub mod openapi;
pub mod operator;
pub mod path;
pub mod pis;
pub mod query;
pub mod rehearsal;
pub mod response_signing;
pub mod sandbox;
pub mod sca_automation;
pub mod sca_pages;
pub mod sca_trigger;
pub mod server;
pub mod sse;
#[cfg(test)]
mod tests;
pub mod tpp_dialogue;
pub mod traffic;
pub mod warnings;
pub mod workbench;

use axum::middleware::{from_fn, from_fn_with_state};
use axum::Router;
use openapi::routes::Routes;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use xs2a_workbench::app_state::AppState;

use xs2a_core::bank::mock::PLATFORM_PREFIX;

/// The whole service for the TLS listener: its requests are marked https, so absolute links
/// (scaRedirect) point back over https.
pub fn router_for_tls(state: AppState) -> Router {
    router(state).layer(axum::Extension(sca_trigger::Https))
}

/// The whole service as an axum router.
pub fn router(state: AppState) -> Router {
    let routes = routes().into_router(&state).with_state(state.clone());
    // The layers every answer passes through wrap the routed service once, outermost first. Added with
    // `Router::layer` they would wrap each route, and each layer clones what it wraps for every request:
    // the whole stack below it, boxed layer by boxed layer (about 150 allocations per request, more CPU
    // than the HTTP stack's own work on /health). None of them needs to know the route.
    let layered = tower::ServiceBuilder::new()
        .layer(CatchPanicLayer::custom(layers::panic_response))
        .layer(CompressionLayer::new().gzip(true))
        .layer(from_fn_with_state(state.clone(), traffic::capture::capture))
        .layer(from_fn(framing::framing))
        .layer(from_fn_with_state(state.clone(), layers::durability))
        .layer(from_fn_with_state(state, response_signing::sign_responses))
        .service(routes);
    Router::new().fallback_service(layered)
}

/// Every route of the service with its description: the router ([`router`]) and the OpenAPI document
/// (`openapi::document`) are both made from it.
pub fn routes() -> Routes {
    let v1 = Routes::new()
        .merge(sandbox::mock_data().map_router(|router, state| {
            router.route_layer(from_fn_with_state(state.clone(), rehearsal::hide_sandbox))
        }))
        .merge(sandbox::controls().map_router(|router, state| {
            router
                .route_layer(from_fn_with_state(state.clone(), operator::control))
                .route_layer(from_fn_with_state(state.clone(), rehearsal::hide_sandbox))
        }))
        .merge(tpp_dialogue::routes())
        .merge(ais::routes())
        .merge(pis::routes())
        .merge(sca_automation::routes())
        .map_router(|router, state| {
            router
                .route_layer(from_fn(layers::known_payment_service))
                // Unknown /v1 paths pass the gate too: an unsigned request is 400 before it is 404.
                .fallback(layers::no_such_path)
                // Inside the gate, so that a fault rule can name the TPP.
                .layer(from_fn_with_state(state.clone(), rehearsal::inject::inject))
                .layer(from_fn_with_state(state.clone(), gate::gate))
        });
    Routes::new()
        // The bank platform serves its sandbox under /api-sandbox and its developer kit calls it there, so
        // the interface answers under both; links in answers name the /v1 form, which serves the same.
        .nest_aliased(PLATFORM_PREFIX, "/v1", v1)
        .get("/health", health, |op| {
            op.tag("Service")
                .summary("Readiness, and the sandbox clock's time")
                .answers::<Health>(200, "Up")
        })
        .get("/openapi.json", openapi_document, |op| {
            op.tag("Service").summary("This document").answers_with(
                200,
                "The OpenAPI 3.1 document",
                "application/json",
                serde_json::json!({"type": "object"}),
            )
        })
        .merge(sca_pages::routes().map_router(|router, state| {
            router.route_layer(from_fn_with_state(
                state.clone(),
                rehearsal::sca_pages::inject,
            ))
        }))
        .merge(workbench::routes())
        .map_router(|router, _| {
            router
                .fallback(layers::no_such_path)
                .method_not_allowed_fallback(layers::no_such_method)
        })
}

/// `GET /health`: unsigned readiness probe for scripts and CI (not part of the bank's interface). It also
/// tells the sandbox clock's time, so that a client (`replay`) can sign with it when the clock was moved or
/// frozen (the gate's Date window follows the sandbox clock).
async fn health(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> crate::api::answer::Json<Health> {
    let now = state
        .clock
        .now()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    crate::api::answer::Json(Health { status: "UP", now })
}

/// `GET /openapi.json`: the OpenAPI 3.1 document of the whole service (unsigned, like /health).
async fn openapi_document() -> crate::api::answer::Json<&'static serde_json::Value> {
    crate::api::answer::Json(openapi::document())
}

/// What the areas add to the described operations once all are in: the mock-data and control paths
/// mirrored for the workbench, and the workbench's own schemas. Here, at the root that assembles the
/// areas, so that `openapi` (the builder every area describes itself with) depends on none of them.
pub(crate) fn complete_document(
    paths: &mut serde_json::Map<String, serde_json::Value>,
    schemas: &mut serde_json::Map<String, serde_json::Value>,
) {
    sandbox::openapi::mirror_for_workbench(paths);
    schemas.extend(workbench::schemas::components());
}

#[derive(serde::Serialize, utoipa::ToSchema)]
struct Health {
    /// Always `UP` while the service answers.
    status: &'static str,
    /// The sandbox clock's time (RFC 3339): sign with it when the clock was moved or frozen.
    now: String,
}
