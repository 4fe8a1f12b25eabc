//! Norwegian account numbers (BBAN): 11 digits whose last digit is a mod 11 check digit.

use std::fmt;

use super::error::DomainError;

const WEIGHTS: [u32; 10] = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/// An 11-digit Norwegian account number whose check digit holds, stored without separators.
///
/// Bank customers write account numbers as "1234.56.78903" or "1234 56 78903"; those
/// separators are accepted and dropped so two spellings of one account compare equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bban(String);

impl Bban {
    pub fn parse(text: &str) -> Result<Bban, DomainError> {
        let (bban, check_digit_problem) = Self::parse_keeping_check_digit(text)?;
        match check_digit_problem {
            Some(problem) => Err(problem),
            None => Ok(bban),
        }
    }

    /// Parses the form (11 digits, separators dropped) but lets a wrong check digit through, returning
    /// the problem beside the number. Mock data needs this: the bank platform's own developer kit creates
    /// accounts whose check digits are wrong, and its sandbox takes them. Payments never use it.
    pub fn parse_keeping_check_digit(
        text: &str,
    ) -> Result<(Bban, Option<DomainError>), DomainError> {
        if text.is_empty() {
            return Err(DomainError::new("account number is empty"));
        }
        let digits: String = text.chars().filter(|c| *c != '.' && *c != ' ').collect();
        if let Some(bad) = digits.chars().find(|c| !c.is_ascii_digit()) {
            return Err(DomainError::new(format!(
                "account number '{text}' contains '{bad}'; only digits, '.' and ' ' are allowed"
            )));
        }
        if digits.len() != 11 {
            return Err(DomainError::new(format!(
                "account number '{text}' has {}, a Norwegian account number has 11",
                super::error::count(digits.len(), "digit")
            )));
        }
        let problem = match check_digit(&digits[..10]) {
            None => Some(DomainError::new(format!(
                "account number '{text}' cannot exist: its first 10 digits give check value 10"
            ))),
            Some(expected) => {
                let actual = digits.as_bytes()[10] - b'0';
                (actual != expected).then(|| {
                    DomainError::new(format!(
                        "account number '{text}' has check digit {actual}, expected {expected}"
                    ))
                })
            }
        };
        Ok((Bban(digits), problem))
    }

    /// Completes 10 digits into a valid account number, so the sandbox can derive deterministic
    /// accounts from a counter; `None` when the digits are not 10 ASCII digits or give check
    /// value 10 (no such account can exist, so the caller moves on to the next candidate).
    pub fn with_check_digit(first10: &str) -> Option<Bban> {
        if first10.len() != 10 || !first10.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let check = check_digit(first10)?;
        Some(Bban(format!("{first10}{check}")))
    }

    /// A random valid account number at the bank with this 4-digit bank code (registry number).
    pub fn generate(bank_code: &str, rng: &mut impl rand::Rng) -> Result<Bban, DomainError> {
        if bank_code.len() != 4 || !bank_code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(DomainError::new(format!(
                "bank code '{bank_code}' is not 4 digits (the first four of an account number, e.g. 1205)"
            )));
        }
        loop {
            let first10 = format!("{bank_code}{:06}", rng.gen_range(0..1_000_000));
            // One stem in eleven gives check value 10: draw again.
            if let Some(bban) = Self::with_check_digit(&first10) {
                return Ok(bban);
            }
        }
    }

    /// The 11 digits, without separators.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The mod 11 check digit of 10 ASCII digits; `None` for check value 10, which makes the number invalid.
fn check_digit(first10: &str) -> Option<u8> {
    super::mod11::check_digit(first10, &WEIGHTS).map(|d| d as u8)
}

impl fmt::Display for Bban {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_known_valid_numbers() {
        // DNB's published example account.
        assert_eq!(Bban::parse("86011117947").unwrap().as_str(), "86011117947");
        // 1*5+2*4+3*3+4*2+5*7+6*6+7*5+8*4+9*3+0*2 = 195; 195 mod 11 = 8; 11 - 8 = 3.
        assert_eq!(Bban::parse("12345678903").unwrap().as_str(), "12345678903");
        // 1*5+5*4+0+3*2+0+0+1*5+2*4+3*3+4*2 = 61; 61 mod 11 = 6; 11 - 6 = 5.
        assert!(Bban::parse("15030012345").is_ok());
    }

    #[test]
    fn strips_separators() {
        assert_eq!(
            Bban::parse("8601.11.17947").unwrap().as_str(),
            "86011117947"
        );
        assert_eq!(
            Bban::parse("8601 11 17947").unwrap().as_str(),
            "86011117947"
        );
        assert_eq!(
            Bban::parse("1234.56.78903").unwrap(),
            Bban::parse("12345678903").unwrap()
        );
    }

    #[test]
    fn wrong_check_digit_names_the_expected_one() {
        let err = Bban::parse("86011117948").unwrap_err();
        assert!(err.0.contains("check digit 8, expected 7"), "{err}");
        let err = Bban::parse("12345678901").unwrap_err();
        assert!(err.0.contains("check digit 1, expected 3"), "{err}");
    }

    #[test]
    fn check_value_10_means_no_such_account() {
        // 1*5+2*4+3*3+4*2+5*7+6*6+7*5+0+0+4*2 = 144; 144 mod 11 = 1; 11 - 1 = 10.
        assert_eq!(check_digit("1234567004"), None);
        for last in 0..=9 {
            let err = Bban::parse(&format!("1234567004{last}")).unwrap_err();
            assert!(err.0.contains("check value 10"), "{err}");
        }
        assert_eq!(Bban::with_check_digit("1234567004"), None);
    }

    #[test]
    fn remainder_0_gives_check_digit_0() {
        // Every weight times zero: sum 0, remainder 0, check digit 0.
        assert_eq!(
            Bban::with_check_digit("0000000000").unwrap().as_str(),
            "00000000000"
        );
        assert!(Bban::parse("00000000000").is_ok());
    }

    #[test]
    fn refuses_bad_shapes() {
        for (text, expected) in [
            ("", "empty"),
            ("8601111794", "has 10 digits"),
            ("860111179470", "has 12 digits"),
            ("8601-11-17947", "contains '-'"),
            ("86011117a47", "contains 'a'"),
            ("NO9386011117947", "contains 'N'"),
        ] {
            let err = Bban::parse(text).unwrap_err();
            assert!(err.0.contains(expected), "{text}: {err}");
        }
    }

    #[test]
    fn with_check_digit_builds_parseable_numbers() {
        assert_eq!(
            Bban::with_check_digit("8601111794").unwrap().as_str(),
            "86011117947"
        );
        assert_eq!(Bban::with_check_digit("860111179"), None);
        assert_eq!(Bban::with_check_digit("860111179x"), None);
        let mut made = 0;
        for n in 0..200u32 {
            if let Some(b) =
                Bban::with_check_digit(&format!("{:010}", 9_710_000_000_u64 + u64::from(n)))
            {
                assert_eq!(Bban::parse(b.as_str()).unwrap(), b);
                made += 1;
            }
        }
        assert!(made > 150, "about 1 in 11 candidates has check value 10");
    }

    #[test]
    fn a_wrong_check_digit_can_be_kept_beside_the_number() {
        let (bban, problem) = Bban::parse_keeping_check_digit("4342.79.43323").unwrap();
        assert_eq!(bban.as_str(), "43427943323");
        assert!(problem.unwrap().to_string().contains("check digit"));
        let (_, problem) = Bban::parse_keeping_check_digit("86011117947").unwrap();
        assert!(problem.is_none());
        assert!(Bban::parse_keeping_check_digit("1234").is_err());
    }

    #[test]
    fn generated_numbers_pass_the_parser_at_their_bank() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(18);
        for n in 0..1000 {
            let bank = ["1205", "8601", "0530"][n % 3];
            let bban = Bban::generate(bank, &mut rng).unwrap();
            assert_eq!(Bban::parse(bban.as_str()).unwrap(), bban);
            assert!(bban.as_str().starts_with(bank), "{bban}");
        }
        assert!(Bban::generate("12a5", &mut rng).is_err());
        assert!(Bban::generate("120", &mut rng).is_err());
    }
}
