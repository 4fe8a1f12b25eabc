//! Norwegian organisation numbers: 9 digits, the last a mod 11 check digit over weights 3,2,7,6,5,4,3,2.
//!
//! Corporate sandbox customers are identified by one.

use crate::domain::DomainError;
use std::fmt;

const WEIGHTS: [u32; 8] = [3, 2, 7, 6, 5, 4, 3, 2];

/// A 9-digit organisation number whose check digit holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrgNumber(String);

impl OrgNumber {
    /// Accepts the printed form with spaces ("912 345 678") and drops them.
    pub fn parse(text: &str) -> Result<OrgNumber, DomainError> {
        let digits: String = text.chars().filter(|c| *c != ' ').collect();
        if digits.is_empty() {
            return Err(DomainError::new("organisation number is empty"));
        }
        if let Some(bad) = digits.chars().find(|c| !c.is_ascii_digit()) {
            return Err(DomainError::new(format!(
                "organisation number '{text}' contains '{bad}'; only digits are allowed"
            )));
        }
        if digits.len() != 9 {
            return Err(DomainError::new(format!(
                "organisation number '{text}' has {}, it must have 9",
                super::error::count(digits.len(), "digit")
            )));
        }
        let actual = u32::from(digits.as_bytes()[8] - b'0');
        match check_digit(&digits[..8]) {
            None => Err(DomainError::new(format!(
                "organisation number '{text}' cannot exist: its first 8 digits give check value 10"
            ))),
            Some(expected) if expected != actual => Err(DomainError::new(format!(
                "organisation number '{text}' has check digit {actual}, expected {expected}"
            ))),
            Some(_) => Ok(OrgNumber(digits)),
        }
    }

    /// Completes 8 digits into a valid number, so the seed can derive organisation numbers; `None` when
    /// the digits give check value 10 (the caller tries the next candidate).
    pub fn with_check_digit(first8: &str) -> Option<OrgNumber> {
        if first8.len() != 8 || !first8.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let check = check_digit(first8)?;
        Some(OrgNumber(format!("{first8}{check}")))
    }

    /// A random valid number. Registered organisation numbers start with 8 or 9, so generated ones do too.
    pub fn generate(rng: &mut impl rand::Rng) -> OrgNumber {
        loop {
            let first8 = format!(
                "{}{:07}",
                rng.gen_range(8..=9),
                rng.gen_range(0..10_000_000)
            );
            // One stem in eleven gives check value 10: draw again.
            if let Some(number) = Self::with_check_digit(&first8) {
                return number;
            }
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn check_digit(first8: &str) -> Option<u32> {
    super::mod11::check_digit(first8, &WEIGHTS)
}

impl fmt::Display for OrgNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_registered_number_and_its_printed_form() {
        // 974 760 673 is the Brønnøysund Register Centre's own, a well-known valid number.
        assert_eq!(OrgNumber::parse("974760673").unwrap().as_str(), "974760673");
        assert_eq!(
            OrgNumber::parse("974 760 673").unwrap().as_str(),
            "974760673"
        );
    }

    #[test]
    fn refuses_a_wrong_check_digit_and_wrong_lengths() {
        assert!(OrgNumber::parse("974760674")
            .unwrap_err()
            .to_string()
            .contains("expected 3"));
        assert!(OrgNumber::parse("97476067").is_err());
        assert!(OrgNumber::parse("97476067X").is_err());
    }

    #[test]
    fn completes_eight_digits() {
        let n = OrgNumber::with_check_digit("97476067").unwrap();
        assert_eq!(n.as_str(), "974760673");
    }

    #[test]
    fn generated_numbers_pass_the_parser() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(18);
        for _ in 0..1000 {
            let number = OrgNumber::generate(&mut rng);
            assert_eq!(OrgNumber::parse(number.as_str()).unwrap(), number);
            assert!(
                matches!(number.as_str().as_bytes()[0], b'8' | b'9'),
                "{number}"
            );
        }
    }
}
