//! What the account and card-account answers share: where the interface serves each kind of granted
//! account ([`Served`]), and the parts of their answers that are the same (the links, the balances). Which
//! ids a consent grants, and the refusal of any other, is the core's (`xs2a_core::bank::ais::granted`).

use super::fixes::AcceptedFixes;
use super::views::BalanceView;
use crate::api::links::Links;
use xs2a_core::bank::ais::granted::Granted;
use xs2a_core::bank::mock::model::{Account, CardAccount};

/// A kind of granted account, with where the interface serves one.
pub trait Served: Granted {
    /// `/v1/accounts/{id}`, `/v1/card-accounts/{id}`.
    fn path(id: &str) -> String;
}

impl Served for Account {
    fn path(id: &str) -> String {
        format!("/v1/accounts/{id}")
    }
}

impl Served for CardAccount {
    fn path(id: &str) -> String {
        format!("/v1/card-accounts/{id}")
    }
}

/// The `_links` of either kind's details: its balances and its transactions.
pub fn detail_links<R: Served>(held: &R) -> Links {
    let path = R::path(held.id());
    Links::new()
        .get("balances", format!("{path}/balances"))
        .get("transactions", format!("{path}/transactions"))
}

/// Either kind's balances as answered (each in its currency, interimBooked included when stored).
pub fn balance_views<R: Granted>(held: &R, fixes: AcceptedFixes) -> Vec<BalanceView> {
    held.balances()
        .iter()
        .map(|b| BalanceView::new(b, fixes))
        .collect()
}
