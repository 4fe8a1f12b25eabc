//! Payment initiation for PISPs: payments of every product and service, their authorisation, signing
//! baskets, and the fee information of instant payments.

pub mod authorisations;
pub mod baskets;
pub mod caller;
pub mod payments;
pub mod request_schema;
pub mod sca_start;
pub mod views;

use crate::app_state::AppState;
use axum::Router;

/// The payment routes (paths relative to /v1).
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(payments::router())
        .merge(baskets::router())
        .merge(authorisations::router())
}

/// The payment routes in the OpenAPI document.
pub fn describe(doc: &mut crate::api::openapi::builder::Document) {
    payments::describe(doc);
    baskets::describe(doc);
    authorisations::describe(doc);
}
