//! Country codes: exactly the bank's ISO 3166-1 alpha-2 list, used by addresses.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::error::DomainError;

/// The bank's country code list, copied verbatim and kept sorted for binary search.
#[rustfmt::skip]
const COUNTRIES: &[&str] = &[
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV", "BW", "BY", "BZ",
    "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ",
    "DE", "DJ", "DK", "DM", "DO", "DZ",
    "EC", "EE", "EG", "EH", "ER", "ES", "ET",
    "FI", "FJ", "FK", "FM", "FO", "FR",
    "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY",
    "HK", "HM", "HN", "HR", "HT", "HU",
    "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT",
    "JE", "JM", "JO", "JP",
    "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ",
    "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY",
    "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ",
    "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ",
    "OM",
    "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY",
    "QA",
    "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ",
    "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ",
    "UA", "UG", "UM", "US", "UY", "UZ",
    "VA", "VC", "VE", "VG", "VI", "VN", "VU",
    "WF", "WS",
    "YE", "YT",
    "ZA", "ZM", "ZW",
];

/// A code from the bank's country list; holding one proves the code is on the list.
///
/// The list, not today's ISO 3166-1, is the authority, so for example XK (Kosovo, user-assigned)
/// is refused while BV and HM (uninhabited) are accepted.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Country([u8; 2]);

impl Country {
    /// The sandbox's home country, named so callers need not parse a literal.
    pub const NO: Country = Country(*b"NO");

    /// Accepts only upper-case codes, as listed; a lower-case code is refused with a hint.
    pub fn parse(text: &str) -> Result<Country, DomainError> {
        if let Some(country) = lookup(text) {
            return Ok(country);
        }
        let upper = text.to_ascii_uppercase();
        if upper != text && lookup(&upper).is_some() {
            return Err(DomainError::new(format!(
                "'{text}' is not a country code: codes are upper case, did you mean '{upper}'?"
            )));
        }
        Err(DomainError::new(format!(
            "'{text}' is not in the country code list"
        )))
    }

    pub fn code(&self) -> &str {
        std::str::from_utf8(&self.0).expect("country codes are ASCII by construction")
    }

    /// Every code on the list, in alphabetical order.
    pub fn all() -> impl Iterator<Item = Country> {
        COUNTRIES.iter().map(|code| from_listed(code))
    }
}

fn lookup(code: &str) -> Option<Country> {
    COUNTRIES
        .binary_search(&code)
        .ok()
        .map(|i| from_listed(COUNTRIES[i]))
}

fn from_listed(code: &str) -> Country {
    let b = code.as_bytes();
    Country([b[0], b[1]])
}

impl fmt::Display for Country {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Debug shows the bare code rather than a byte array.
impl fmt::Debug for Country {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Country({})", self.code())
    }
}

impl Serialize for Country {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// Deserialising goes through [`Country::parse`], so an unlisted code never gets past the edge.
impl<'de> Deserialize<'de> for Country {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Country::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_listed_codes() {
        assert_eq!(Country::parse("NO").unwrap(), Country::NO);
        for c in ["SE", "DK", "FI", "DE", "GB", "AX", "SJ", "BV", "ZW"] {
            assert_eq!(Country::parse(c).unwrap().code(), c);
        }
    }

    #[test]
    fn refuses_unlisted_codes() {
        for c in ["XK", "EU", "UK", "AN", "ZZ", "", "N", "NOR", " NO", "N0"] {
            let err = Country::parse(c).unwrap_err();
            assert!(err.0.contains("not in the country code list"), "{c}: {err}");
        }
    }

    #[test]
    fn lower_case_is_refused_with_a_hint() {
        let err = Country::parse("no").unwrap_err();
        assert!(err.0.contains("did you mean 'NO'"), "{err}");
    }

    #[test]
    fn list_is_complete_and_sorted() {
        assert_eq!(COUNTRIES.len(), 249);
        assert!(COUNTRIES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Country::all().count(), 249);
    }

    #[test]
    fn serde_uses_the_code_string() {
        assert_eq!(serde_json::to_string(&Country::NO).unwrap(), "\"NO\"");
        let c: Country = serde_json::from_str("\"SE\"").unwrap();
        assert_eq!(c.code(), "SE");
        assert!(serde_json::from_str::<Country>("\"se\"").is_err());
    }
}
