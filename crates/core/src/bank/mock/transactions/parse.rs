//! Reading the items of `POST /v1/sandbox/accounts/{mockAccountId}/transactions` into transactions (see
//! the parent module for the defaults and the amount forms). Mock data, so what the bank platform's sandbox
//! takes is taken here too, with a WARNING: account numbers with a wrong check digit and free-form
//! purpose codes (its developer kit sends `"purposeCode":"code"`).

use super::{clearing_account, reference, BANK_TRANSACTION_CODE_CHARS, COUNTERPARTY_NAME};
use crate::bank::mock::input::{self, at, warn, Warnings};
use crate::bank::mock::model::{Account, AccountRef, Money, Transaction, TransactionSource};
use crate::bank::mock::numbers;
use crate::domain::refusal::Refusal;
use crate::domain::{Amount, Currency};
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::Value;

const MAX_NAME: usize = 70;
const MAX_REMITTANCE: usize = 140;
/// A free-form purpose code is kept up to this length (ISO 20022 Max35Text, as for proprietary codes).
const MAX_PURPOSE_CODE: usize = 35;

/// An account reference in a transaction: `iban`, `bban` or both.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct AccountRefInput {
    pub iban: Option<String>,
    pub bban: Option<String>,
}

/// One item of `POST /v1/sandbox/accounts/{mockAccountId}/transactions`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
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
    /// booked (default) or pending. Pending transactions may be given a valueDate instead of a
    /// bookingDate (the date they are expected to book).
    pub status: Option<String>,
}

/// Whether an item is booked or still pending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Booking {
    Booked,
    Pending,
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
fn party_account(
    path: &str,
    input: &AccountRefInput,
    warnings: &mut Warnings,
) -> Result<AccountRef, Refusal> {
    let bban_path = at(path, "bban");
    let iban_path = at(path, "iban");
    let iban = input
        .iban
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .map(|s| numbers::iban(&iban_path, s, &mut *warnings))
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
        (None, Some(bban)) => Ok(reference(&numbers::bban(&bban_path, bban, warnings)?)),
        (None, None) => Err(Refusal::format(
            &bban_path,
            format!("{path} needs an iban or a bban"),
        )),
    }
}

/// Validates one item into a transaction (id and sequence still unset).
pub fn parse_item(
    prefix: &str,
    item: &TransactionInput,
    account: &Account,
    owner_name: &str,
    warnings: &mut Warnings,
) -> Result<(Transaction, Booking), Refusal> {
    let status_path = at(prefix, "status");
    let booking = match item
        .status
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("booked") => Booking::Booked,
        Some("pending") => Booking::Pending,
        Some(_) => {
            return Err(Refusal::format(
                &status_path,
                format!(
                    "{status_path} '{}' is not a status; use booked or pending",
                    item.status.as_deref().unwrap_or_default()
                ),
            ))
        }
    };
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
    let value_path = at(prefix, "valueDate");
    let given_value_date = item
        .value_date
        .as_deref()
        .map(|d| input::date(&value_path, d))
        .transpose()?;
    // A pending transaction's "booking date" is the date it is expected to book; its value date will do.
    let booking_date = match (&item.booking_date, given_value_date, booking) {
        (Some(d), _, _) => input::date(&booking_path, d)?,
        (None, Some(value_date), Booking::Pending) => value_date,
        (None, _, _) => {
            return Err(Refusal::format(
                &booking_path,
                format!(
                    "{booking_path} is required (a pending transaction may give valueDate instead)"
                ),
            ))
        }
    };
    let value_date = given_value_date.unwrap_or(booking_date);
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
        Some(a) => party_account(&at(prefix, "debtorAccount"), a, warnings)?,
        None => default_debtor.1,
    };
    let creditor_account = match &item.creditor_account {
        Some(a) => party_account(&at(prefix, "creditorAccount"), a, warnings)?,
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
    let purpose_code = match input::text(&purpose_path, &item.purpose_code, MAX_PURPOSE_CODE)? {
        Some(code) => {
            if !is_purpose_code(&code) {
                warn(
                        warnings,
                        &purpose_path,
                        format!(
                            "{purpose_path} '{code}' is not an ISO 20022 purpose code (four upper-case \
                             letters, e.g. OTHR or SALA); kept as given, as the bank platform's sandbox does."
                        ),
                    );
            }
            code
        }
        None => "OTHR".to_owned(),
    };
    Ok((
        Transaction {
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
        },
        booking,
    ))
}

/// The form of an ISO 20022 ExternalPurpose1Code: four upper-case letters.
fn is_purpose_code(code: &str) -> bool {
    code.len() == 4 && code.bytes().all(|b| b.is_ascii_uppercase())
}
