//! The SCAs not finished yet, for the workbench's SCA screen: every authorisation a TPP started whose PSU
//! has not completed, cancelled or failed it and whose 30 minutes have not run out, newest first, with the
//! link to the bank's page the PSU would open.

use serde::Serialize;
use time::OffsetDateTime;
use xs2a_core::bank::sca::authorisation::{Authorisation, Purpose, Step, LIFETIME};
use xs2a_core::domain::refusal::CoreResult;
use xs2a_core::store::Store;

/// What the SCA is for, as the screen groups them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PendingKind {
    /// A consent: the PSU picks the accounts.
    Consent,
    /// One payment's approval.
    Payment,
    /// A signing basket's approval (several payments, one SCA).
    Basket,
    /// `GET /v1/users`: the PSU only identifies themself.
    User,
}

/// One unfinished SCA.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingSca {
    /// The authorisation id (the last part of the scaRedirect).
    pub id: String,
    pub tpp_id: String,
    pub tpp_name: String,
    pub kind: PendingKind,
    /// The page the PSU is on.
    pub step: Step,
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    /// After this it can no longer be completed.
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    /// The bank's page to open (absolute).
    pub sca_redirect: String,
    /// The payments a payment or basket SCA approves.
    pub payment_ids: Vec<String>,
    #[schema(required = true)]
    pub basket_id: Option<String>,
}

/// What an authorisation is for, as the SCA screen groups them.
pub(crate) fn kind(authorisation: &Authorisation) -> PendingKind {
    match authorisation.purpose {
        Purpose::Consent => PendingKind::Consent,
        Purpose::UserLookup => PendingKind::User,
        Purpose::Payment if authorisation.basket_id.is_some() => PendingKind::Basket,
        Purpose::Payment => PendingKind::Payment,
    }
}

/// The unfinished authorisations at `now`, newest first; `base_url` makes the page links absolute.
pub fn pending(store: &Store, now: OffsetDateTime, base_url: &str) -> CoreResult<Vec<PendingSca>> {
    let mut list: Vec<PendingSca> = store
        .table::<Authorisation>()?
        .list()?
        .into_iter()
        .filter(|a| a.outcome.is_none() && !a.is_expired(now))
        .map(|a| PendingSca {
            kind: kind(&a),
            step: a.step(),
            started_at: a.created_at,
            expires_at: a.created_at + LIFETIME,
            sca_redirect: format!("{base_url}{}", a.page_path()),
            id: a.id,
            tpp_id: a.tpp_id,
            tpp_name: a.tpp_name,
            payment_ids: a.payment_ids,
            basket_id: a.basket_id,
        })
        .collect();
    list.sort_by(|a, b| b.started_at.cmp(&a.started_at).then(b.id.cmp(&a.id)));
    Ok(list)
}
