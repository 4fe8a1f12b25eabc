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

use crate::api::openapi::builder::Operation;
use crate::api::openapi::headers::{AIS, SIGNED};
use crate::api::openapi::routes::Routes;

/// How every account-information operation's description starts: tagged AIS, signed, with the AIS
/// headers (PSU-IP-Address, Consent-ID, ...).
fn signed_read<'d>(op: Operation<'d>, summary: &str) -> Operation<'d> {
    op.tag("AIS").summary(summary).params(SIGNED).params(AIS)
}

/// The account information routes (paths relative to /v1), each with its OpenAPI description.
pub fn routes() -> Routes {
    Routes::new()
        .merge(accounts::routes())
        .merge(transactions::routes())
        .merge(card_accounts::routes())
        .merge(psu::routes())
        .merge(consents::routes())
}

#[cfg(test)]
mod tests;
