//! Payment initiation for PISPs: payments of every product and service, their authorisation, signing
//! baskets, and the fee information of instant payments.

pub mod authorisations;
pub mod baskets;
pub mod caller;
pub mod payments;
pub mod request_schema;
pub mod sca_start;
pub mod views;

use crate::api::openapi::routes::Routes;

/// The payment routes (paths relative to /v1), each with its OpenAPI description.
pub fn routes() -> Routes {
    Routes::new()
        .merge(payments::routes())
        .merge(baskets::routes())
        .merge(authorisations::routes())
}
