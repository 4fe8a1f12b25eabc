//! Transactions of mock card accounts: `POST` and `GET /v1/sandbox/card-accounts/{mockCardAccountId}/transactions`
//! (docs/reference/mock-data.md#endpoints).
//!
//! Input per item: `transactionAmount` `{currency, amount}` is required and its currency must be the card
//! account's; `bookingDate` is required for booked items (`status` booked, the default) and optional for
//! pending ones; `transactionDate` defaults to the booking date (one of the two is needed);
//! `originalAmount` (the amount in the currency the card was used in) defaults to `transactionAmount`;
//! `merchantCategoryCode` (four digits, ISO 18245) defaults to `5999` — another text of up to 35
//! characters is kept with a WARNING, as the bank platform's sandbox keeps its developer kit's `BOB` and
//! `TEST`; the kit's further fields (`terminalId`, `markupFee`, `cardAcceptorAddress: {}`, empty strings)
//! are accepted and not stored; `cardTransactionId` (at most 35
//! characters, unique per card account, else 409) is derived when absent. Amounts follow the account
//! transactions' rule: integer minor units or a decimal string in major units (see `transactions`); the
//! listing writes them as integer minor units, as the bank's int32 requires
//! (docs/reference/mock-data.md#choices-where-the-banks-documentation-is-open).
//!
//! Listing: `bookingStatus` (booked, pending or both) is required. Transactions are filtered by date (the
//! booking date, or the transaction date of a pending one without booking date) and by status, put in
//! date-then-recording order, paged with offset/limit over booked and pending together, and then split:
//! booked ones in full under `booked`; pending ones, for which the bank gives `string[]`, as their
//! `cardTransactionId`s under `pending`.

use super::input::{self, at, warn, Warnings};
use super::listing::Listing;
use super::model::{format_date, CardAccount, CardTransaction, CardTransactionStatus, Money};
use super::transactions::flexible_amount;
use super::{derive_id, holdings, Warned};
use crate::domain::refusal::Refusal;
use crate::domain::Currency;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashSet;

/// The merchant category code of items that give none: 5999, miscellaneous retail.
pub const DEFAULT_MERCHANT_CATEGORY_CODE: &str = "5999";
const MAX_ID: usize = 35;

/// An amount object whose `amount` may be integer minor units or a decimal string.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct CardAmountInput {
    pub currency: Option<String>,
    #[schema(schema_with = super::input::amount_schema)]
    pub amount: Option<Value>,
}

/// One item of `POST /v1/sandbox/card-accounts/{mockCardAccountId}/transactions`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardTransactionInput {
    pub card_transaction_id: Option<String>,
    pub booking_date: Option<String>,
    pub transaction_date: Option<String>,
    pub transaction_amount: Option<CardAmountInput>,
    pub original_amount: Option<CardAmountInput>,
    pub merchant_category_code: Option<String>,
    /// booked (default) or pending.
    pub status: Option<String>,
}

fn card_amount(
    path: &str,
    input: &CardAmountInput,
    expected: Option<Currency>,
) -> Result<Money, Refusal> {
    let currency_path = at(path, "currency");
    let currency = input::currency(
        &currency_path,
        input::required(&currency_path, &input.currency)?,
    )?;
    if let Some(expected) = expected.filter(|e| *e != currency) {
        return Err(Refusal::format(
            &currency_path,
            format!("{currency_path} is {currency}, but the card account's currency is {expected}; give the amount in the original currency under originalAmount"),
        ));
    }
    let amount_path = at(path, "amount");
    flexible_amount(
        &amount_path,
        input::required(&amount_path, &input.amount)?,
        currency,
    )
}

fn parse_item(
    prefix: &str,
    item: &CardTransactionInput,
    card: &CardAccount,
    warnings: &mut Warnings,
) -> Result<CardTransaction, Refusal> {
    let status_path = at(prefix, "status");
    let status = match item.status.as_deref() {
        None | Some("booked") => CardTransactionStatus::Booked,
        Some("pending") => CardTransactionStatus::Pending,
        Some(other) => {
            return Err(Refusal::format(
                &status_path,
                format!("{status_path} '{other}' is not a status; use booked or pending"),
            ))
        }
    };
    let id = input::text(
        &at(prefix, "cardTransactionId"),
        &item.card_transaction_id,
        MAX_ID,
    )?;
    let booking_path = at(prefix, "bookingDate");
    let booking_date = item
        .booking_date
        .as_deref()
        .map(|d| input::date(&booking_path, d))
        .transpose()?;
    if status == CardTransactionStatus::Booked && booking_date.is_none() {
        return Err(Refusal::format(
            &booking_path,
            format!("{booking_path} is required for a booked card transaction"),
        ));
    }
    let date_path = at(prefix, "transactionDate");
    let transaction_date = match (&item.transaction_date, booking_date) {
        (Some(d), _) => input::date(&date_path, d)?,
        (None, Some(b)) => b,
        (None, None) => {
            return Err(Refusal::format(
                &date_path,
                format!("{date_path} is required"),
            ))
        }
    };
    let amount_path = at(prefix, "transactionAmount");
    let transaction_amount = card_amount(
        &amount_path,
        input::required(&amount_path, &item.transaction_amount)?,
        Some(card.currency),
    )?;
    let original_amount = match &item.original_amount {
        Some(o) => card_amount(&at(prefix, "originalAmount"), o, None)?,
        None => transaction_amount.clone(),
    };
    let mcc_path = at(prefix, "merchantCategoryCode");
    let merchant_category_code = match input::text(&mcc_path, &item.merchant_category_code, MAX_ID)?
    {
        None => DEFAULT_MERCHANT_CATEGORY_CODE.to_owned(),
        Some(code) => {
            if !(code.len() == 4 && code.bytes().all(|b| b.is_ascii_digit())) {
                warn(
                    warnings,
                    &mcc_path,
                    format!(
                        "{mcc_path} '{code}' is not a merchant category code (four digits, ISO 18245, \
                         e.g. 5411); kept as given, as the bank platform's sandbox does."
                    ),
                );
            }
            code
        }
    };
    Ok(CardTransaction {
        id: id.unwrap_or_default(),
        card_account_id: card.id.clone(),
        sequence: 0,
        status,
        booking_date,
        transaction_date,
        transaction_amount,
        original_amount,
        merchant_category_code,
    })
}

/// `POST /v1/sandbox/card-accounts/{mockCardAccountId}/transactions`: validates the whole batch, then
/// stores it. A `cardTransactionId` already used on the card account, or twice in the batch, is 409.
pub fn create(
    store: &Store,
    card_account_id: &str,
    items: &[CardTransactionInput],
) -> Result<Vec<CardTransactionView>, Refusal> {
    Ok(create_warned(store, card_account_id, items)?.value)
}

/// [`create`], with the warnings (free-form merchant category codes).
pub fn create_warned(
    store: &Store,
    card_account_id: &str,
    items: &[CardTransactionInput],
) -> Result<Warned<Vec<CardTransactionView>>, Refusal> {
    let card = holdings::by_id::<CardAccount>(store, "mockCardAccountId", card_account_id)?;
    let mut warnings = Warnings::new();
    let parsed = items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_item(&format!("[{i}]"), item, &card, &mut warnings))
        .collect::<Result<Vec<_>, _>>()?;
    let _guard = store.locks().mock_data();
    let value = store.atomically(|store| store_batch(store, &card.id, parsed))?;
    Ok(Warned { value, warnings })
}

/// Stores a validated batch with the next sequence numbers of the card account (under the write lock,
/// inside one atomic operation).
fn store_batch(
    store: &Store,
    card_id: &str,
    parsed: Vec<CardTransaction>,
) -> Result<Vec<CardTransactionView>, Refusal> {
    let table = store.table::<CardTransaction>()?;
    let existing = table.scan_prefix(&format!("{card_id}/"))?;
    let mut taken: HashSet<String> = existing.iter().map(|t| t.id.clone()).collect();
    for (i, t) in parsed.iter().enumerate() {
        if !t.id.is_empty() && !taken.insert(t.id.clone()) {
            return Err(Refusal::conflict(
                &format!("[{i}].cardTransactionId"),
                format!(
                    "cardTransactionId {} is already used on this card account",
                    t.id
                ),
            ));
        }
    }
    let mut sequence = existing.iter().map(|t| t.sequence).max().unwrap_or(0);
    let mut stored = Vec::with_capacity(parsed.len());
    for mut t in parsed {
        sequence += 1;
        t.sequence = sequence;
        if t.id.is_empty() {
            t.id = derive_id("card-transaction", &format!("{card_id}/{sequence}"));
        }
        table.insert(&t)?;
        stored.push(CardTransactionView::from(t));
    }
    Ok(stored)
}

/// Which transactions a listing wants (`bookingStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookingStatus {
    Booked,
    Pending,
    Both,
}

impl BookingStatus {
    /// Required: missing is 400 QUERY_PARAMETER_REQUIRED, another value 400 FORMAT_ERROR.
    pub fn parse(value: Option<&str>) -> Result<BookingStatus, Refusal> {
        match value {
            None => Err(Refusal::query_parameter_required("bookingStatus")),
            Some("booked") => Ok(BookingStatus::Booked),
            Some("pending") => Ok(BookingStatus::Pending),
            Some("both") => Ok(BookingStatus::Both),
            Some(other) => Err(Refusal::format(
                "bookingStatus",
                format!(
                    "bookingStatus '{other}' is not supported here; use booked, pending or both"
                ),
            )),
        }
    }

    fn wants(self, status: CardTransactionStatus) -> bool {
        match self {
            BookingStatus::Both => true,
            BookingStatus::Booked => status == CardTransactionStatus::Booked,
            BookingStatus::Pending => status == CardTransactionStatus::Pending,
        }
    }
}

/// `{currency, amount}` with the amount in integer minor units (the bank's shape: amount int32).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct MinorAmount {
    pub currency: Currency,
    pub amount: i64,
}

impl From<&Money> for MinorAmount {
    fn from(m: &Money) -> Self {
        MinorAmount {
            currency: m.currency,
            amount: m.minor_units(),
        }
    }
}

/// A booked item of the bank's "Sandbox card account transactions": every field required and present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookedCardTransaction {
    pub card_transaction_id: String,
    pub booking_date: String,
    pub transaction_date: String,
    pub transaction_amount: MinorAmount,
    pub original_amount: MinorAmount,
    pub merchant_category_code: String,
}

/// `cardAccount` of the listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MaskedPanRef {
    pub masked_pan: String,
}

/// `cardTransactions` of the listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct CardTransactionGroups {
    pub booked: Vec<BookedCardTransaction>,
    /// The `cardTransactionId`s of the pending transactions.
    pub pending: Vec<String>,
}

/// The body of the card transactions operation (docs/interface.md#mock-data-v1sandbox).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardTransactionList {
    pub card_account: MaskedPanRef,
    pub card_transactions: CardTransactionGroups,
}

/// A stored card transaction as the POST answers it (with its status, which the listing shows by group).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SandboxCardTransaction)]
#[serde(rename_all = "camelCase")]
pub struct CardTransactionView {
    pub card_transaction_id: String,
    pub status: CardTransactionStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub booking_date: Option<String>,
    pub transaction_date: String,
    pub transaction_amount: MinorAmount,
    pub original_amount: MinorAmount,
    pub merchant_category_code: String,
}

impl From<CardTransaction> for CardTransactionView {
    fn from(t: CardTransaction) -> Self {
        CardTransactionView {
            card_transaction_id: t.id,
            status: t.status,
            booking_date: t.booking_date.map(format_date),
            transaction_date: format_date(t.transaction_date),
            transaction_amount: MinorAmount::from(&t.transaction_amount),
            original_amount: MinorAmount::from(&t.original_amount),
            merchant_category_code: t.merchant_category_code,
        }
    }
}

/// Every transaction of a card account in listing order.
pub fn of_card_account(
    store: &Store,
    card_account_id: &str,
) -> Result<Vec<CardTransaction>, Refusal> {
    Ok(store
        .table::<CardTransaction>()?
        .scan_prefix(&format!("{card_account_id}/"))?)
}

/// `GET /v1/sandbox/card-accounts/{mockCardAccountId}/transactions`.
pub fn list(
    store: &Store,
    card_account_id: &str,
    status: BookingStatus,
    listing: &Listing,
) -> Result<CardTransactionList, Refusal> {
    let card = holdings::by_id::<CardAccount>(store, "mockCardAccountId", card_account_id)?;
    let selected = of_card_account(store, &card.id)?
        .into_iter()
        .filter(|t| status.wants(t.status) && listing.includes(t.listing_date()));
    let mut groups = CardTransactionGroups {
        booked: Vec::new(),
        pending: Vec::new(),
    };
    for t in listing.page(selected) {
        match t.status {
            CardTransactionStatus::Pending => groups.pending.push(t.id),
            CardTransactionStatus::Booked => groups.booked.push(BookedCardTransaction {
                booking_date: format_date(t.listing_date()),
                transaction_date: format_date(t.transaction_date),
                transaction_amount: MinorAmount::from(&t.transaction_amount),
                original_amount: MinorAmount::from(&t.original_amount),
                merchant_category_code: t.merchant_category_code,
                card_transaction_id: t.id,
            }),
        }
    }
    Ok(CardTransactionList {
        card_account: MaskedPanRef {
            masked_pan: card.masked_pan,
        },
        card_transactions: groups,
    })
}

#[cfg(test)]
mod tests;
