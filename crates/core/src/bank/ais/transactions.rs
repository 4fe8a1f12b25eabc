//! An account's transactions as account information reads them: the list ([`list`]: the filters, the
//! paging, the 90-day history floor without the PSU present, the bank's known issue about pending
//! transactions) and one transaction ([`details`]); docs/reference/ais-sca.md#transaction-listings.
//!
//! Pending transactions (made with `"status": "pending"` on the sandbox endpoint) have no booking date in
//! the answer. The bank's known issue (docs/interface.md#known-issues-reproduced) is reproduced by default:
//! with bookingStatus `both` or `pending` every pending transaction is returned, whatever dateFrom, dateTo,
//! limit and offset say (they page the booked ones alone), with a WARNING naming the issue; the setting
//! `reproducePendingTransactionsIssue: false` turns it off, and then pending ones are filtered and paged
//! together with the booked ones, as `all` always does.
//!
//! The details of one transaction need what the list needs without the PSU present (the account read
//! online with SCA in the last 90 days, the transaction inside the 90 days) but do not count towards the 4
//! calls per 24 hours, which the bank sets for the list
//! (docs/interface.md#strong-customer-authentication-and-tpp-sessions).

use super::access::{Access, Endpoint};
use super::granted;
use super::listing::{BookingStatus, TransactionListing, TransactionQuery};
use crate::bank::consent::{self, UNATTENDED_HISTORY};
use crate::bank::mock::model::{format_date, Account, Transaction};
use crate::bank::mock::transactions::{of_account, pending_of_account};
use crate::bank::pis::settings;
use crate::domain::clock::Clock;
use crate::domain::refusal::{Code, CoreResult, Refusal, TppMessage};
use crate::store::Store;
use time::OffsetDateTime;

/// A page of an account's transactions.
#[derive(Debug, Clone)]
pub struct TransactionPage {
    pub account: Account,
    /// The listing as served: `dateFrom` raised to the history floor without the PSU present.
    pub listing: TransactionListing,
    /// `None` when bookingStatus does not ask for the group.
    pub booked: Option<Vec<Transaction>>,
    pub pending: Option<Vec<Transaction>>,
    /// How many transactions the filters selected (what the pages divide).
    pub selected: usize,
    /// The WARNINGs to send along (the history floor, the known issue).
    pub warnings: Vec<TppMessage>,
}

/// One transaction, and whether it is still pending.
#[derive(Debug, Clone)]
pub struct FoundTransaction {
    pub transaction: Transaction,
    pub pending: bool,
}

/// The page of the account's transactions `query` asks for. The query is read first: a malformed request
/// must not use up one of the calls allowed without the PSU present.
pub fn list(
    store: &Store,
    clock: &Clock,
    access: &Access,
    account_id: &str,
    query: &TransactionQuery,
) -> CoreResult<TransactionPage> {
    let mut listing = TransactionListing::parse(query)?;
    let account =
        granted::consented::<Account>(store, clock, access, account_id, Endpoint::Transactions)?;
    let mut warnings: Vec<TppMessage> = listing
        .limit_history(access.earliest_history(clock.now()))
        .into_iter()
        .collect();
    let booked = if listing.status.wants_booked() {
        of_account(store, &account.id)?
    } else {
        Vec::new()
    };
    let pending = if listing.status.wants_pending() {
        pending_of_account(store, &account.id)?
    } else {
        Vec::new()
    };
    let reproduce_issue = matches!(listing.status, BookingStatus::Pending | BookingStatus::Both)
        && settings::in_effect(store)?.reproduce_pending_transactions_issue;
    let (selected, booked_page, pending_page) = if reproduce_issue {
        // The known issue: the filters and paging apply to the booked transactions alone.
        let booked: Vec<Transaction> = booked
            .into_iter()
            .filter(|t| listing.includes(t.booking_date))
            .collect();
        if !pending.is_empty() {
            warnings.push(pending_issue_warning(pending.len()));
        }
        (booked.len(), listing.page(booked), pending)
    } else {
        let mut selected: Vec<(Transaction, bool)> = booked
            .into_iter()
            .map(|t| (t, false))
            .chain(pending.into_iter().map(|t| (t, true)))
            .filter(|(t, _)| listing.includes(t.booking_date))
            .collect();
        // Stable: each group is in recording order already; booked first on the same date.
        selected.sort_by_key(|(t, pending)| (t.booking_date, *pending));
        let total = selected.len();
        let (pending, booked): (Vec<_>, Vec<_>) = listing
            .page(selected)
            .into_iter()
            .partition(|(_, pending)| *pending);
        (
            total,
            booked.into_iter().map(|(t, _)| t).collect(),
            pending.into_iter().map(|(t, _)| t).collect(),
        )
    };
    Ok(TransactionPage {
        account,
        booked: listing.status.wants_booked().then_some(booked_page),
        pending: listing.status.wants_pending().then_some(pending_page),
        listing,
        selected,
        warnings,
    })
}

/// The WARNING that says the bank's known issue shaped the `pending` group.
pub fn pending_issue_warning(count: usize) -> TppMessage {
    TppMessage::warning(
        Code::BadRequest,
        Some("bookingStatus"),
        format!(
            "Reproducing a known issue of the bank (docs/interface.md): with bookingStatus both or pending all {count} pending \
             transactions are returned; dateFrom, dateTo, limit and offset do not filter them. Turn it off \
             with PUT /v1/sandbox/settings {{\"reproducePendingTransactionsIssue\": false}}."
        ),
    )
}

/// Without the PSU present: the account must have been read online with SCA in the last 90 days, else
/// 401 CONSENT_EXPIRED at PSU-IP-Address.
fn require_recent_online_access(
    store: &Store,
    access: &Access,
    account_id: &str,
    now: OffsetDateTime,
) -> CoreResult<()> {
    let log = consent::access_log(store, &access.tpp.tpp_id(), account_id)?;
    if log
        .last_online_access
        .is_some_and(|at| now - at <= UNATTENDED_HISTORY)
    {
        return Ok(());
    }
    Err(Refusal::new(
        Code::ConsentExpired,
        Some("PSU-IP-Address"),
        "Without the PSU present (no PSU-IP-Address) transactions can be read only if the PSU accessed the \
         account online with SCA through this TPP in the last 90 days. Read it once with the PSU present.",
    ))
}

/// One transaction of a granted account, booked or pending: 404 RESOURCE_UNKNOWN at transactionId when
/// the account has none with this id, or (without the PSU present) when it was booked before the floor.
pub fn details(
    store: &Store,
    clock: &Clock,
    access: &Access,
    account_id: &str,
    transaction_id: &str,
) -> CoreResult<FoundTransaction> {
    let account =
        granted::consented::<Account>(store, clock, access, account_id, Endpoint::Details)?;
    let now = clock.now();
    let floor = access.earliest_history(now);
    if floor.is_some() {
        require_recent_online_access(store, access, &account.id, now)?;
    }
    let booked = of_account(store, &account.id)?
        .into_iter()
        .map(|t| (t, false));
    let pending = pending_of_account(store, &account.id)?
        .into_iter()
        .map(|t| (t, true));
    let (transaction, pending) = booked
        .chain(pending)
        .find(|(t, _)| t.id == transaction_id)
        .ok_or_else(|| Refusal::unknown("transactionId", "transaction", transaction_id))?;
    if let Some(floor) = floor.filter(|f| transaction.booking_date < *f) {
        return Err(Refusal::new(
            Code::ResourceUnknown,
            Some("transactionId"),
            format!(
                "Transaction '{transaction_id}' was booked before {}: without the PSU present history is \
                 limited to 90 days.",
                format_date(floor)
            ),
        ));
    }
    Ok(FoundTransaction {
        transaction,
        pending,
    })
}

#[cfg(test)]
mod tests;
