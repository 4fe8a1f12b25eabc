//! Currency codes: exactly the bank's list, each with the minor units that bound an amount's fraction digits.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::currency_table::CURRENCIES;
use super::error::DomainError;

/// A code from the bank's currency list; holding one proves the code is on the list.
///
/// Stored as three ASCII bytes so it is `Copy` and cheap to hash. The list, not ISO 4217, is the
/// authority: it keeps some withdrawn and non-ISO codes (see `currency_table.rs` for their minor
/// units) and omits some current ISO codes (for example BYN, MRU, SLE), which are refused.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Currency([u8; 3]);

impl Currency {
    /// The sandbox's home currency, named so callers need not parse a literal.
    pub const NOK: Currency = Currency(*b"NOK");
    /// Named for cross-border fixtures.
    pub const EUR: Currency = Currency(*b"EUR");

    /// Accepts only upper-case codes: the list is upper case and the bank does not normalise.
    pub fn parse(text: &str) -> Result<Currency, DomainError> {
        if let Some(code) = lookup(text) {
            return Ok(code);
        }
        let upper = text.to_ascii_uppercase();
        if upper != text && lookup(&upper).is_some() {
            return Err(DomainError::new(format!(
                "'{text}' is not a currency code: codes are upper case, did you mean '{upper}'?"
            )));
        }
        Err(DomainError::new(format!(
            "'{text}' is not in the currency code list"
        )))
    }

    pub fn code(&self) -> &str {
        std::str::from_utf8(&self.0).expect("currency codes are ASCII by construction")
    }

    /// The most fraction digits an amount in this currency may carry (ISO 4217, or the decision
    /// documented in `currency_table.rs` for codes ISO gives no number for).
    pub fn minor_units(&self) -> u32 {
        let index = index_of(self.code()).expect("a Currency is always on the list");
        CURRENCIES[index].1
    }

    /// Every code on the list, in alphabetical order, for code-list endpoints and exhaustive tests.
    pub fn all() -> impl Iterator<Item = Currency> {
        CURRENCIES.iter().map(|(code, _)| from_listed(code))
    }
}

fn index_of(code: &str) -> Option<usize> {
    CURRENCIES.binary_search_by(|(c, _)| (*c).cmp(code)).ok()
}

fn lookup(code: &str) -> Option<Currency> {
    index_of(code).map(|i| from_listed(CURRENCIES[i].0))
}

fn from_listed(code: &str) -> Currency {
    let b = code.as_bytes();
    Currency([b[0], b[1], b[2]])
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Debug shows the bare code: `Currency(NOK)` reads better in test failures than byte arrays.
impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Currency({})", self.code())
    }
}

/// In the OpenAPI document: an ISO 4217 code from the bank's list.
impl utoipa::PartialSchema for Currency {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(Currency::all().map(|c| c.code().to_owned())))
            .description(Some("ISO 4217 currency code"))
            .into()
    }
}

impl utoipa::ToSchema for Currency {}

impl Serialize for Currency {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// Deserialising goes through [`Currency::parse`], so an unlisted code never gets past the edge.
impl<'de> Deserialize<'de> for Currency {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Currency::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_listed_codes() {
        let nok = Currency::parse("NOK").unwrap();
        assert_eq!(nok, Currency::NOK);
        assert_eq!(nok.code(), "NOK");
        assert_eq!(nok.minor_units(), 2);
        assert_eq!(Currency::parse("EUR").unwrap(), Currency::EUR);
    }

    #[test]
    fn minor_units_follow_iso_4217() {
        let mu = |c: &str| Currency::parse(c).unwrap().minor_units();
        assert_eq!(mu("JPY"), 0);
        assert_eq!(mu("KRW"), 0);
        assert_eq!(mu("ISK"), 0);
        assert_eq!(mu("BHD"), 3);
        assert_eq!(mu("KWD"), 3);
        assert_eq!(mu("TND"), 3);
        assert_eq!(mu("SEK"), 2);
        assert_eq!(mu("USD"), 2);
    }

    #[test]
    fn minor_units_of_codes_iso_does_not_number() {
        let mu = |c: &str| Currency::parse(c).unwrap().minor_units();
        assert_eq!(mu("BYR"), 0);
        for c in [
            "MRO", "STD", "VEF", "ZWD", "HRK", "SLL", "GGP", "IMP", "JEP", "SPL", "TVD",
        ] {
            assert_eq!(mu(c), 2, "{c}");
        }
        assert_eq!(mu("XDR"), 5);
    }

    #[test]
    fn lower_case_is_refused_with_a_hint() {
        let err = Currency::parse("nok").unwrap_err();
        assert!(err.0.contains("did you mean 'NOK'"), "{err}");
        let err = Currency::parse("Nok").unwrap_err();
        assert!(err.0.contains("'NOK'"), "{err}");
    }

    #[test]
    fn unlisted_and_malformed_codes_are_refused() {
        // Current ISO codes that the bank's list does not carry.
        for c in ["BYN", "MRU", "SLE", "STN", "VES", "ZWG", "XAU"] {
            assert!(Currency::parse(c).is_err(), "{c}");
        }
        for c in ["", "NO", "NOKK", " NOK", "NOK ", "N0K", "xyz"] {
            let err = Currency::parse(c).unwrap_err();
            assert!(
                err.0.contains("not in the currency code list"),
                "{c}: {err}"
            );
        }
    }

    #[test]
    fn all_lists_exactly_the_spec_codes_in_order() {
        let all: Vec<Currency> = Currency::all().collect();
        assert_eq!(all.len(), 162);
        assert_eq!(all.first().unwrap().code(), "AED");
        assert_eq!(all.last().unwrap().code(), "ZWD");
        assert!(
            all.windows(2).all(|w| w[0] < w[1]),
            "table must stay sorted"
        );
        for c in &all {
            assert_eq!(Currency::parse(c.code()).unwrap(), *c);
            assert!(c.minor_units() <= 5, "{c} exceeds the contract scale");
        }
    }

    #[test]
    fn serde_uses_the_code_string() {
        assert_eq!(serde_json::to_string(&Currency::NOK).unwrap(), "\"NOK\"");
        let c: Currency = serde_json::from_str("\"SEK\"").unwrap();
        assert_eq!(c.code(), "SEK");
        assert!(serde_json::from_str::<Currency>("\"sek\"").is_err());
        assert!(serde_json::from_str::<Currency>("\"BYN\"").is_err());
    }

    #[test]
    fn debug_and_display_show_the_code() {
        assert_eq!(format!("{:?}", Currency::NOK), "Currency(NOK)");
        assert_eq!(Currency::NOK.to_string(), "NOK");
    }
}
