//! What the account and card-account endpoints share: a kind of account a consent grants by id
//! ([`Granted`], for accounts and card accounts), read only through the access rules. An id outside the
//! consent, or of the other kind, is 404 RESOURCE_UNKNOWN: the TPP learns nothing of accounts it may not see.

use super::access::{AisAccess, AisEndpoint};
use crate::api::error::{ApiError, ApiResult, Code};
use crate::app_state::AppState;
use crate::consent::Consent;
use crate::sandbox::model::{Account, CardAccount};
use crate::store::Record;

/// A kind of account a consent grants.
pub trait Granted: Record {
    /// How a refusal names one ("Account") and several ("accounts").
    const ONE: &'static str;
    const MANY: &'static str;
    /// The ids of this kind the consent grants.
    fn granted(consent: &Consent) -> &[String];
    /// The id.
    fn id(&self) -> &str;
    /// What the list is ordered by (accounts by BBAN, card accounts by masked PAN).
    fn order(&self) -> &str;
}

impl Granted for Account {
    const ONE: &'static str = "Account";
    const MANY: &'static str = "accounts";
    fn granted(consent: &Consent) -> &[String] {
        &consent.accounts
    }
    fn id(&self) -> &str {
        &self.id
    }
    fn order(&self) -> &str {
        &self.bban
    }
}

impl Granted for CardAccount {
    const ONE: &'static str = "Card account";
    const MANY: &'static str = "card accounts";
    fn granted(consent: &Consent) -> &[String] {
        &consent.card_accounts
    }
    fn id(&self) -> &str {
        &self.id
    }
    fn order(&self) -> &str {
        &self.masked_pan
    }
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
