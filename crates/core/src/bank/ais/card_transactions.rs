//! A card account's transactions as account information reads them ([`list`]): the same filters, paging
//! and 90-day history floor as an account's (docs/reference/ais-sca.md#transaction-listings), by booking
//! date, or transaction date while pending. Unlike account transactions, the date filters and paging apply
//! to pending card transactions too: card-account services are not affected by the bank's known issue
//! (docs/interface.md#known-issues-reproduced).

use super::access::{Access, Endpoint};
use super::granted;
use super::listing::{TransactionListing, TransactionQuery};
use crate::bank::mock::card_transactions::of_card_account;
use crate::bank::mock::model::{CardAccount, CardTransaction, CardTransactionStatus};
use crate::domain::clock::Clock;
use crate::domain::refusal::{CoreResult, TppMessage};
use crate::store::Store;

/// A page of a card account's transactions.
#[derive(Debug, Clone)]
pub struct CardTransactionPage {
    pub card: CardAccount,
    /// The listing as served: `dateFrom` raised to the history floor without the PSU present.
    pub listing: TransactionListing,
    /// `None` when bookingStatus does not ask for the group.
    pub booked: Option<Vec<CardTransaction>>,
    pub pending: Option<Vec<CardTransaction>>,
    /// How many card transactions the filters selected (what the pages divide).
    pub selected: usize,
    /// The WARNING of the history floor, when it applied.
    pub warnings: Vec<TppMessage>,
}

/// The page of the card account's transactions `query` asks for. The query is read first: a malformed
/// request must not use up one of the calls allowed without the PSU present.
pub fn list(
    store: &Store,
    clock: &Clock,
    access: &Access,
    card_id: &str,
    query: &TransactionQuery,
) -> CoreResult<CardTransactionPage> {
    let mut listing = TransactionListing::parse(query)?;
    let card =
        granted::consented::<CardAccount>(store, clock, access, card_id, Endpoint::Transactions)?;
    let warnings = listing
        .limit_history(access.earliest_history(clock.now()))
        .into_iter()
        .collect();
    let selected: Vec<CardTransaction> = of_card_account(store, &card.id)?
        .into_iter()
        .filter(|t| match t.status {
            CardTransactionStatus::Booked => listing.status.wants_booked(),
            CardTransactionStatus::Pending => listing.status.wants_pending(),
        })
        .filter(|t| listing.includes(t.listing_date()))
        .collect();
    let total = selected.len();
    let (pending, booked): (Vec<_>, Vec<_>) = listing
        .page(selected)
        .into_iter()
        .partition(|t| t.status == CardTransactionStatus::Pending);
    Ok(CardTransactionPage {
        card,
        booked: listing.status.wants_booked().then_some(booked),
        pending: listing.status.wants_pending().then_some(pending),
        listing,
        selected: total,
        warnings,
    })
}
