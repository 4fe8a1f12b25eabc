//! `instructedAmount` and the currencies of a payment: amounts are JSON strings checked by
//! [`Amount::parse_positive`] (precision 18, scale 5, the currency's ISO 4217 minor units, greater
//! than zero), currencies come from the bank's list (docs/reference/payments.md#validation-duplicates-fees), and each product narrows the instructed currency
//! (domestic products are NOK-only, SEPA is EUR-only, cross-border takes any listed currency).

use super::fields::{at, req_obj, req_str, wrong_type, Object};
use crate::bank::pis::model::{Money, PaymentProduct};
use crate::domain::refusal::Refusal;
use crate::domain::{Amount, Currency};
use serde_json::Value;

/// A currency field from the bank's list (upper case, as listed; docs/reference/payments.md#validation-duplicates-fees).
pub fn currency(object: &Object, prefix: &str, name: &str) -> Result<Currency, Refusal> {
    let path = at(prefix, name);
    let text = req_str(object, prefix, name)?;
    parse_currency(&path, text)
}

/// Parses a currency code, reporting at `path`.
pub fn parse_currency(path: &str, text: &str) -> Result<Currency, Refusal> {
    Currency::parse(text).map_err(|e| Refusal::format(path, format!("{path}: {e}.")))
}

/// The currency each product allows for the instructed amount, `None` for any listed currency.
pub fn product_currency(product: PaymentProduct) -> Option<Currency> {
    match product {
        PaymentProduct::NorwegianDomesticCreditTransfers
        | PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks => Some(Currency::NOK),
        PaymentProduct::SepaCreditTransfers => Some(Currency::EUR),
        PaymentProduct::CrossBorderCreditTransfers => None,
    }
}

/// `instructedAmount` at `prefix`: the object, its currency (listed, and allowed for the product)
/// and its amount string. The currency is read first because it bounds the amount's fraction digits.
pub fn instructed_amount(
    object: &Object,
    prefix: &str,
    product: PaymentProduct,
) -> Result<Money, Refusal> {
    let path = at(prefix, "instructedAmount");
    let amount_object = req_obj(object, prefix, "instructedAmount")?;
    let currency = currency(amount_object, &path, "currency")?;
    if let Some(required) = product_currency(product) {
        if currency != required {
            let currency_path = at(&path, "currency");
            return Err(Refusal::format(
                &currency_path,
                format!(
                    "{currency_path} is {currency}, but {} payments are made in {required} only{}.",
                    product.path(),
                    if product.is_domestic() {
                        " (a domestic product; use cross-border-credit-transfers for other currencies)"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    let amount = amount_text(amount_object, &path)?;
    Ok(Money {
        amount: amount_value(&at(&path, "amount"), amount, currency)?,
        currency,
    })
}

/// The `amount` string of an amount object; a JSON number is refused with a hint, because the
/// amount-as-string fix is the default and numbers would lose precision in many clients.
pub fn amount_text<'a>(amount_object: &'a Object, path: &str) -> Result<&'a str, Refusal> {
    let amount_path = at(path, "amount");
    match amount_object.get("amount") {
        Some(Value::Number(n)) => Err(Refusal::format(
            &amount_path,
            format!(
                "{amount_path} must be a JSON string such as \"{n}\", not a number: amounts are \
                 written as strings in this API."
            ),
        )),
        Some(Value::String(s)) => Ok(s),
        None | Some(Value::Null) => Err(super::fields::missing(amount_object, path, "amount")),
        Some(other) => Err(wrong_type(&amount_path, "a string", other)),
    }
}

/// Parses a positive amount with [`Amount::parse_positive`], reporting at `path`.
pub fn amount_value(
    path: &str,
    text: &str,
    currency: Currency,
) -> Result<rust_decimal::Decimal, Refusal> {
    Amount::parse_positive(text, currency)
        .map(|a| a.value())
        .map_err(|e| Refusal::format(path, format!("{path}: {e}.")))
}
