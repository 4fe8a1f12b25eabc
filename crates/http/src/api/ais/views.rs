//! The building blocks of account information bodies (Berlin Group 1.3 shapes): amounts in the form the
//! request's fixes ask for, balances, and account references.

use super::fixes::AcceptedFixes;
use serde::Serialize;
use xs2a_core::bank::mock::model::{format_date, Balance, Money};
use xs2a_core::domain::fix::Fix;

/// An amount's value: a string with the currency's minor units (`amount-as-string`, the default), or a
/// JSON number as before that fix.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AmountValue {
    Text(String),
    Number(serde_json::Number),
}

/// In the OpenAPI document: a string, or a number for clients without the `amount-as-string` fix.
impl utoipa::PartialSchema for AmountValue {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::String))
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .into()
    }
}

impl utoipa::ToSchema for AmountValue {}

/// Berlin Group `amount`: `{currency, amount}`.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AmountView {
    pub currency: String,
    pub amount: AmountValue,
}

/// The amount as text with exactly the currency's minor units: `-125.50`.
pub fn amount_text(money: &Money) -> String {
    let mut value = money.amount;
    value.rescale(money.currency.minor_units());
    value.to_string()
}

impl AmountView {
    pub fn new(money: &Money, fixes: AcceptedFixes) -> AmountView {
        let text = amount_text(money);
        let amount = if fixes.is_active(Fix::AmountAsString) {
            AmountValue::Text(text)
        } else {
            // Always representable: at most 18 significant digits (docs/interface.md#limits).
            text.parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(AmountValue::Number)
                .unwrap_or(AmountValue::Text(text))
        };
        AmountView {
            currency: money.currency.code().to_owned(),
            amount,
        }
    }
}

/// Berlin Group `balance`.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceView {
    pub balance_type: &'static str,
    pub balance_amount: AmountView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_limit_included: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_date: Option<String>,
}

impl BalanceView {
    pub fn new(balance: &Balance, fixes: AcceptedFixes) -> BalanceView {
        BalanceView {
            balance_type: balance.balance_type.as_str(),
            balance_amount: AmountView::new(&balance.balance_amount, fixes),
            credit_limit_included: balance.credit_limit_included,
            reference_date: balance.reference_date.map(format_date),
        }
    }
}

/// Berlin Group `accountReference` of an ordinary account: `{iban, bban, currency}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct AccountReference {
    pub iban: String,
    pub bban: String,
    pub currency: String,
}

/// Berlin Group `accountReference` of a card account: `{maskedPan, currency}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardAccountReference {
    pub masked_pan: String,
    pub currency: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;
    use xs2a_core::domain::Currency;

    fn nok(minor: i64) -> Money {
        Money {
            amount: Decimal::new(minor, 2),
            currency: Currency::NOK,
        }
    }

    #[test]
    fn amounts_are_strings_with_minor_units_unless_the_fix_is_off() {
        let money = nok(-12550);
        let now = serde_json::to_value(AmountView::new(&money, AcceptedFixes::all())).unwrap();
        assert_eq!(
            now,
            serde_json::json!({"currency": "NOK", "amount": "-125.50"})
        );
        let old = serde_json::to_value(AmountView::new(&money, AcceptedFixes::none())).unwrap();
        assert_eq!(
            old,
            serde_json::json!({"currency": "NOK", "amount": -125.5})
        );
        let whole = Money {
            amount: Decimal::new(10, 0),
            currency: Currency::NOK,
        };
        assert_eq!(amount_text(&whole), "10.00");
    }
}
