//! Transactions of mock accounts: `POST` and `GET /v1/sandbox/accounts/{mockAccountId}/transactions`
//! (SPEC.md operation 4) and [`append`], through which payments will book theirs.
//!
//! Input: `amount`, `currency` and `bookingDate` are required; every other field of SPEC.md's "Sandbox
//! account transaction" is optional and derived when absent, so the listing always returns every field
//! filled with something meaningful:
//!
//! | field | when absent |
//! |---|---|
//! | valueDate | the booking date |
//! | debtorName / debtorAccount | for a debit (negative amount): the account's owner and the account; for a credit: [`COUNTERPARTY_NAME`] and the sandbox clearing account |
//! | creditorName / creditorAccount | for a credit: the owner and the account; for a debit: the counterparty as above |
//! | remittanceInformationUnstructured | `Betaling til <creditor>` (debit) or `Innbetaling fra <debtor>` (credit) |
//! | bankTransactionCode | `PMNT-ICDT-DMCT` (debit) or `PMNT-RCDT-DMCT` (credit), ISO 20022 domain-family-subfamily |
//! | ultimateDebtor / ultimateCreditor | the debtor's / creditor's name |
//! | purposeCode | `OTHR` |
//!
//! Amounts. SPEC.md types this listing's `amount` as int32, unlike the regular API's decimal strings.
//! An int32 cannot carry øre, so the listing writes the amount as an integer number of the currency's
//! minor units (øre for NOK: `-12550` is -125.50 NOK), signed (negative = debit). On input `amount` may be
//! that same integer (so what a script reads it can post back) or a decimal string in major units like
//! the rest of the API (`"-125.50"`), validated against the currency's minor units. Either form must fit
//! an int32 in minor units and must not be zero.
//!
//! A batch is validated whole before anything is written: one bad item is refused with its path
//! (`[3].amount`) and nothing is stored.

use super::input::{self, at};
use super::listing::Listing;
use super::model::{format_date, Account, AccountRef, Money, Transaction, TransactionSource};
use super::{accounts, customers, derive_id};
use crate::domain::{Amount, Bban, Currency, Iban};
use crate::refusal::Refusal;
use crate::store::Store;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::OnceLock;

/// The counterparty's name when a transaction names none.
pub const COUNTERPARTY_NAME: &str = "Sandbox Motpart AS";
/// SPEC.md, Limits: bankTransactionCode has 4 to 14 characters.
pub const BANK_TRANSACTION_CODE_CHARS: std::ops::RangeInclusive<usize> = 4..=14;
const MAX_NAME: usize = 70;
const MAX_REMITTANCE: usize = 140;

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

/// An account reference in a transaction: `iban`, `bban` or both.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AccountRefInput {
    pub iban: Option<String>,
    pub bban: Option<String>,
}

/// One item of `POST /v1/sandbox/accounts/{mockAccountId}/transactions`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionInput {
    /// Integer minor units, or a decimal string in major units; see the module documentation.
    pub amount: Option<Value>,
    pub currency: Option<String>,
    pub value_date: Option<String>,
    pub booking_date: Option<String>,
    pub remittance_information_unstructured: Option<String>,
    pub creditor_name: Option<String>,
    pub creditor_account: Option<AccountRefInput>,
    pub debtor_name: Option<String>,
    pub debtor_account: Option<AccountRefInput>,
    pub bank_transaction_code: Option<String>,
    pub ultimate_debtor: Option<String>,
    pub ultimate_creditor: Option<String>,
    pub purpose_code: Option<String>,
}

/// Parses an amount given as integer minor units or as a decimal string in major units.
pub(crate) fn flexible_amount(
    path: &str,
    value: &Value,
    currency: Currency,
) -> Result<Money, Refusal> {
    let money = match value {
        Value::String(text) => {
            Money::from_amount(&Amount::parse_signed(text, currency).map_err(input::bad(path))?)
        }
        Value::Number(n) => {
            let minor = n.as_i64().ok_or_else(|| {
                Refusal::format(
                    path,
                    format!("{path} {n} is not a whole number; give the amount in minor units (øre) as an integer, or as a decimal string such as \"-125.50\""),
                )
            })?;
            Money {
                amount: Decimal::new(minor, currency.minor_units()),
                currency,
            }
        }
        _ => {
            return Err(Refusal::format(
                path,
                format!("{path} must be an integer number of minor units or a decimal string"),
            ))
        }
    };
    if money.amount.is_zero() {
        return Err(Refusal::format(path, format!("{path} must not be zero")));
    }
    if i32::try_from(money.minor_units()).is_err() {
        return Err(Refusal::format(
            path,
            format!(
                "{path} is too large: in minor units it must fit an int32 (at most 2147483647)"
            ),
        ));
    }
    Ok(money)
}

/// Parses a party's account: a Norwegian BBAN, any valid IBAN, or both naming the same account.
fn party_account(path: &str, input: &AccountRefInput) -> Result<AccountRef, Refusal> {
    let bban_path = at(path, "bban");
    let iban_path = at(path, "iban");
    let iban = input
        .iban
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .map(|s| input::iban(&iban_path, s))
        .transpose()?;
    let bban = input
        .bban
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    match (iban, bban) {
        (Some(iban), Some(bban)) => {
            let compact: String = bban.chars().filter(|c| *c != ' ' && *c != '.').collect();
            if compact != iban.bban_part() {
                return Err(Refusal::format(
                    &iban_path,
                    format!(
                        "{iban_path} '{iban}' and {bban_path} '{bban}' name different accounts"
                    ),
                ));
            }
            Ok(AccountRef {
                iban: iban.as_str().to_owned(),
                bban: compact,
            })
        }
        (Some(iban), None) => Ok(AccountRef {
            bban: iban.bban_part().to_owned(),
            iban: iban.as_str().to_owned(),
        }),
        (None, Some(bban)) => Ok(reference(&input::bban(&bban_path, bban)?)),
        (None, None) => Err(Refusal::format(
            &bban_path,
            format!("{path} needs an iban or a bban"),
        )),
    }
}

/// Validates one item into a transaction (id and sequence still unset).
fn parse_item(
    prefix: &str,
    item: &TransactionInput,
    account: &Account,
    owner_name: &str,
) -> Result<Transaction, Refusal> {
    let currency_path = at(prefix, "currency");
    let currency = input::currency(
        &currency_path,
        input::required(&currency_path, &item.currency)?,
    )?;
    if currency != account.currency {
        return Err(Refusal::format(
            &currency_path,
            format!(
                "{currency_path} is {currency}, but the account's currency is {}",
                account.currency
            ),
        ));
    }
    let amount_path = at(prefix, "amount");
    let amount = flexible_amount(
        &amount_path,
        input::required(&amount_path, &item.amount)?,
        currency,
    )?;
    let booking_path = at(prefix, "bookingDate");
    let booking_date = input::date(
        &booking_path,
        input::required(&booking_path, &item.booking_date)?,
    )?;
    let value_date = match &item.value_date {
        Some(d) => input::date(&at(prefix, "valueDate"), d)?,
        None => booking_date,
    };
    let debit = amount.is_negative();
    let own = AccountRef {
        iban: account.iban.clone(),
        bban: account.bban.clone(),
    };
    let (default_debtor, default_creditor) = if debit {
        (
            (owner_name.to_owned(), own),
            (COUNTERPARTY_NAME.to_owned(), clearing_account()),
        )
    } else {
        (
            (COUNTERPARTY_NAME.to_owned(), clearing_account()),
            (owner_name.to_owned(), own),
        )
    };
    let debtor_name = input::text(&at(prefix, "debtorName"), &item.debtor_name, MAX_NAME)?
        .unwrap_or(default_debtor.0);
    let creditor_name = input::text(&at(prefix, "creditorName"), &item.creditor_name, MAX_NAME)?
        .unwrap_or(default_creditor.0);
    let debtor_account = match &item.debtor_account {
        Some(a) => party_account(&at(prefix, "debtorAccount"), a)?,
        None => default_debtor.1,
    };
    let creditor_account = match &item.creditor_account {
        Some(a) => party_account(&at(prefix, "creditorAccount"), a)?,
        None => default_creditor.1,
    };
    let remittance = input::text(
        &at(prefix, "remittanceInformationUnstructured"),
        &item.remittance_information_unstructured,
        MAX_REMITTANCE,
    )?
    .unwrap_or_else(|| {
        let text = if debit {
            format!("Betaling til {creditor_name}")
        } else {
            format!("Innbetaling fra {debtor_name}")
        };
        text.chars().take(MAX_REMITTANCE).collect()
    });
    let code_path = at(prefix, "bankTransactionCode");
    let bank_transaction_code = match input::text(&code_path, &item.bank_transaction_code, 14)? {
        Some(code) if code.chars().count() < *BANK_TRANSACTION_CODE_CHARS.start() => {
            return Err(Refusal::format(
                &code_path,
                format!("{code_path} '{code}' is too short: it has 4 to 14 characters (e.g. PMNT-RCDT-DMCT)"),
            ))
        }
        Some(code) => code,
        None if debit => "PMNT-ICDT-DMCT".to_owned(),
        None => "PMNT-RCDT-DMCT".to_owned(),
    };
    let ultimate_debtor = input::text(
        &at(prefix, "ultimateDebtor"),
        &item.ultimate_debtor,
        MAX_NAME,
    )?
    .unwrap_or_else(|| debtor_name.clone());
    let ultimate_creditor = input::text(
        &at(prefix, "ultimateCreditor"),
        &item.ultimate_creditor,
        MAX_NAME,
    )?
    .unwrap_or_else(|| creditor_name.clone());
    let purpose_path = at(prefix, "purposeCode");
    let purpose_code = match input::text(&purpose_path, &item.purpose_code, 4)? {
        Some(code) if code.len() == 4 && code.bytes().all(|b| b.is_ascii_uppercase()) => code,
        Some(code) => {
            return Err(Refusal::format(
                &purpose_path,
                format!("{purpose_path} '{code}' is not an ISO 20022 purpose code (four upper-case letters, e.g. OTHR)"),
            ))
        }
        None => "OTHR".to_owned(),
    };
    Ok(Transaction {
        id: String::new(),
        account_id: account.id.clone(),
        sequence: 0,
        amount,
        booking_date,
        value_date,
        remittance_information_unstructured: remittance,
        creditor_name,
        creditor_account,
        debtor_name,
        debtor_account,
        bank_transaction_code,
        ultimate_debtor,
        ultimate_creditor,
        purpose_code,
        source: TransactionSource::Sandbox,
    })
}

/// Validates a whole batch for an account; the first bad item is refused with its `[i].field` path.
pub fn parse_batch(
    store: &Store,
    account_id: &str,
    items: &[TransactionInput],
) -> Result<Vec<Transaction>, Refusal> {
    let account = accounts::by_id(store, "mockAccountId", account_id)?;
    let owner = customers::by_number(store, "customerNumber", &account.customer_number)?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_item(&format!("[{i}]"), item, &account, &owner.name))
        .collect()
}

/// `POST /v1/sandbox/accounts/{mockAccountId}/transactions`: validates the batch, then stores it whole.
pub fn create(
    store: &Store,
    account_id: &str,
    items: &[TransactionInput],
) -> Result<Vec<TransactionView>, Refusal> {
    let parsed = parse_batch(store, account_id, items)?;
    Ok(append(store, parsed)?
        .into_iter()
        .map(TransactionView::from)
        .collect())
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

/// A link in SPEC.md's Link shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    pub href: String,
    pub verbs: Vec<&'static str>,
}

/// `_links` of a listed transaction: only `self`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SelfLinks {
    #[serde(rename = "self")]
    pub self_link: Link,
}

/// One item of SPEC.md operation 4's answer ("Sandbox account transaction"): every field present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionView {
    pub id: String,
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
}

impl From<Transaction> for TransactionView {
    fn from(t: Transaction) -> Self {
        TransactionView {
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

/// Every transaction of an account in listing order: booking date, then order of recording.
pub fn of_account(store: &Store, account_id: &str) -> Result<Vec<Transaction>, Refusal> {
    Ok(store
        .table::<Transaction>()?
        .scan_prefix(&format!("{account_id}/"))?)
}

/// `GET /v1/sandbox/accounts/{mockAccountId}/transactions`: filtered by booking date, then paged.
pub fn list(
    store: &Store,
    account_id: &str,
    listing: &Listing,
) -> Result<Vec<TransactionView>, Refusal> {
    accounts::by_id(store, "mockAccountId", account_id)?;
    let selected = of_account(store, account_id)?
        .into_iter()
        .filter(|t| listing.includes(t.booking_date));
    Ok(listing
        .page(selected)
        .into_iter()
        .map(TransactionView::from)
        .collect())
}

/// `GET /v1/sandbox/accounts/{mockAccountId}/transactions/{transactionId}`: the `self` link's target.
pub fn get(
    store: &Store,
    account_id: &str,
    transaction_id: &str,
) -> Result<TransactionView, Refusal> {
    accounts::by_id(store, "mockAccountId", account_id)?;
    of_account(store, account_id)?
        .into_iter()
        .find(|t| t.id == transaction_id)
        .map(TransactionView::from)
        .ok_or_else(|| Refusal::unknown("transactionId", "transaction", transaction_id))
}

#[cfg(test)]
mod tests;

// ---- Payment bookings (the batch simulator, `crate::batch`), added by the batch area. ----

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
fn last_sequence(store: &Store, account_id: &str) -> Result<u64, Refusal> {
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
/// themselves with `Table::insert_many`, in the same atomic operation. The caller holds the write lock. `account_id` may also be
/// a card account's id (payments debited from a card).
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
