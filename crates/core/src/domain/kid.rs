//! KID (kundeidentifikasjon): the Norwegian payment reference whose last character is a check digit.

use std::fmt;

use super::error::DomainError;

const MIN_LENGTH: usize = 2;
const MAX_LENGTH: usize = 25;

/// The two check digit schemes a KID agreement may use. The payee chooses one per agreement and
/// the payer's bank cannot know which, so a KID is accepted when either holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KidAlgorithm {
    /// Luhn.
    Mod10,
    /// Weights 2..7 from the right, check value 10 written '-'.
    Mod11,
}

/// Why a KID was refused, split so callers can answer `KID_MISSING` and `KID_INVALID` apart.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KidError {
    #[error("KID is missing")]
    Missing,
    #[error("{0}")]
    Invalid(DomainError),
}

/// A KID whose check digit holds under [`Kid::algorithm`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Kid {
    text: String,
    algorithm: KidAlgorithm,
}

impl Kid {
    /// Empty or blank text counts as missing rather than invalid: that is what a client that
    /// forgot the reference sends. Anything else is checked as written, without trimming.
    pub fn parse(text: &str) -> Result<Kid, KidError> {
        if text.trim().is_empty() {
            return Err(KidError::Missing);
        }
        let invalid = |why: String| Err(KidError::Invalid(DomainError::new(why)));
        let len = text.chars().count();
        if let Some((i, bad)) = text
            .chars()
            .enumerate()
            .find(|(i, c)| !(c.is_ascii_digit() || (*c == '-' && *i == len - 1)))
        {
            return if bad == '-' {
                invalid(format!(
                    "KID '{text}' has '-' at position {}; '-' may only be the last character (a mod 11 check digit)",
                    i + 1
                ))
            } else {
                invalid(format!(
                    "KID '{text}' contains '{bad}'; only digits are allowed, and '-' as the last character"
                ))
            };
        }
        if !(MIN_LENGTH..=MAX_LENGTH).contains(&len) {
            return invalid(format!(
                "KID '{text}' has {len} characters, a KID has {MIN_LENGTH} to {MAX_LENGTH}"
            ));
        }
        let (payload, given) = text.split_at(len - 1);
        let given = given.chars().next().expect("length is at least 2");
        let mod10 = mod10_check_digit(payload);
        let mod11 = mod11_check_digit(payload);
        // Mod 10 first: when both hold (the schemes agree by chance) it is the more common one.
        let algorithm = if given == mod10 {
            KidAlgorithm::Mod10
        } else if given == mod11 {
            KidAlgorithm::Mod11
        } else {
            return invalid(format!(
                "KID '{text}' has check digit '{given}', expected '{mod10}' (mod 10) or '{mod11}' (mod 11)"
            ));
        };
        Ok(Kid {
            text: text.to_string(),
            algorithm,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The scheme that validated; mod 10 when both do.
    pub fn algorithm(&self) -> KidAlgorithm {
        self.algorithm
    }
}

impl fmt::Display for Kid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The Luhn check digit to append to `digits`, for generating sandbox KIDs.
///
/// # Panics
/// If `digits` holds anything but ASCII digits.
pub fn mod10_check_digit(digits: &str) -> char {
    let sum: u32 = digit_values(digits)
        .rev()
        .enumerate()
        .map(|(i, d)| {
            let weighted = if i % 2 == 0 { d * 2 } else { d };
            weighted / 10 + weighted % 10
        })
        .sum();
    char::from_digit((10 - sum % 10) % 10, 10).expect("a value below 10")
}

/// The mod 11 check digit to append to `digits`: '-' for check value 10, '0' for remainder 0.
///
/// # Panics
/// If `digits` holds anything but ASCII digits.
pub fn mod11_check_digit(digits: &str) -> char {
    let sum: u32 = digit_values(digits)
        .rev()
        .zip([2, 3, 4, 5, 6, 7].into_iter().cycle())
        .map(|(d, w)| d * w)
        .sum();
    match sum % 11 {
        0 => '0',
        1 => '-',
        r => char::from_digit(11 - r, 10).expect("a value below 10"),
    }
}

fn digit_values(digits: &str) -> impl DoubleEndedIterator<Item = u32> + '_ {
    digits.chars().map(|c| {
        c.to_digit(10)
            .unwrap_or_else(|| panic!("check digits are computed over digits only, got '{c}'"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Kid {
        Kid::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn invalid_reason(text: &str) -> String {
        match Kid::parse(text) {
            Err(KidError::Invalid(e)) => e.0,
            other => panic!("{text}: expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn check_digit_functions_match_hand_computation() {
        // Luhn over 123456789 from the right: 18->9, 8, 14->5, 6, 10->1, 4, 6, 2, 2 = 43 -> 7.
        assert_eq!(mod10_check_digit("123456789"), '7');
        // Mod 11 over 123456789, weights 2..7 from the right: 9*2+8*3+7*4+6*5+5*6+4*7+3*2+2*3+1*4
        // = 174; 174 mod 11 = 9; 11 - 9 = 2.
        assert_eq!(mod11_check_digit("123456789"), '2');
        // 1234: Luhn 8+3+4+1 = 16 -> 4; mod 11 4*2+3*3+2*4+1*5 = 30, 30 mod 11 = 8 -> 3.
        assert_eq!(mod10_check_digit("1234"), '4');
        assert_eq!(mod11_check_digit("1234"), '3');
        // 28: mod 11 8*2+2*3 = 22, remainder 0 -> '0'. Luhn 16->7 + 2 = 9 -> 1.
        assert_eq!(mod11_check_digit("28"), '0');
        assert_eq!(mod10_check_digit("28"), '1');
        // 23: mod 11 3*2+2*3 = 12, remainder 1, check value 10 -> '-'.
        assert_eq!(mod11_check_digit("23"), '-');
        assert_eq!(mod10_check_digit("23"), '2');
    }

    #[test]
    fn accepts_mod10_kids() {
        let kid = parse_ok("1234567897");
        assert_eq!(kid.algorithm(), KidAlgorithm::Mod10);
        assert_eq!(kid.as_str(), "1234567897");
        assert_eq!(parse_ok("12344").algorithm(), KidAlgorithm::Mod10);
        assert_eq!(parse_ok("281").algorithm(), KidAlgorithm::Mod10);
    }

    #[test]
    fn accepts_mod11_kids() {
        assert_eq!(parse_ok("1234567892").algorithm(), KidAlgorithm::Mod11);
        assert_eq!(parse_ok("12343").algorithm(), KidAlgorithm::Mod11);
        assert_eq!(parse_ok("280").algorithm(), KidAlgorithm::Mod11);
        assert_eq!(parse_ok("23-").algorithm(), KidAlgorithm::Mod11);
    }

    #[test]
    fn valid_under_both_is_recorded_as_mod10() {
        // Payload 1234567890: Luhn and mod 11 both give 3.
        assert_eq!(mod10_check_digit("1234567890"), '3');
        assert_eq!(mod11_check_digit("1234567890"), '3');
        assert_eq!(parse_ok("12345678903").algorithm(), KidAlgorithm::Mod10);
        assert_eq!(parse_ok("00").algorithm(), KidAlgorithm::Mod10);
    }

    #[test]
    fn wrong_check_digit_names_both_expectations() {
        let why = invalid_reason("1234567890");
        assert!(
            why.contains("expected '7' (mod 10) or '2' (mod 11)"),
            "{why}"
        );
        let why = invalid_reason("12-");
        assert!(why.contains("check digit '-'"), "{why}");
    }

    #[test]
    fn missing_is_distinct_from_invalid() {
        assert_eq!(Kid::parse(""), Err(KidError::Missing));
        assert_eq!(Kid::parse("  "), Err(KidError::Missing));
        assert_eq!(KidError::Missing.to_string(), "KID is missing");
    }

    #[test]
    fn length_bounds() {
        let why = invalid_reason("7");
        assert!(why.contains("has 1 characters"), "{why}");
        let payload24 = "123456789012345678901234";
        let kid25 = format!("{payload24}{}", mod10_check_digit(payload24));
        assert_eq!(parse_ok(&kid25).as_str().len(), 25);
        let payload25 = format!("{payload24}5");
        let kid26 = format!("{payload25}{}", mod10_check_digit(&payload25));
        assert!(invalid_reason(&kid26).contains("has 26 characters"));
    }

    #[test]
    fn refuses_bad_characters() {
        assert!(invalid_reason("12345 67897").contains("contains ' '"));
        assert!(invalid_reason(" 1234567897").contains("contains ' '"));
        assert!(invalid_reason("12345678a7").contains("contains 'a'"));
        assert!(invalid_reason("2-3").contains("'-' at position 2"));
        assert!(invalid_reason("--").contains("'-' at position 1"));
        assert!(invalid_reason("１２３").contains("contains '１'"));
    }

    #[test]
    fn generated_kids_round_trip() {
        for n in 0..500u32 {
            let payload = format!("{}", 1000 + n * 7);
            let k10 = format!("{payload}{}", mod10_check_digit(&payload));
            let k11 = format!("{payload}{}", mod11_check_digit(&payload));
            assert!(Kid::parse(&k10).is_ok(), "{k10}");
            assert!(Kid::parse(&k11).is_ok(), "{k11}");
        }
    }
}
