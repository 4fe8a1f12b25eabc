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

use crate::app_state::AppState;
use axum::Router;

/// The account information routes (paths relative to /v1).
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(accounts::router())
        .merge(transactions::router())
        .merge(card_accounts::router())
        .merge(psu::router())
        .merge(consents::router())
}

/// The account information routes in the OpenAPI document.
pub fn describe(doc: &mut crate::api::openapi::builder::Document) {
    accounts::describe(doc);
    transactions::describe(doc);
    card_accounts::describe(doc);
    psu::describe(doc);
    consents::describe(doc);
}
