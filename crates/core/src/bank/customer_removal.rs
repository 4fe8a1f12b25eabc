//! Deleting a sandbox customer (`DELETE /v1/sandbox/customers/{customerId}`, as the bank platform's
//! developer kit does before it runs its scripts again) with everything that hangs on it, all at once or
//! not at all. It spans the mock data and the flows built on it, so it lives here rather than in
//! `sandbox`, which knows nothing of consents and payments.
//!
//! What goes, and what happens to the rest (documented for users in `docs/interface.md`):
//! - the customer, its accounts and card accounts, with their booked, pending and card transactions;
//! - the corporate agreements it owns; as a person, its engagements in other corporations' agreements (an
//!   agreement left without any engagement goes too);
//! - the consents it granted (any TPP, any context) and every consent given under an agreement that goes;
//!   its TPP sessions, psu-ids and psu-corporate-ids of agreements that go, its unfinished authorisations,
//!   and the access counts of its accounts: a TPP that still sends its PSU-ID is asked for SCA again;
//! - payments debiting its accounts or card accounts, or made for it, that are not final are cancelled
//!   (CANC, with the reason in their status history), as a bank cancels the orders of a closed account.
//!   Payments and transactions themselves are history and stay: a TPP can still read its payment's
//!   status, and other customers keep the transactions that name the deleted accounts.

use crate::bank::consent::{AccountAccessLog, Consent};
use crate::bank::mock::booking_blocks::BookingBlock;
use crate::bank::mock::model::{
    Account, Agreement, CardAccount, CardTransaction, Customer, PendingTransaction, Transaction,
};
use crate::bank::pis::model::Payment;
use crate::bank::pis::status::PaymentStatus;
use crate::bank::sca::authorisation::Authorisation;
use crate::bank::sca::psu::{CorporateLink, PsuLink};
use crate::bank::sca::session::TppSession;
use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::{Record, Store, Table};
use std::collections::HashSet;
use time::OffsetDateTime;

/// The reason written into the status history of the payments the deletion cancels.
pub const CANCEL_REASON: &str =
    "The sandbox customer whose account this payment debits was deleted.";

/// How much a deletion removed or changed (for tests and logs; the API answers 204).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removal {
    pub customer: Option<Customer>,
    pub accounts: usize,
    pub card_accounts: usize,
    pub transactions: usize,
    pub card_transactions: usize,
    pub agreements_removed: usize,
    pub agreements_changed: usize,
    pub consents: usize,
    pub payments_cancelled: usize,
}

/// Deletes the customer named by `id` — its `customerId`, or its customer number — and what hangs on it
/// (see the module documentation). 404 RESOURCE_UNKNOWN at `customerId` when there is none.
pub fn delete(store: &Store, id: &str, now: OffsetDateTime) -> CoreResult<Removal> {
    // The deletion cancels payments and removes mock data: no batch run or mock-data write may interleave.
    let _runs = store.locks().runs();
    let _mock_data = store.locks().mock_data();
    store.atomically(|store| delete_in(store, id, now))
}

fn delete_in(store: &Store, id: &str, now: OffsetDateTime) -> CoreResult<Removal> {
    let customers = store.table::<Customer>()?;
    let number: String = id.chars().filter(|c| *c != ' ').collect();
    let customer = match customers.find(|c| c.id == id)? {
        Some(c) => c,
        None => customers
            .get(&number)?
            .ok_or_else(|| Refusal::unknown("customerId", "customer", id))?,
    };
    let mut removal = Removal::default();
    customers.remove(&customer.key())?;

    let accounts = remove_where(&store.table::<Account>()?, |a| a.customer_id == customer.id)?;
    let cards = remove_where(&store.table::<CardAccount>()?, |c| {
        c.customer_id == customer.id
    })?;
    removal.accounts = accounts.len();
    removal.card_accounts = cards.len();
    let account_ids: HashSet<String> = accounts
        .iter()
        .map(|a| a.id.clone())
        .chain(cards.iter().map(|c| c.id.clone()))
        .collect();
    let transactions = store.table::<Transaction>()?;
    let booking_blocks = store.table::<BookingBlock>()?;
    let pending = store.table::<PendingTransaction>()?;
    let card_transactions = store.table::<CardTransaction>()?;
    for id in &account_ids {
        // Payments debited from a card are booked among the account transactions, under the card's id.
        removal.transactions += remove_prefix(&transactions, id)?;
        for block in booking_blocks.scan_prefix(&format!("{id}/"))? {
            booking_blocks.remove(&block.key())?;
            removal.transactions += block.transactions.len();
        }
        removal.transactions += remove_prefix(&pending, id)?;
        removal.card_transactions += remove_prefix(&card_transactions, id)?;
    }

    let removed_agreements = remove_agreements(store, &customer, &mut removal)?;
    removal.consents = remove_where(&store.table::<Consent>()?, |c| {
        c.customer_id == customer.id
            || c.agreement_id
                .as_ref()
                .is_some_and(|a| removed_agreements.contains(a))
    })?
    .len();
    remove_where(&store.table::<AccountAccessLog>()?, |l| {
        account_ids.contains(&l.account_id)
    })?;
    remove_where(&store.table::<TppSession>()?, |s| {
        s.customer_id == customer.id
    })?;
    remove_where(&store.table::<PsuLink>()?, |l| l.customer_id == customer.id)?;
    remove_where(&store.table::<CorporateLink>()?, |l| {
        removed_agreements.contains(&l.agreement_id)
    })?;
    remove_where(&store.table::<Authorisation>()?, |a| {
        a.outcome.is_none()
            && [&a.customer_id, &a.preset_customer_id]
                .iter()
                .any(|c| c.as_deref() == Some(customer.id.as_str()))
    })?;

    let payments = store.table::<Payment>()?;
    for mut payment in payments.list()? {
        let concerned =
            account_ids.contains(&payment.debtor_account_id) || payment.customer_id == customer.id;
        if concerned && !payment.status.is_final() {
            payment.set_status(PaymentStatus::CANC, Some(CANCEL_REASON.to_owned()), now);
            payments.insert(&payment)?;
            removal.payments_cancelled += 1;
        }
    }
    removal.customer = Some(customer);
    Ok(removal)
}

/// Removes the agreements the customer owns and its engagements in others (an agreement left without
/// engagements goes); returns the ids of the agreements removed.
fn remove_agreements(
    store: &Store,
    customer: &Customer,
    removal: &mut Removal,
) -> CoreResult<HashSet<String>> {
    let agreements = store.table::<Agreement>()?;
    let mut removed = HashSet::new();
    for mut agreement in agreements.list()? {
        let before = agreement.engagements.len();
        agreement
            .engagements
            .retain(|e| e.customer_id != customer.id);
        if agreement.owner_customer_id == customer.id || agreement.engagements.is_empty() {
            agreements.remove(&agreement.key())?;
            removed.insert(agreement.id);
            removal.agreements_removed += 1;
        } else if agreement.engagements.len() != before {
            agreements.insert(&agreement)?;
            removal.agreements_changed += 1;
        }
    }
    Ok(removed)
}

/// Removes every record that `matches`; returns them.
fn remove_where<R: Record>(table: &Table<R>, matches: impl Fn(&R) -> bool) -> CoreResult<Vec<R>> {
    let mut removed = Vec::new();
    for record in table.list()? {
        if matches(&record) {
            table.remove(&record.key())?;
            removed.push(record);
        }
    }
    Ok(removed)
}

/// Removes every record keyed under `<id>/`; returns how many.
fn remove_prefix<R: Record>(table: &Table<R>, id: &str) -> CoreResult<usize> {
    let keys = table.keys_with_prefix(&format!("{id}/"))?;
    for key in &keys {
        table.remove(key)?;
    }
    Ok(keys.len())
}

#[cfg(test)]
mod tests;
