//! Amounts: a decimal written as plain text plus its currency, bounded by the contract and by ISO 4217.

use std::str::FromStr;

use rust_decimal::Decimal;

use super::currency::Currency;
use super::error::DomainError;

/// The contract's precision: total significant digits an amount may be written with.
pub const MAX_PRECISION: usize = 18;
/// The contract's scale: fraction digits an amount may be written with, before the currency narrows it.
pub const MAX_SCALE: usize = 5;
/// Digits before the decimal point: a decimal of precision 18 and scale 5 keeps 5 of its 18 digits for
/// the fraction, whatever the currency uses, so at most 13 remain for the integer part.
pub const MAX_INTEGER_DIGITS: usize = MAX_PRECISION - MAX_SCALE;

/// A money amount whose text passed every rule of the bank's amount field (docs/interface.md#payments).
///
/// The value keeps the scale it was written with; equality is numeric (`10.1` equals `10.10`).
/// Fields are private so an amount with too many fraction digits for its currency cannot exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Amount {
    value: Decimal,
    currency: Currency,
}

impl Amount {
    /// For amounts that cannot be negative but may be zero, such as fees.
    pub fn parse(text: &str, currency: Currency) -> Result<Amount, DomainError> {
        parse_amount(text, currency, false)
    }

    /// For balances and transaction amounts, where a leading '-' marks a debit.
    pub fn parse_signed(text: &str, currency: Currency) -> Result<Amount, DomainError> {
        parse_amount(text, currency, true)
    }

    /// For instructed payment amounts: a payment of nothing is refused, not silently executed.
    pub fn parse_positive(text: &str, currency: Currency) -> Result<Amount, DomainError> {
        let amount = parse_amount(text, currency, false)?;
        if !amount.is_positive() {
            return Err(DomainError::new(format!(
                "amount '{text}' must be greater than zero"
            )));
        }
        Ok(amount)
    }

    pub fn value(&self) -> Decimal {
        self.value
    }

    pub fn currency(&self) -> Currency {
        self.currency
    }

    pub fn is_positive(&self) -> bool {
        self.value > Decimal::ZERO
    }

    /// The amount as the API writes it: always exactly the currency's minor units of fraction
    /// digits, so "10" NOK is answered as "10.00" whatever the client sent.
    pub fn to_api_string(&self) -> String {
        let mut value = self.value;
        // Exact: parsing guarantees the written scale never exceeds the minor units.
        value.rescale(self.currency.minor_units());
        value.to_string()
    }
}

fn parse_amount(
    text: &str,
    currency: Currency,
    allow_negative: bool,
) -> Result<Amount, DomainError> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) if allow_negative => (true, rest),
        Some(_) => {
            return Err(DomainError::new(format!(
                "amount '{text}' must not be negative"
            )))
        }
        None => (false, text),
    };
    let (integer, fraction) = split_plain_decimal(text, body)?;

    let minor_units = currency.minor_units() as usize;
    if fraction.len() > minor_units {
        let allowed = match minor_units {
            0 => "no fraction digits are allowed".to_string(),
            1 => "at most 1 fraction digit is allowed".to_string(),
            n => format!("at most {n} fraction digits are allowed"),
        };
        return Err(DomainError::new(format!(
            "amount '{text}' has {} fraction digits, but {currency} has {minor_units} minor units, so {allowed}",
            fraction.len()
        )));
    }
    // Unreachable while every listed currency has at most 5 minor units; kept so the contract
    // bound holds even if the table changes.
    if fraction.len() > MAX_SCALE {
        return Err(DomainError::new(format!(
            "amount '{text}' has {} fraction digits, at most {MAX_SCALE} are allowed",
            fraction.len()
        )));
    }
    // With at most 13 integer and 5 fraction digits, precision 18 holds too.
    let integer_digits = integer.trim_start_matches('0').len();
    if integer_digits > MAX_INTEGER_DIGITS {
        return Err(DomainError::new(format!(
            "amount '{text}' has {integer_digits} digits before the decimal point; precision {MAX_PRECISION} \
             with scale {MAX_SCALE} leaves at most {MAX_INTEGER_DIGITS}"
        )));
    }

    let mut value = Decimal::from_str(body)
        .map_err(|e| DomainError::new(format!("amount '{text}' is not a number: {e}")))?;
    // "-0.00" is zero, not a negative amount.
    value.set_sign_negative(negative && !value.is_zero());
    Ok(Amount { value, currency })
}

/// Splits `body` into integer and fraction digits, refusing anything but `digits[.digits]`.
///
/// Each refusal names the offending feature, because a client sending "1e3" or "10,50" needs to
/// know what to change, not only that the text is wrong.
fn split_plain_decimal<'a>(text: &str, body: &'a str) -> Result<(&'a str, &'a str), DomainError> {
    let refuse = |why: &str| Err(DomainError::new(format!("amount '{text}' {why}")));
    if text.is_empty() {
        return Err(DomainError::new("amount is empty"));
    }
    if body.chars().any(char::is_whitespace) {
        return refuse("must not contain spaces");
    }
    if body.starts_with('+') {
        return refuse("must not have a '+' sign");
    }
    if body.starts_with('-') {
        return refuse("has more than one '-' sign");
    }
    if body.contains(['e', 'E']) {
        return refuse("must be written without an exponent");
    }
    if body.contains(',') {
        return refuse("must use '.' as the decimal separator, not ','");
    }
    if !body.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return refuse(
            "may contain only digits, one '.' and a leading '-' where negatives are allowed",
        );
    }
    let (integer, fraction) = match body.split_once('.') {
        None => (body, ""),
        Some((_, rest)) if rest.contains('.') => return refuse("has more than one '.'"),
        Some((integer, fraction)) => (integer, fraction),
    };
    if integer.is_empty() && fraction.is_empty() {
        return refuse("has no digits");
    }
    if integer.is_empty() {
        return refuse("needs a digit before the '.'");
    }
    if body.contains('.') && fraction.is_empty() {
        return refuse("needs a digit after the '.'");
    }
    Ok((integer, fraction))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cur(code: &str) -> Currency {
        Currency::parse(code).unwrap()
    }

    fn nok(text: &str) -> Result<Amount, DomainError> {
        Amount::parse(text, Currency::NOK)
    }

    #[test]
    fn parses_plain_decimals() {
        let a = nok("10.10").unwrap();
        assert_eq!(a.value(), Decimal::new(1010, 2));
        assert_eq!(a.currency(), Currency::NOK);
        assert_eq!(nok("10").unwrap().value(), Decimal::new(10, 0));
        assert_eq!(nok("0").unwrap().value(), Decimal::ZERO);
        assert_eq!(nok("0.5").unwrap().value(), Decimal::new(5, 1));
        assert_eq!(nok("007.50").unwrap().value(), Decimal::new(75, 1));
    }

    #[test]
    fn api_string_has_exactly_the_minor_units() {
        assert_eq!(nok("10").unwrap().to_api_string(), "10.00");
        assert_eq!(nok("10.1").unwrap().to_api_string(), "10.10");
        assert_eq!(nok("0.05").unwrap().to_api_string(), "0.05");
        assert_eq!(
            Amount::parse("100", cur("JPY")).unwrap().to_api_string(),
            "100"
        );
        assert_eq!(
            Amount::parse("1.5", cur("BHD")).unwrap().to_api_string(),
            "1.500"
        );
        assert_eq!(
            Amount::parse_signed("-5.5", Currency::NOK)
                .unwrap()
                .to_api_string(),
            "-5.50"
        );
        assert_eq!(
            Amount::parse_signed("-0.00", Currency::NOK)
                .unwrap()
                .to_api_string(),
            "0.00"
        );
    }

    #[test]
    fn fraction_digits_are_bounded_by_minor_units() {
        let err = nok("10.001").unwrap_err();
        assert!(err.0.contains("NOK has 2 minor units"), "{err}");
        let err = Amount::parse("100.5", cur("JPY")).unwrap_err();
        assert!(err.0.contains("JPY has 0 minor units"), "{err}");
        assert!(err.0.contains("no fraction digits"), "{err}");
        assert!(Amount::parse("100.0", cur("JPY")).is_err());
        assert!(Amount::parse("1.234", cur("KWD")).is_ok());
        assert!(Amount::parse("1.2345", cur("KWD")).is_err());
        assert!(Amount::parse("1", cur("BYR")).is_ok());
        assert!(Amount::parse("1.0", cur("BYR")).is_err());
    }

    #[test]
    fn trailing_zeros_count_as_written() {
        assert!(nok("10.10").is_ok());
        let err = nok("10.100").unwrap_err();
        assert!(err.0.contains("3 fraction digits"), "{err}");
    }

    #[test]
    fn the_currency_message_wins_over_the_scale_message() {
        // Breaks both NOK's 2 minor units and the contract's scale 5: the currency rule is the
        // tighter, more useful one to report.
        let err = nok("0.000001").unwrap_err();
        assert!(err.0.contains("NOK has 2 minor units"), "{err}");
        let err = nok("0.00001").unwrap_err();
        assert!(err.0.contains("NOK has 2 minor units"), "{err}");
    }

    #[test]
    fn scale_5_is_the_outer_bound() {
        // XDR has no ISO minor units, so only the contract's scale bounds it.
        let xdr = cur("XDR");
        assert_eq!(
            Amount::parse("0.00001", xdr).unwrap().to_api_string(),
            "0.00001"
        );
        assert_eq!(Amount::parse("1", xdr).unwrap().to_api_string(), "1.00000");
        let err = Amount::parse("0.000001", xdr).unwrap_err();
        assert!(err.0.contains("6 fraction digits"), "{err}");
    }

    #[test]
    fn precision_18_scale_5_allows_13_integer_digits() {
        assert!(nok("9999999999999").is_ok());
        assert!(nok("1234567890123.45").is_ok());
        let err = nok("12345678901234").unwrap_err();
        assert!(
            err.0.contains("14 digits before the decimal point"),
            "{err}"
        );
        assert!(err.0.contains("at most 13"), "{err}");
        assert!(nok("12345678901234.5").is_err());
        // Leading zeros of the integer part are not digits of the value.
        assert!(nok("0001234567890123").is_ok());
        assert!(Amount::parse_signed("-9999999999999.99", Currency::NOK).is_ok());
        assert!(Amount::parse_signed("-99999999999999", Currency::NOK).is_err());
        assert!(Amount::parse("0.00001", cur("XDR")).is_ok());
        assert!(Amount::parse("1234567890123.12345", cur("XDR")).is_ok());
        assert!(Amount::parse("12345678901234.12345", cur("XDR")).is_err());
    }

    #[test]
    fn refuses_non_plain_text() {
        let cases = [
            ("", "empty"),
            ("+10", "'+'"),
            ("1e3", "exponent"),
            ("1E3", "exponent"),
            ("10 00", "spaces"),
            (" 10", "spaces"),
            ("10,50", "','"),
            (".5", "before the '.'"),
            ("5.", "after the '.'"),
            (".", "no digits"),
            ("1.2.3", "more than one '.'"),
            ("abc", "only digits"),
            ("0x10", "only digits"),
            ("١٠", "only digits"),
        ];
        for (text, expected) in cases {
            let err = nok(text).unwrap_err();
            assert!(err.0.contains(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn sign_rules() {
        let err = nok("-10").unwrap_err();
        assert!(err.0.contains("must not be negative"), "{err}");
        let a = Amount::parse_signed("-10.50", Currency::NOK).unwrap();
        assert_eq!(a.value(), Decimal::new(-1050, 2));
        assert!(!a.is_positive());
        assert!(Amount::parse_signed("--1", Currency::NOK).is_err());
        assert!(Amount::parse_signed("-", Currency::NOK).is_err());
        assert!(Amount::parse_signed("-+1", Currency::NOK).is_err());
        assert!(Amount::parse_signed("-1.001", Currency::NOK).is_err());
    }

    #[test]
    fn payments_need_a_positive_amount() {
        assert!(Amount::parse_positive("0.01", Currency::NOK)
            .unwrap()
            .is_positive());
        for text in ["0", "0.00", "000"] {
            let err = Amount::parse_positive(text, Currency::NOK).unwrap_err();
            assert!(err.0.contains("greater than zero"), "{text}: {err}");
        }
        assert!(Amount::parse_positive("-1", Currency::NOK).is_err());
        assert!(nok("0").is_ok(), "plain parse allows zero");
    }
}
