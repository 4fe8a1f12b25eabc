//! Bank-offered consent (docs/interface.md#consent): the accounts a PSU granted one TPP, chosen on the bank's
//! consent screen during SCA, one consent per TPP, PSU and context (private, or one corporate agreement).
//! The PSU may revoke it at the bank at any time; the TPP is not told. The SCA behind a consent
//! must be renewed every 180 days, and history fetched without SCA is limited to 90 days
//! (docs/interface.md#strong-customer-authentication-and-tpp-sessions).

use crate::domain::refusal::CoreResult;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

/// The renewal period for the SCA itself, raised from 90 days (docs/interface.md#limits).
pub const SCA_RENEWAL: Duration = Duration::days(180);
/// History fetched without SCA, and the window of online access for unattended calls
/// (docs/interface.md#strong-customer-authentication-and-tpp-sessions).
pub const UNATTENDED_HISTORY: Duration = Duration::days(90);

/// The accounts one PSU granted one TPP in one context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Consent {
    pub tpp_id: String,
    pub tpp_name: String,
    pub customer_id: String,
    /// None for the private context; the agreement for a corporate one.
    pub agreement_id: Option<String>,
    /// Granted account ids (sandbox account ids).
    pub accounts: Vec<String>,
    /// Granted card account ids.
    pub card_accounts: Vec<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub granted_at: OffsetDateTime,
    /// The last SCA that confirmed this consent.
    #[serde(with = "time::serde::rfc3339")]
    pub sca_at: OffsetDateTime,
}

impl Record for Consent {
    const TREE: &'static str = "consents";
    fn key(&self) -> String {
        consent_key(
            &self.tpp_id,
            &self.customer_id,
            self.agreement_id.as_deref(),
        )
    }
}

fn consent_key(tpp_id: &str, customer_id: &str, agreement_id: Option<&str>) -> String {
    format!(
        "{tpp_id}/{customer_id}/{}",
        agreement_id.unwrap_or("private")
    )
}

impl Consent {
    /// True when the account (or card account) id is granted.
    pub fn covers(&self, id: &str) -> bool {
        self.accounts
            .iter()
            .chain(&self.card_accounts)
            .any(|a| a == id)
    }

    /// True when the SCA behind the consent is older than the renewal period.
    pub fn needs_renewal(&self, now: OffsetDateTime) -> bool {
        now >= self.sca_at + SCA_RENEWAL
    }

    pub fn is_empty(&self) -> bool {
        self.accounts.is_empty() && self.card_accounts.is_empty()
    }
}

/// The consent for this TPP, PSU and context, if any.
pub fn find(
    store: &Store,
    tpp_id: &str,
    customer_id: &str,
    agreement_id: Option<&str>,
) -> CoreResult<Option<Consent>> {
    Ok(store
        .table::<Consent>()?
        .get(&consent_key(tpp_id, customer_id, agreement_id))?)
}

/// Every consent a PSU has given any TPP (the bank's own view).
pub fn of_customer(store: &Store, customer_id: &str) -> CoreResult<Vec<Consent>> {
    Ok(store
        .table::<Consent>()?
        .list()?
        .into_iter()
        .filter(|c| c.customer_id == customer_id)
        .collect())
}

/// Refreshes the SCA time of the PSU's consent at this TPP in this context, if there is one: any completed
/// SCA (a user lookup too) renews the 180-day period of the consent it was done in.
pub fn refresh_sca(
    store: &Store,
    tpp_id: &str,
    customer_id: &str,
    agreement_id: Option<&str>,
    now: OffsetDateTime,
) -> CoreResult<()> {
    if let Some(mut consent) = find(store, tpp_id, customer_id, agreement_id)? {
        if consent.sca_at < now {
            consent.sca_at = now;
            store.table::<Consent>()?.insert(&consent)?;
        }
    }
    Ok(())
}

/// Every consent in the sandbox.
pub fn all(store: &Store) -> CoreResult<Vec<Consent>> {
    Ok(store.table::<Consent>()?.list()?)
}

/// Stores the PSU's choice from the consent screen: ticked accounts granted, unticked ones revoked.
pub fn record_choice(store: &Store, mut consent: Consent) -> CoreResult<Consent> {
    consent.accounts.sort();
    consent.accounts.dedup();
    consent.card_accounts.sort();
    consent.card_accounts.dedup();
    if let Some(previous) = find(
        store,
        &consent.tpp_id,
        &consent.customer_id,
        consent.agreement_id.as_deref(),
    )? {
        consent.granted_at = previous.granted_at;
    }
    store.table::<Consent>()?.insert(&consent)?;
    Ok(consent)
}

/// The PSU revokes at the bank: the named accounts, or everything when `accounts` is None. Returns how
/// many consents changed. The TPP is not notified (docs/interface.md#consent).
pub fn revoke(
    store: &Store,
    tpp_id: Option<&str>,
    customer_id: &str,
    accounts: Option<&[String]>,
) -> CoreResult<usize> {
    store.atomically(|store| revoke_in(store, tpp_id, customer_id, accounts))
}

fn revoke_in(
    store: &Store,
    tpp_id: Option<&str>,
    customer_id: &str,
    accounts: Option<&[String]>,
) -> CoreResult<usize> {
    let table = store.table::<Consent>()?;
    let mut changed = 0;
    for mut consent in of_customer(store, customer_id)? {
        if tpp_id.is_some_and(|t| t != consent.tpp_id) {
            continue;
        }
        match accounts {
            None => {
                table.remove(&consent.key())?;
                changed += 1;
            }
            Some(ids) => {
                let before = consent.accounts.len() + consent.card_accounts.len();
                consent.accounts.retain(|a| !ids.contains(a));
                consent.card_accounts.retain(|a| !ids.contains(a));
                if consent.accounts.len() + consent.card_accounts.len() != before {
                    table.insert(&consent)?;
                    changed += 1;
                }
            }
        }
    }
    Ok(changed)
}

/// The last time a TPP read an account (or card account) with the PSU present and SCA done, and the
/// unattended calls of the last 24 hours per endpoint (docs/interface.md#limits).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountAccessLog {
    pub tpp_id: String,
    pub account_id: String,
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub last_online_access: Option<OffsetDateTime>,
    #[serde(default)]
    pub unattended_calls: Vec<(String, i64)>,
}

impl Record for AccountAccessLog {
    const TREE: &'static str = "ais-access-log";
    fn key(&self) -> String {
        access_log_key(&self.tpp_id, &self.account_id)
    }
}

fn access_log_key(tpp_id: &str, account_id: &str) -> String {
    format!("{tpp_id}/{account_id}")
}

/// The access log of one account at one TPP (empty if it was never read). Call under the store's access-log lock
/// when the result is written back.
pub fn access_log(store: &Store, tpp_id: &str, account_id: &str) -> CoreResult<AccountAccessLog> {
    Ok(store
        .table::<AccountAccessLog>()?
        .get(&access_log_key(tpp_id, account_id))?
        .unwrap_or(AccountAccessLog {
            tpp_id: tpp_id.to_owned(),
            account_id: account_id.to_owned(),
            last_online_access: None,
            unattended_calls: Vec::new(),
        }))
}

/// Records that the PSU accessed these accounts (or card accounts) online with SCA through this TPP at
/// `now`: when consent is granted, and on every read with the PSU present.
pub fn record_online_access<I>(
    store: &Store,
    tpp_id: &str,
    account_ids: I,
    now: OffsetDateTime,
) -> CoreResult<()>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    let _guard = store.locks().access_log();
    let table = store.table::<AccountAccessLog>()?;
    for account_id in account_ids {
        let mut log = access_log(store, tpp_id, account_id.as_ref())?;
        if log.last_online_access.is_some_and(|at| at >= now) {
            continue;
        }
        log.last_online_access = Some(now);
        table.insert(&log)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn consent(tpp: &str, accounts: &[&str]) -> Consent {
        Consent {
            tpp_id: tpp.into(),
            tpp_name: tpp.into(),
            customer_id: "kari".into(),
            agreement_id: None,
            accounts: accounts.iter().map(|a| a.to_string()).collect(),
            card_accounts: vec![],
            granted_at: datetime!(2026-01-01 0:00 UTC),
            sca_at: datetime!(2026-01-01 0:00 UTC),
        }
    }

    #[test]
    fn a_new_choice_replaces_the_old_one_and_keeps_the_first_grant_date() {
        let store = Store::temporary().unwrap();
        record_choice(&store, consent("T", &["a", "b"])).unwrap();
        let mut second = consent("T", &["b"]);
        second.granted_at = datetime!(2026-02-01 0:00 UTC);
        let stored = record_choice(&store, second).unwrap();
        assert_eq!(stored.accounts, ["b"]);
        assert_eq!(stored.granted_at, datetime!(2026-01-01 0:00 UTC));
    }

    #[test]
    fn revoking_at_the_bank_touches_only_what_is_named() {
        let store = Store::temporary().unwrap();
        record_choice(&store, consent("T1", &["a", "b"])).unwrap();
        record_choice(&store, consent("T2", &["a"])).unwrap();
        assert_eq!(
            revoke(&store, Some("T1"), "kari", Some(&["a".to_string()])).unwrap(),
            1
        );
        assert_eq!(
            find(&store, "T1", "kari", None).unwrap().unwrap().accounts,
            ["b"]
        );
        assert!(find(&store, "T2", "kari", None)
            .unwrap()
            .unwrap()
            .covers("a"));
        assert_eq!(revoke(&store, None, "kari", None).unwrap(), 2);
        assert!(all(&store).unwrap().is_empty());
    }

    #[test]
    fn a_completed_sca_refreshes_only_the_consent_of_its_context() {
        let store = Store::temporary().unwrap();
        record_choice(&store, consent("T", &["a"])).unwrap();
        let later = datetime!(2026-03-01 0:00 UTC);
        refresh_sca(&store, "T", "kari", None, later).unwrap();
        refresh_sca(&store, "T", "kari", Some("agreement"), later).unwrap();
        refresh_sca(&store, "OTHER", "kari", None, later).unwrap();
        assert_eq!(
            find(&store, "T", "kari", None).unwrap().unwrap().sca_at,
            later
        );
        assert_eq!(all(&store).unwrap().len(), 1, "nothing is created");
    }

    #[test]
    fn online_access_is_recorded_per_tpp_and_account() {
        let store = Store::temporary().unwrap();
        let now = datetime!(2026-03-01 0:00 UTC);
        record_online_access(&store, "T", ["a", "card"], now).unwrap();
        assert_eq!(
            access_log(&store, "T", "a").unwrap().last_online_access,
            Some(now)
        );
        assert_eq!(
            access_log(&store, "T", "card").unwrap().last_online_access,
            Some(now)
        );
        assert_eq!(
            access_log(&store, "OTHER", "a").unwrap().last_online_access,
            None
        );
    }

    #[test]
    fn the_sca_behind_a_consent_is_renewed_every_180_days() {
        let c = consent("T", &["a"]);
        assert!(!c.needs_renewal(datetime!(2026-06-29 23:59 UTC)));
        assert!(c.needs_renewal(datetime!(2026-06-30 0:00 UTC)));
    }
}
