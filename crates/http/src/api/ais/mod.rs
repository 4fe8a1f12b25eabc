//! Account information for AISPs: who may read (access), and the endpoints under /v1/accounts,
//! /v1/card-accounts, /v1/users, /v1/agreements and the consent endpoints.

pub mod access;
pub mod accounts;
pub mod card_accounts;
pub mod consents;
pub mod fixes;
pub mod granted;
pub mod paging;
pub mod psu;
pub mod transactions;
pub mod views;

use crate::api::openapi::routes::Routes;

/// The account information routes (paths relative to /v1), each with its OpenAPI description.
pub fn routes() -> Routes {
    Routes::new()
        .merge(accounts::routes())
        .merge(transactions::routes())
        .merge(card_accounts::routes())
        .merge(psu::routes())
        .merge(consents::routes())
}
