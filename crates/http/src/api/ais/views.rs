//! The building blocks of account information bodies (Berlin Group 1.3 shapes): amounts in the form the
//! request's fixes ask for, balances, account references, and the query values the listings share.

use super::fixes::AcceptedFixes;
use crate::api::error::{ApiError, ApiResult};
use serde::Serialize;
use time::Date;
use xs2a_core::bank::mock::model::{format_date, Balance, Money};
use xs2a_core::domain::fix::Fix;
use xs2a_core::domain::refusal::TppMessage;

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
            // Always representable: at most 18 significant digits (SPEC.md precision).
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

/// `bookingStatus` of the account information listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookingStatus {
    Booked,
    Pending,
    /// `both`.
    Both,
    /// `all`: the same selection as `both` here (this bank has no `information` entries), but kept as
    /// sent, so the paging links repeat it.
    All,
}

impl BookingStatus {
    /// Required: missing is 400 QUERY_PARAMETER_REQUIRED, another value 400 FORMAT_ERROR.
    pub fn parse(value: Option<&str>) -> ApiResult<BookingStatus> {
        match value.map(str::trim) {
            None | Some("") => Err(ApiError::query_parameter_required("bookingStatus")),
            Some("booked") => Ok(BookingStatus::Booked),
            Some("pending") => Ok(BookingStatus::Pending),
            Some("both") => Ok(BookingStatus::Both),
            Some("all") => Ok(BookingStatus::All),
            Some(other) => Err(ApiError::format(
                "bookingStatus",
                format!(
                    "bookingStatus '{other}' is not supported; use booked, pending, both or all"
                ),
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BookingStatus::Booked => "booked",
            BookingStatus::Pending => "pending",
            BookingStatus::Both => "both",
            BookingStatus::All => "all",
        }
    }

    pub fn wants_booked(self) -> bool {
        self != BookingStatus::Pending
    }

    pub fn wants_pending(self) -> bool {
        self != BookingStatus::Booked
    }
}

/// An int32 query value of at least `min`, else 400 FORMAT_ERROR naming the parameter.
pub fn int32(name: &str, text: &str, min: i32) -> ApiResult<usize> {
    let value: i32 = text.trim().parse().map_err(|_| {
        ApiError::format(
            name,
            format!("{name} '{text}' is not a whole number (int32)"),
        )
    })?;
    if value < min {
        return Err(ApiError::format(
            name,
            format!("{name} is {value}, it must be at least {min}"),
        ));
    }
    Ok(value as usize)
}

/// A `YYYY-MM-DD` query value, else 400 FORMAT_ERROR naming the parameter.
pub fn date(name: &str, text: Option<&str>) -> ApiResult<Option<Date>> {
    text.map(|t| {
        xs2a_core::domain::calendar_date::parse(t.trim())
            .map_err(|reason| ApiError::format(name, format!("{name} {reason}.")))
    })
    .transpose()
}

/// The WARNING sent when a read without the PSU present asked for more than 90 days of history.
pub fn history_limited(floor: Date) -> TppMessage {
    TppMessage::warning(
        xs2a_core::domain::refusal::Code::AccessExceeded,
        Some("dateFrom"),
        format!(
            "Without the PSU present (no PSU-IP-Address) transaction history is limited to 90 days: \
             dateFrom was set to {}. Read with the PSU present for older transactions.",
            format_date(floor)
        ),
    )
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

    #[test]
    fn booking_status_is_required_and_closed() {
        let missing = BookingStatus::parse(None).unwrap_err();
        assert_eq!(
            missing.refusal.code,
            xs2a_core::domain::refusal::Code::QueryParameterRequired
        );
        assert_eq!(missing.refusal.path.as_deref(), Some("bookingStatus"));
        let other = BookingStatus::parse(Some("information")).unwrap_err();
        assert_eq!(
            other.refusal.code,
            xs2a_core::domain::refusal::Code::FormatError
        );
        let all = BookingStatus::parse(Some("all")).unwrap();
        assert_eq!(all.as_str(), "all", "kept as sent, for the paging links");
        assert!(all.wants_booked() && all.wants_pending());
    }

    #[test]
    fn limit_must_be_at_least_one() {
        assert_eq!(
            int32("limit", "0", 1).unwrap_err().refusal.path.as_deref(),
            Some("limit")
        );
        assert_eq!(
            int32("limit", "x", 1).unwrap_err().refusal.path.as_deref(),
            Some("limit")
        );
        assert_eq!(int32("offset", "0", 0).unwrap(), 0);
    }
}
