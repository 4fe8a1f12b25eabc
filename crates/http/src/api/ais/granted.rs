//! What the account and card-account endpoints share: a kind of account a consent grants by id
//! ([`Granted`], for accounts and card accounts), read only through the access rules, and the parts of
//! their answers that are the same (the holder, the links, the balances). An id outside the
//! consent, or of the other kind, is 404 RESOURCE_UNKNOWN: the TPP learns nothing of accounts it may not see.

use super::access::AisAccess;
use super::fixes::AcceptedFixes;
use super::views::BalanceView;
use crate::api::error::{ApiError, ApiResult};
use crate::api::links::Links;
use xs2a_core::bank::ais::access::Endpoint as AisEndpoint;
use xs2a_core::bank::consent::Consent;
use xs2a_core::bank::mock::customers;
use xs2a_core::bank::mock::holdings::{usage, Holding};
use xs2a_core::bank::mock::model::{Account, CardAccount};
use xs2a_core::domain::refusal::Code;
use xs2a_workbench::app_state::AppState;

/// A kind of account a consent grants: what a customer holds (`Holding`: id, holder, list order,
/// balances), with how the AIS interface names and serves it.
pub trait Granted: Holding {
    /// How a refusal names one ("Account") and several ("accounts").
    const ONE: &'static str;
    const MANY: &'static str;
    /// The ids of this kind the consent grants.
    fn granted(consent: &Consent) -> &[String];
    /// Where the interface serves one: `/v1/accounts/{id}`, `/v1/card-accounts/{id}`.
    fn path(id: &str) -> String;
}

impl Granted for Account {
    const ONE: &'static str = "Account";
    const MANY: &'static str = "accounts";
    fn granted(consent: &Consent) -> &[String] {
        &consent.accounts
    }
    fn path(id: &str) -> String {
        format!("/v1/accounts/{id}")
    }
}

impl Granted for CardAccount {
    const ONE: &'static str = "Card account";
    const MANY: &'static str = "card accounts";
    fn granted(consent: &Consent) -> &[String] {
        &consent.card_accounts
    }
    fn path(id: &str) -> String {
        format!("/v1/card-accounts/{id}")
    }
}

/// What the details of either kind show of its holder: Berlin Group `usage` (PRIV when the holder is
/// gone) and the owner's name.
pub struct Holder {
    pub usage: &'static str,
    pub owner_name: Option<String>,
}

impl Holder {
    pub fn of<R: Granted>(state: &AppState, held: &R) -> ApiResult<Holder> {
        let owner = customers::by_id(&state.store, held.customer_id())?;
        Ok(Holder {
            usage: owner.as_ref().map_or("PRIV", |o| usage(o.customer_type)),
            owner_name: owner.map(|o| o.name),
        })
    }
}

/// The `_links` of either kind's details: its balances and its transactions.
pub fn detail_links<R: Granted>(held: &R) -> Links {
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

/// 404 RESOURCE_UNKNOWN for an id the consent does not grant as an `R`.
fn not_granted<R: Granted>(id: &str) -> ApiError {
    ApiError::new(
        Code::ResourceUnknown,
        Some("accountId"),
        format!(
            "{} '{id}' is not among the {} the PSU granted this TPP in this context.",
            R::ONE,
            R::MANY
        ),
    )
}

/// The granted `R` with `id`, after the access rules of `endpoint`.
pub fn consented<R: Granted>(
    state: &AppState,
    access: &AisAccess,
    id: &str,
    endpoint: AisEndpoint,
) -> ApiResult<R> {
    // An id of the other kind is granted too, but it is not an `R`.
    if !R::granted(&access.consent).iter().any(|a| a == id) {
        return Err(not_granted::<R>(id));
    }
    access.check_account(state, id, endpoint)?;
    state
        .store
        .table::<R>()?
        .get(id)?
        .ok_or_else(|| not_granted::<R>(id))
}

/// Every granted `R` that still exists, in its list order, recorded as listed: with the PSU present,
/// listing is online access with SCA to every account listed.
pub fn listed<R: Granted>(state: &AppState, access: &AisAccess) -> ApiResult<Vec<R>> {
    let table = state.store.table::<R>()?;
    let mut found = Vec::new();
    for id in R::granted(&access.consent) {
        if let Some(record) = table.get(id)? {
            found.push(record);
        }
    }
    found.sort_by(|a, b| a.order().cmp(b.order()));
    access.record_listed(state, found.iter().map(|r| r.id()))?;
    Ok(found)
}
