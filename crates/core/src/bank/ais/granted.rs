//! The accounts and card accounts a consent grants by id ([`Granted`]), read only through the access rules:
//! one by id ([`consented`]), every one of a context ([`listed`]), and what their details show of the
//! holder ([`Holder`]). An id outside the consent, or of the other kind, is 404 RESOURCE_UNKNOWN: the TPP
//! learns nothing of accounts it may not see (docs/reference/ais-sca.md#the-rules-each-with-a-test).

use super::access::{Access, Endpoint};
use crate::bank::consent::Consent;
use crate::bank::mock::customers;
use crate::bank::mock::holdings::{usage, Holding};
use crate::bank::mock::model::{Account, CardAccount};
use crate::domain::clock::Clock;
use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::store::Store;

/// A kind of account a consent grants: what a customer holds (`Holding`: id, holder, list order,
/// balances), with how account information names it.
pub trait Granted: Holding {
    /// How a refusal names one ("Account") and several ("accounts").
    const ONE: &'static str;
    const MANY: &'static str;
    /// The ids of this kind the consent grants.
    fn granted(consent: &Consent) -> &[String];
}

impl Granted for Account {
    const ONE: &'static str = "Account";
    const MANY: &'static str = "accounts";
    fn granted(consent: &Consent) -> &[String] {
        &consent.accounts
    }
}

impl Granted for CardAccount {
    const ONE: &'static str = "Card account";
    const MANY: &'static str = "card accounts";
    fn granted(consent: &Consent) -> &[String] {
        &consent.card_accounts
    }
}

/// What the details of either kind show of its holder: Berlin Group `usage` (PRIV when the holder is
/// gone) and the owner's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub usage: &'static str,
    pub owner_name: Option<String>,
}

impl Holder {
    pub fn of<R: Holding>(store: &Store, held: &R) -> CoreResult<Holder> {
        let owner = customers::by_id(store, held.customer_id())?;
        Ok(Holder {
            usage: owner.as_ref().map_or("PRIV", |o| usage(o.customer_type)),
            owner_name: owner.map(|o| o.name),
        })
    }
}

/// 404 RESOURCE_UNKNOWN for an id the consent does not grant as an `R`.
pub fn not_granted<R: Granted>(id: &str) -> Refusal {
    Refusal::new(
        Code::ResourceUnknown,
        Some("accountId"),
        format!(
            "{} '{id}' is not among the {} the PSU granted this TPP in this context.",
            R::ONE,
            R::MANY
        ),
    )
}

/// The granted `R` with `id`, after the access rules of `endpoint` (which record the read).
pub fn consented<R: Granted>(
    store: &Store,
    clock: &Clock,
    access: &Access,
    id: &str,
    endpoint: Endpoint,
) -> CoreResult<R> {
    // An id of the other kind is granted too, but it is not an `R`.
    if !R::granted(&access.consent).iter().any(|a| a == id) {
        return Err(not_granted::<R>(id));
    }
    access.check_account(store, id, endpoint, clock.now())?;
    store
        .table::<R>()?
        .get(id)?
        .ok_or_else(|| not_granted::<R>(id))
}

/// Every granted `R` that still exists, in its list order, recorded as listed: with the PSU present,
/// listing is online access with SCA to every account listed.
pub fn listed<R: Granted>(store: &Store, clock: &Clock, access: &Access) -> CoreResult<Vec<R>> {
    let table = store.table::<R>()?;
    let mut found = Vec::new();
    for id in R::granted(&access.consent) {
        if let Some(record) = table.get(id)? {
            found.push(record);
        }
    }
    found.sort_by(|a, b| a.order().cmp(b.order()));
    access.record_listed(store, found.iter().map(|r| r.id()), clock.now())?;
    Ok(found)
}
