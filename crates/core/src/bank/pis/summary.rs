//! The payments of every TPP in one list, as the bank (the batch monitor) sees them: newest first, with
//! the status, the total and any forced outcome. A bank-side read across TPPs.

use super::model::{DebtorAccount, ForcedOutcome, Payment};
use super::status::PaymentStatus;
use crate::domain::refusal::CoreResult;
use crate::store::Store;
use serde::Serialize;
use time::OffsetDateTime;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentSummary {
    pub payment_id: String,
    pub product: &'static str,
    pub service: &'static str,
    pub status: PaymentStatus,
    /// The total of the orders, as a decimal string.
    pub amount: String,
    pub currency: String,
    /// The debtor account's BBAN, or the card reference.
    pub debtor: String,
    /// The creditor of a single order; for several, how many orders.
    pub creditor_name: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub authorised_at: Option<OffsetDateTime>,
    pub funds_available: Option<bool>,
    pub forced_outcome: Option<&'static str>,
    pub tpp_id: String,
}

/// The status a forced outcome makes the payment end in.
pub fn forced_code(forced: ForcedOutcome) -> &'static str {
    match forced {
        ForcedOutcome::Rejected => "RJCT",
        ForcedOutcome::LackingFunds => "ACCP",
        ForcedOutcome::Pending => "PDNG",
        ForcedOutcome::Partial => "PART",
    }
}

fn summary(p: &Payment) -> PaymentSummary {
    let first = p.payment.orders.first();
    PaymentSummary {
        payment_id: p.id.clone(),
        product: p.payment.product.path(),
        service: p.payment.service.path(),
        status: p.status,
        amount: p.total().to_string(),
        currency: first
            .map(|o| o.instructed_amount.currency.code().to_owned())
            .unwrap_or_default(),
        debtor: match first.map(|o| &o.debtor_account) {
            Some(DebtorAccount::Bban { bban, .. }) => bban.clone(),
            Some(DebtorAccount::Card { identification, .. }) => identification.clone(),
            None => String::new(),
        },
        creditor_name: match p.payment.orders.len() {
            1 => first.map(|o| o.creditor_name.clone()).unwrap_or_default(),
            n => format!("{n} orders"),
        },
        created_at: p.created_at,
        authorised_at: p.authorised_at,
        funds_available: p.funds_available,
        forced_outcome: p.forced.map(forced_code),
        tpp_id: p.tpp_id.clone(),
    }
}

/// The newest `limit` payments, only those in `status` when given.
pub fn list(
    store: &Store,
    status: Option<PaymentStatus>,
    limit: usize,
) -> CoreResult<Vec<PaymentSummary>> {
    let mut all: Vec<Payment> = store
        .table::<Payment>()?
        .list()?
        .into_iter()
        .filter(|p| status.is_none_or(|s| p.status == s))
        .collect();
    all.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    Ok(all.iter().take(limit).map(summary).collect())
}
