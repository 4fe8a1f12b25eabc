//! Shared parsing of request fields into model values, each refusal naming its JSON path.
//!
//! Request structs keep fields as plain JSON types (mostly `Option<String>`) so that a value of the right
//! JSON type but the wrong content is reported here, with a text that says what to change, rather than
//! by serde. Type mismatches are still caught by the JSON extractor, also with their path.
//!
//! What mock data is accepted despite (a wrong check digit, a repeated balance type) is collected as
//! WARNINGs ([`Warnings`]) and answered with the created record.

use super::model::{Balance, BalanceType, Money};
use crate::domain::refusal::{Code, Refusal, TppMessage};
use crate::domain::{Amount, Currency, DomainError};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use time::Date;

/// The WARNINGs gathered while reading one mock-data request.
pub type Warnings = Vec<TppMessage>;

/// Notes something accepted that production data would not look like.
pub fn warn(warnings: &mut Warnings, path: &str, text: impl Into<String>) {
    warnings.push(TppMessage::warning(Code::FormatError, Some(path), text));
}

/// Joins a prefix and a field into a JSON path: `("balances[0]", "balanceType")`.
pub fn at(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else if field.starts_with('[') {
        format!("{prefix}{field}")
    } else {
        format!("{prefix}.{field}")
    }
}

/// Turns a domain refusal into 400 FORMAT_ERROR at `path`.
pub fn bad(path: &str) -> impl FnOnce(DomainError) -> Refusal + '_ {
    move |e| Refusal::format(path, format!("{path}: {e}"))
}

/// The value of a required field.
pub fn required<'a, T>(path: &str, value: &'a Option<T>) -> Result<&'a T, Refusal> {
    value
        .as_ref()
        .ok_or_else(|| Refusal::format(path, format!("{path} is required")))
}

/// Optional text, trimmed, at most `max` characters; an empty string counts as absent.
pub fn text(path: &str, value: &Option<String>, max: usize) -> Result<Option<String>, Refusal> {
    let Some(value) = value else { return Ok(None) };
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let count = value.chars().count();
    if count > max {
        return Err(Refusal::format(
            path,
            format!("{path} has {count} characters, at most {max} are allowed"),
        ));
    }
    Ok(Some(value.to_owned()))
}

/// Required, non-empty text of at most `max` characters.
pub fn required_text(path: &str, value: &Option<String>, max: usize) -> Result<String, Refusal> {
    text(path, value, max)?
        .ok_or_else(|| Refusal::format(path, format!("{path} is required and must not be empty")))
}

pub fn currency(path: &str, value: &str) -> Result<Currency, Refusal> {
    Currency::parse(value).map_err(bad(path))
}

/// A `YYYY-MM-DD` date.
pub fn date(path: &str, value: &str) -> Result<Date, Refusal> {
    crate::domain::calendar_date::parse(value)
        .map_err(|reason| Refusal::format(path, format!("{path} {reason}.")))
}

/// An `{amount, currency}` object as requests write it (Berlin Group `amount`). `amount` is a decimal
/// string in major units (`"-125.50"`) or, as the bank platform's developer kit writes it, a JSON number
/// in major units (`10000`).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct AmountInput {
    #[schema(schema_with = amount_schema)]
    pub amount: Option<Value>,
    pub currency: Option<String>,
}

/// A schema written as JSON (for the shapes a derive cannot say: "a string or a number").
fn schema(value: Value) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(value).expect("a valid schema")
}

/// The OpenAPI schema of an amount as requests write it: a decimal string, or a JSON number.
pub fn amount_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    schema(serde_json::json!({
        "description": "In major units: a decimal string (\"-125.50\") or a JSON number (10000).",
        "oneOf": [{"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}, {"type": "number"}]
    }))
}

/// The OpenAPI schema of a credit line as requests write it: an amount object or a bare amount in the
/// account's currency (`null` removes it where an edit allows that).
pub fn credit_line_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    let amount = serde_json::to_value(amount_schema()).expect("a schema serialises");
    schema(serde_json::json!({
        "oneOf": [
            {"type": "object", "properties": {"amount": amount, "currency": {"type": "string"}}},
            amount["oneOf"][0],
            amount["oneOf"][1],
            {"type": "null"}
        ]
    }))
}

/// Parses an amount object whose currency must be `expected` (the account's). Signed amounts allowed.
pub fn money(path: &str, input: &AmountInput, expected: Currency) -> Result<Money, Refusal> {
    let currency_path = at(path, "currency");
    let given = currency(&currency_path, required(&currency_path, &input.currency)?)?;
    if given != expected {
        return Err(Refusal::format(
            &currency_path,
            format!("{currency_path} is {given}, but the account's currency is {expected}; they must be equal"),
        ));
    }
    let amount_path = at(path, "amount");
    major_units(&amount_path, required(&amount_path, &input.amount)?, given)
}

/// An amount in major units given as a decimal string or a JSON number; the same rules either way
/// (precision 18, scale 5, the currency's minor units).
pub fn major_units(path: &str, value: &Value, currency: Currency) -> Result<Money, Refusal> {
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(n) => n.to_string(),
        _ => {
            return Err(Refusal::format(
                path,
                format!("{path} must be a decimal string such as \"125.50\" (or a JSON number)"),
            ))
        }
    };
    let amount = Amount::parse_signed(&text, currency).map_err(bad(path))?;
    Ok(Money::from_amount(&amount))
}

/// A balance type as written: Berlin Group's camelCase (`interimAvailable`), or upper case with or
/// without underscores (`EXPECTED`, `INTERIM_AVAILABLE`) as the platform's developer kit writes it.
pub fn balance_type(text: &str) -> Option<BalanceType> {
    let folded = |t: &str| t.replace('_', "").to_ascii_lowercase();
    BalanceType::ALL
        .into_iter()
        .find(|t| folded(t.as_str()) == folded(text))
}

/// One element of `balances` in a request.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceInput {
    pub balance_type: Option<String>,
    pub balance_amount: Option<AmountInput>,
    pub credit_limit_included: Option<bool>,
    pub reference_date: Option<String>,
}

/// Parses a `balances` list, each currency the account's. A balance type given twice is kept once (the
/// first), with a warning: the platform's developer kit sends its card balances that way.
pub fn balances(
    path: &str,
    input: &[BalanceInput],
    account_currency: Currency,
    warnings: &mut Warnings,
) -> Result<Vec<Balance>, Refusal> {
    let mut seen: HashMap<BalanceType, usize> = HashMap::new();
    let mut out = Vec::with_capacity(input.len());
    for (i, balance) in input.iter().enumerate() {
        let prefix = format!("{path}[{i}]");
        let type_path = at(&prefix, "balanceType");
        let type_text = required(&type_path, &balance.balance_type)?;
        let balance_type = self::balance_type(type_text).ok_or_else(|| {
            let all: Vec<_> = BalanceType::ALL.iter().map(|t| t.as_str()).collect();
            Refusal::format(
                &type_path,
                format!(
                    "{type_path} '{type_text}' is not a balance type; use one of {}",
                    all.join(", ")
                ),
            )
        })?;
        let amount_path = at(&prefix, "balanceAmount");
        let balance_amount = money(
            &amount_path,
            required(&amount_path, &balance.balance_amount)?,
            account_currency,
        )?;
        let reference_date = match &balance.reference_date {
            Some(d) => Some(date(&at(&prefix, "referenceDate"), d)?),
            None => None,
        };
        if let Some(first) = seen.get(&balance_type) {
            warn(
                warnings,
                &type_path,
                format!(
                    "{type_path}: the balance type {type_text} is given again (first at {path}[{first}]); \
                     an account has one balance per type, so the sandbox keeps the first and ignores this one."
                ),
            );
            continue;
        }
        seen.insert(balance_type, i);
        out.push(Balance {
            balance_type,
            balance_amount,
            credit_limit_included: balance.credit_limit_included,
            reference_date,
        });
    }
    Ok(out)
}

/// Berlin Group / ISO 20022 ExternalCashAccountType1Code values.
pub const CASH_ACCOUNT_TYPES: &[&str] = &[
    "CACC", "CARD", "CASH", "CHAR", "CISH", "COMM", "CPAC", "LLSV", "LOAN", "MGLD", "MOMA", "NFCA",
    "NREX", "ODFT", "ONDP", "OTHR", "SACC", "SLRY", "SVGS", "TAXE", "TRAN", "TRAS", "VACC",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_fields_and_indexes() {
        assert_eq!(at("", "amount"), "amount");
        assert_eq!(at("[3]", "amount"), "[3].amount");
        assert_eq!(at("balances", "[0]"), "balances[0]");
    }

    #[test]
    fn text_counts_characters_not_bytes() {
        assert!(text("name", &Some("ø".repeat(70)), 70).is_ok());
        let e = text("name", &Some("ø".repeat(71)), 70).unwrap_err();
        assert_eq!(e.path.as_deref(), Some("name"));
    }
}
