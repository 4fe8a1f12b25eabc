//! Transactions of mock accounts: `POST` and `GET /v1/sandbox/accounts/{mockAccountId}/transactions`
//! (docs/reference/mock-data.md#endpoints) and [`append`], through which payments will book theirs.
//!
//! Input: `amount`, `currency` and `bookingDate` are required; every other field of the bank's "Sandbox
//! account transaction" is optional and derived when absent, so the listing always returns every field
//! filled with something meaningful:
//!
//! | field | when absent |
//! |---|---|
//! | valueDate | the booking date |
//! | debtorName / debtorAccount | for a debit (negative amount): the account's owner and the account; for a credit:
//! [`COUNTERPARTY_NAME`] and the sandbox clearing account |
//! | creditorName / creditorAccount | for a credit: the owner and the account; for a debit: the counterparty as above |
//! | remittanceInformationUnstructured | `Betaling til <creditor>` (debit) or `Innbetaling fra <debtor>` (credit) |
//! | bankTransactionCode | `PMNT-ICDT-DMCT` (debit) or `PMNT-RCDT-DMCT` (credit), ISO 20022 domain-family-subfamily |
//! | ultimateDebtor / ultimateCreditor | the debtor's / creditor's name |
//! | purposeCode | `OTHR` |
//!
//! Amounts. The bank types this listing's `amount` as int32
//! (docs/reference/mock-data.md#choices-where-the-banks-documentation-is-open), unlike the regular API's decimal
//! strings. An int32 cannot carry øre, so the listing writes the amount as an integer number of the currency's minor
//! units (øre for NOK: `-12550` is -125.50 NOK), signed (negative = debit). On input `amount` may be that same
//! integer (so what a script reads it can post back) or a decimal string in major units like the rest of the API
//! (`"-125.50"`), validated against the currency's minor units. Either form must fit an int32 in minor units and
//! must not be zero.
//!
//! A batch is validated whole before anything is written: one bad item is refused with its path
//! (`[3].amount`) and nothing is stored.
//!
//! Pending transactions. An item with `"status": "pending"` is not booked yet
//! (docs/interface.md#mock-data-v1sandbox: pending ones may change between reads); it may give `valueDate` instead
//! of `bookingDate`. Pending transactions are kept apart from booked ones ([`PendingTransaction`]), numbered on
//! their own, listed here after the booked ones of the same date with `"status": "pending"`, and shown by the
//! account information listing in its
//! `pending` group — where the bank's known issue about them is reproduced (`api::ais::transactions`).

mod parse;

pub(crate) use parse::flexible_amount;
pub use parse::{AccountRefInput, TransactionInput};

use super::input::Warnings;
use super::listing::Listing;
use super::model::Account;
use super::model::{format_date, AccountRef, PendingTransaction, Transaction};
use super::{customers, derive_id, holdings, Warned};
use crate::domain::refusal::Refusal;
use crate::domain::{Bban, Currency, Iban};
use crate::store::Store;
use parse::Booking;
use serde::Serialize;
use std::sync::OnceLock;

/// The counterparty's name when a transaction names none.
pub const COUNTERPARTY_NAME: &str = "Sandbox Motpart AS";
/// bankTransactionCode has 4 to 14 characters
/// (docs/reference/mock-data.md#choices-where-the-banks-documentation-is-open).
pub const BANK_TRANSACTION_CODE_CHARS: std::ops::RangeInclusive<usize> = 4..=14;

/// The sandbox clearing account: the counterparty account of transactions that name none. A valid BBAN
/// outside the seed's range, always the same.
pub fn clearing_account() -> AccountRef {
    static CLEARING: OnceLock<AccountRef> = OnceLock::new();
    CLEARING
        .get_or_init(|| {
            let bban = (9_999_000_000u64..)
                .find_map(|stem| Bban::with_check_digit(&format!("{stem:010}")))
                .expect("some stem has a check digit");
            reference(&bban)
        })
        .clone()
}

fn reference(bban: &Bban) -> AccountRef {
    AccountRef {
        iban: Iban::from_norwegian_bban(bban).as_str().to_owned(),
        bban: bban.as_str().to_owned(),
    }
}

/// Validates a whole batch for an account; the first bad item is refused with its `[i].field` path.
/// Each transaction comes with whether it is booked or pending.
fn parse_batch(
    store: &Store,
    account_id: &str,
    items: &[TransactionInput],
    warnings: &mut Warnings,
) -> Result<Vec<(Transaction, Booking)>, Refusal> {
    let account = holdings::by_id::<Account>(store, "mockAccountId", account_id)?;
    let owner = customers::by_number(store, "customerNumber", &account.customer_number)?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            parse::parse_item(&format!("[{i}]"), item, &account, &owner.name, warnings)
        })
        .collect()
}

/// `POST /v1/sandbox/accounts/{mockAccountId}/transactions`: validates the batch, then stores it whole.
pub fn create(
    store: &Store,
    account_id: &str,
    items: &[TransactionInput],
) -> Result<Vec<TransactionView>, Refusal> {
    Ok(create_warned(store, account_id, items)?.value)
}

/// [`create`], with the warnings (account numbers with a wrong check digit, free-form purpose codes).
pub fn create_warned(
    store: &Store,
    account_id: &str,
    items: &[TransactionInput],
) -> Result<Warned<Vec<TransactionView>>, Refusal> {
    let mut warnings = Warnings::new();
    let parsed = parse_batch(store, account_id, items, &mut warnings)?;
    let order: Vec<Booking> = parsed.iter().map(|(_, b)| *b).collect();
    let (booked, pending): (Vec<_>, Vec<_>) =
        parsed.into_iter().partition(|(_, b)| *b == Booking::Booked);
    let _guard = store.locks().mock_data();
    let (booked, pending) = store.atomically(|store| {
        let booked = append_locked(store, booked.into_iter().map(|(t, _)| t).collect())?;
        let pending = append_pending_locked(store, pending.into_iter().map(|(t, _)| t).collect())?;
        Ok::<_, Refusal>((booked, pending))
    })?;
    // Answered in the order given.
    let (mut booked, mut pending) = (booked.into_iter(), pending.into_iter());
    let value = order
        .into_iter()
        .filter_map(|b| match b {
            Booking::Booked => booked.next().map(TransactionView::booked),
            Booking::Pending => pending.next().map(TransactionView::pending),
        })
        .collect();
    Ok(Warned { value, warnings })
}

/// Stores pending transactions with the next pending sequence numbers of their accounts (the caller holds
/// the write lock, inside one atomic operation).
fn append_pending_locked(
    store: &Store,
    mut transactions: Vec<Transaction>,
) -> Result<Vec<Transaction>, Refusal> {
    let table = store.table::<PendingTransaction>()?;
    number(&mut transactions, "pending-transaction", |account| {
        let existing = table.scan_prefix(&format!("{account}/"))?;
        Ok(existing.iter().map(|e| e.0.sequence).max().unwrap_or(0))
    })?;
    for t in &transactions {
        table.insert(&PendingTransaction(t.clone()))?;
    }
    Ok(transactions)
}

/// Gives each transaction the next sequence number of its account — after `last(account)`, the highest
/// recorded — and an id derived from `kind`, the account and the sequence.
fn number(
    transactions: &mut [Transaction],
    kind: &str,
    mut last: impl FnMut(&str) -> Result<u64, Refusal>,
) -> Result<(), Refusal> {
    let mut next: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    for t in transactions {
        let counter = match next.get_mut(&t.account_id) {
            Some(n) => n,
            None => {
                let last = last(&t.account_id)?;
                next.entry(t.account_id.clone()).or_insert(last)
            }
        };
        *counter += 1;
        t.sequence = *counter;
        t.id = derive_id(kind, &format!("{}/{}", t.account_id, t.sequence));
    }
    Ok(())
}

/// Books already validated transactions, giving each the next sequence number of its account and an id
/// derived from account and sequence. Payments book through here with `source` Payment.
pub fn append(store: &Store, transactions: Vec<Transaction>) -> Result<Vec<Transaction>, Refusal> {
    let _guard = store.locks().mock_data();
    store.atomically(|store| append_locked(store, transactions))
}

/// [`append`] for a caller that already holds the write lock (initialisation).
pub(crate) fn append_locked(
    store: &Store,
    transactions: Vec<Transaction>,
) -> Result<Vec<Transaction>, Refusal> {
    let stored = number_bookings(store, transactions)?;
    store.table::<Transaction>()?.insert_many(&stored)?;
    Ok(stored)
}

/// A link in the interface's Link shape (docs/interface.md#where-it-answers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SandboxLink)]
pub struct Link {
    pub href: String,
    pub verbs: Vec<&'static str>,
}

/// `_links` of a listed transaction: only `self`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SelfLinks {
    #[serde(rename = "self")]
    pub self_link: Link,
}

/// One item of the account transactions operation's answer ("Sandbox account transaction"): every field present, plus
/// `status` (booked or pending). A pending one's `bookingDate` is the date it is expected to book.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransactionView {
    pub id: String,
    pub status: &'static str,
    /// Minor units (øre for NOK), signed; see the module documentation.
    pub amount: i64,
    pub currency: Currency,
    pub value_date: String,
    pub remittance_information_unstructured: String,
    pub creditor_name: String,
    pub creditor_account: AccountRef,
    pub debtor_name: String,
    pub debtor_account: AccountRef,
    pub bank_transaction_code: String,
    pub ultimate_debtor: String,
    pub ultimate_creditor: String,
    pub purpose_code: String,
    pub booking_date: String,
    #[serde(rename = "_links")]
    pub links: SelfLinks,
    /// The booking date, for filtering.
    #[serde(skip)]
    pub date: time::Date,
}

impl TransactionView {
    fn booked(t: Transaction) -> Self {
        Self::new(t, "booked")
    }

    fn pending(t: Transaction) -> Self {
        Self::new(t, "pending")
    }

    fn new(t: Transaction, status: &'static str) -> Self {
        TransactionView {
            status,
            links: SelfLinks {
                self_link: Link {
                    href: format!(
                        "/v1/sandbox/accounts/{}/transactions/{}",
                        t.account_id, t.id
                    ),
                    verbs: vec!["GET"],
                },
            },
            amount: t.amount.minor_units(),
            currency: t.amount.currency,
            value_date: format_date(t.value_date),
            booking_date: format_date(t.booking_date),
            date: t.booking_date,
            id: t.id,
            remittance_information_unstructured: t.remittance_information_unstructured,
            creditor_name: t.creditor_name,
            creditor_account: t.creditor_account,
            debtor_name: t.debtor_name,
            debtor_account: t.debtor_account,
            bank_transaction_code: t.bank_transaction_code,
            ultimate_debtor: t.ultimate_debtor,
            ultimate_creditor: t.ultimate_creditor,
            purpose_code: t.purpose_code,
        }
    }
}

/// Every booked transaction of an account in listing order: booking date, then order of recording. Those
/// stored one by one and the payment bookings stored per run (`super::booking_blocks`) together.
pub fn of_account(store: &Store, account_id: &str) -> Result<Vec<Transaction>, Refusal> {
    let mut all = store
        .table::<Transaction>()?
        .scan_prefix(&format!("{account_id}/"))?;
    let booked_by_runs = super::booking_blocks::of_account(store, account_id)?;
    if !booked_by_runs.is_empty() {
        all.extend(booked_by_runs);
        // The order of the keys `<accountId>/<bookingDate>/<sequence>`.
        all.sort_by_key(|t| (t.booking_date, t.sequence));
    }
    Ok(all)
}

/// Every pending transaction of an account, by expected booking date, then order of recording.
pub fn pending_of_account(store: &Store, account_id: &str) -> Result<Vec<Transaction>, Refusal> {
    Ok(store
        .table::<PendingTransaction>()?
        .scan_prefix(&format!("{account_id}/"))?
        .into_iter()
        .map(|p| p.0)
        .collect())
}

/// Booked and pending transactions of an account in listing order: by date, booked before pending on
/// the same date, then by order of recording.
fn all_of_account(store: &Store, account_id: &str) -> Result<Vec<TransactionView>, Refusal> {
    let mut all: Vec<(Transaction, bool)> = of_account(store, account_id)?
        .into_iter()
        .map(|t| (t, false))
        .chain(
            pending_of_account(store, account_id)?
                .into_iter()
                .map(|t| (t, true)),
        )
        .collect();
    // Stable: each group is already in recording order.
    all.sort_by_key(|(t, pending)| (t.booking_date, *pending));
    Ok(all
        .into_iter()
        .map(|(t, pending)| {
            if pending {
                TransactionView::pending(t)
            } else {
                TransactionView::booked(t)
            }
        })
        .collect())
}

/// `GET /v1/sandbox/accounts/{mockAccountId}/transactions`: filtered by booking date, then paged.
pub fn list(
    store: &Store,
    account_id: &str,
    listing: &Listing,
) -> Result<Vec<TransactionView>, Refusal> {
    holdings::by_id::<Account>(store, "mockAccountId", account_id)?;
    let selected = all_of_account(store, account_id)?
        .into_iter()
        .filter(|t| listing.includes(t.date));
    Ok(listing.page(selected))
}

/// `GET /v1/sandbox/accounts/{mockAccountId}/transactions/{transactionId}`: the `self` link's target.
pub fn get(
    store: &Store,
    account_id: &str,
    transaction_id: &str,
) -> Result<TransactionView, Refusal> {
    holdings::by_id::<Account>(store, "mockAccountId", account_id)?;
    all_of_account(store, account_id)?
        .into_iter()
        .find(|t| t.id == transaction_id)
        .ok_or_else(|| Refusal::unknown("transactionId", "transaction", transaction_id))
}

#[cfg(test)]
mod tests;

// ---- Payment bookings (the batch simulator, `crate::bank::batch`), added by the batch area. ----

/// The last sequence number given on one account: kept as a counter so that appending to a long-lived
/// account costs one read, not a scan of its transactions.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SequenceCounter {
    pub account_id: String,
    pub last: u64,
}

impl crate::store::Record for SequenceCounter {
    const TREE: &'static str = "sandbox-transaction-sequences";
    fn key(&self) -> String {
        self.account_id.clone()
    }
}

/// The highest sequence number recorded on `account_id` (0 when none): the counter, or, for data written
/// before counters existed, the largest sequence in the keys (`<accountId>/<date>/<sequence>`).
pub(crate) fn last_sequence(store: &Store, account_id: &str) -> Result<u64, Refusal> {
    if let Some(counter) = store.table::<SequenceCounter>()?.get(account_id)? {
        return Ok(counter.last);
    }
    Ok(store
        .table::<Transaction>()?
        .keys_with_prefix(&format!("{account_id}/"))?
        .iter()
        .filter_map(|key| key.rsplit('/').next()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0))
}

/// Numbers payment bookings like [`append`] does (the next sequence of each account, an id derived from
/// account and sequence), writing only the accounts' counters: the batch simulator writes the bookings
/// themselves with `Table::insert_many`, in the same atomic operation. The caller holds the write lock. `account_id`
/// may also be a card account's id (payments debited from a card).
pub(crate) fn number_bookings(
    store: &Store,
    mut transactions: Vec<Transaction>,
) -> Result<Vec<Transaction>, Refusal> {
    let mut next: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    for t in &mut transactions {
        let counter = match next.get_mut(&t.account_id) {
            Some(n) => n,
            None => {
                let last = last_sequence(store, &t.account_id)?;
                next.entry(t.account_id.clone()).or_insert(last)
            }
        };
        *counter += 1;
        t.sequence = *counter;
        t.id = derive_id("transaction", &format!("{}/{}", t.account_id, t.sequence));
    }
    let counters: Vec<SequenceCounter> = next
        .into_iter()
        .map(|(account_id, last)| SequenceCounter { account_id, last })
        .collect();
    store.table::<SequenceCounter>()?.insert_many(&counters)?;
    Ok(transactions)
}

// ---- End of the batch simulator's block. ----
