//! Norwegian national identity numbers (fødselsnummer) and D-numbers, real and synthetic.

use std::fmt;

use time::{Date, Month};

use super::error::DomainError;

const K1_WEIGHTS: [u32; 9] = [3, 7, 6, 1, 8, 9, 4, 5, 2];
const K2_WEIGHTS: [u32; 10] = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/// Whether the number belongs to a resident (birth number) or a non-resident (D-number, day + 40).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdKind {
    BirthNumber,
    DNumber,
}

/// The kind of number [`NationalId::generate`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeneratedKind {
    /// A fødselsnummer: the birth date as it is.
    BirthNumber,
    /// A D-number: the day + 40.
    DNumber,
    /// A synthetic test number: the month + 80.
    Synthetic,
}

/// The sex a national identity number encodes in its individual number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sex {
    Female,
    Male,
}

/// Which check digit rule to apply.
///
/// From 2032 the Tax Administration will issue numbers whose first check digit is no longer
/// computed by the mod 11 rule, to enlarge the number space; only the second check digit keeps
/// its meaning. Public descriptions say k1 may then take one of several values; we have not seen
/// the exact rule for which values are allowed, so `From2032` accepts any k1 and checks only k2,
/// which is still mod 11 with weights 5,4,3,2,7,6,5,4,3,2 over the first ten digits as written.
/// The birth date cannot tell which rule applies (a person born in 1990 may get a new-style
/// number in 2033), so the caller chooses; [`NationalId::parse`] uses today's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckDigitRule {
    Pre2032,
    From2032,
}

/// An 11-digit identity number DDMMYYIIIKK whose check digits and birth date hold.
///
/// Synthetic test identities are accepted because the sandbox's SCA screen asks for a mocked
/// national identity number: month + 80 (Skatteetaten's Tenor test data) and month + 40 (the
/// older NAV / Skatteetaten synthetic numbers; the same shape as health-sector H-numbers), for
/// birth numbers and D-numbers alike.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NationalId {
    text: String,
    kind: IdKind,
    synthetic: bool,
    birth_date: Date,
}

impl NationalId {
    /// Validates both check digits, the rule for every number issued so far.
    pub fn parse(text: &str) -> Result<NationalId, DomainError> {
        Self::parse_with_rules(text, CheckDigitRule::Pre2032)
    }

    pub fn parse_with_rules(text: &str, rule: CheckDigitRule) -> Result<NationalId, DomainError> {
        if text.is_empty() {
            return Err(DomainError::new("national identity number is empty"));
        }
        if let Some(bad) = text.chars().find(|c| !c.is_ascii_digit()) {
            return Err(DomainError::new(format!(
                "national identity number '{text}' contains '{bad}'; only digits are allowed"
            )));
        }
        if text.len() != 11 {
            return Err(DomainError::new(format!(
                "national identity number '{text}' has {}, it must have 11",
                super::error::count(text.len(), "digit")
            )));
        }
        let d: Vec<u32> = text.bytes().map(|b| u32::from(b - b'0')).collect();
        // The date first: "month 34" is what a person typing the number got wrong, and no check digit
        // can make such a number valid, so it is reported before the check digits are looked at.
        let (kind, synthetic, birth_date) = date_part(text, &d)?;
        if rule == CheckDigitRule::Pre2032 {
            check(text, "first", weighted_check(&d[..9], &K1_WEIGHTS), d[9])?;
        }
        check(text, "second", weighted_check(&d[..10], &K2_WEIGHTS), d[10])?;
        Ok(NationalId {
            text: text.to_string(),
            kind,
            synthetic,
            birth_date,
        })
    }

    /// A valid synthetic (month + 80) birth number, so the sandbox can seed deterministic customers.
    ///
    /// `None` when `individual` is above 999, does not encode the date's century, or gives a
    /// check value of 10 (no such number exists; the caller tries the next individual number).
    pub fn synthetic(birth_date: Date, individual: u16) -> Option<NationalId> {
        if individual > 999 {
            return None;
        }
        let year = birth_date.year();
        let yy = year.rem_euclid(100) as u32;
        if birth_year(u32::from(individual), yy) != Some(year) {
            return None;
        }
        let stem = format!(
            "{:02}{:02}{:02}{:03}",
            birth_date.day(),
            u8::from(birth_date.month()) + 80,
            yy,
            individual
        );
        let d: Vec<u32> = stem.bytes().map(|b| u32::from(b - b'0')).collect();
        let k1 = weighted_check(&d, &K1_WEIGHTS)?;
        let with_k1: Vec<u32> = d.iter().copied().chain([k1]).collect();
        let k2 = weighted_check(&with_k1, &K2_WEIGHTS)?;
        Self::parse(&format!("{stem}{k1}{k2}")).ok()
    }

    /// A random valid number for `birth_date`: a birth number, a D-number (day + 40) or a synthetic
    /// test number (month + 80, as Skatteetaten's Tenor test data), with the individual number's last
    /// digit even for a woman and odd for a man. The individual number is drawn from the range that
    /// encodes the birth year's century; years outside 1854-2039 cannot be written and are refused.
    pub fn generate(
        kind: GeneratedKind,
        birth_date: Date,
        sex: Option<Sex>,
        rng: &mut impl rand::Rng,
    ) -> Result<NationalId, DomainError> {
        let year = birth_date.year();
        let ranges: &[std::ops::RangeInclusive<u32>] = match year {
            1854..=1899 => &[500..=749],
            1900..=1939 => &[0..=499],
            1940..=1999 => &[0..=499, 900..=999],
            2000..=2039 => &[500..=999],
            _ => {
                return Err(DomainError::new(format!(
                    "a national identity number can only be written for birth years 1854 to 2039, not {year}"
                )))
            }
        };
        let day = birth_date.day()
            + if kind == GeneratedKind::DNumber {
                40
            } else {
                0
            };
        let month = u8::from(birth_date.month())
            + if kind == GeneratedKind::Synthetic {
                80
            } else {
                0
            };
        let yy = year.rem_euclid(100);
        // About one individual number in five gives a check value of 10; a few hundred draws never all do.
        for _ in 0..1000 {
            let range = &ranges[rng.gen_range(0..ranges.len())];
            let mut individual = rng.gen_range(range.clone());
            match sex {
                Some(Sex::Female) if individual % 2 == 1 => individual -= 1,
                Some(Sex::Male) if individual % 2 == 0 => individual += 1,
                _ => {}
            }
            if !range.contains(&individual) {
                continue;
            }
            let stem = format!("{day:02}{month:02}{yy:02}{individual:03}");
            let d: Vec<u32> = stem.bytes().map(|b| u32::from(b - b'0')).collect();
            let Some(k1) = weighted_check(&d, &K1_WEIGHTS) else {
                continue;
            };
            let with_k1: Vec<u32> = d.iter().copied().chain([k1]).collect();
            let Some(k2) = weighted_check(&with_k1, &K2_WEIGHTS) else {
                continue;
            };
            return Self::parse(&format!("{stem}{k1}{k2}"));
        }
        Err(DomainError::new(format!(
            "no valid national identity number was found for {birth_date}"
        )))
    }

    /// The sex the individual number encodes (its last digit: even for a woman, odd for a man).
    pub fn sex(&self) -> Sex {
        if (self.text.as_bytes()[8] - b'0').is_multiple_of(2) {
            Sex::Female
        } else {
            Sex::Male
        }
    }

    pub fn kind(&self) -> IdKind {
        self.kind
    }

    pub fn is_synthetic(&self) -> bool {
        self.synthetic
    }

    /// The real birth date, with the D-number and synthetic offsets removed.
    pub fn birth_date(&self) -> Date {
        self.birth_date
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// The date part DDMMYY with the individual number's century: the kind (a day + 40 is a D-number), whether
/// the month is a synthetic one (+ 40 or + 80), and the real birth date, which must exist.
fn date_part(text: &str, d: &[u32]) -> Result<(IdKind, bool, Date), DomainError> {
    // A first digit of 4-7 marks a D-number; the day left after removing 40 is checked with
    // the rest of the date, so "72" is reported as day 32 rather than as an odd birth day.
    let (kind, day) = match (d[0], d[0] * 10 + d[1]) {
        (4..=7, day) => (IdKind::DNumber, day - 40),
        (_, day) => (IdKind::BirthNumber, day),
    };
    let (synthetic, month) = match d[2] * 10 + d[3] {
        m @ 1..=12 => (false, m),
        m @ 41..=52 => (true, m - 40),
        m @ 81..=92 => (true, m - 80),
        m => {
            return Err(DomainError::new(format!(
                "national identity number '{text}' has month {m:02}; expected 01-12, or 41-52 or 81-92 for a synthetic number"
            )))
        }
    };
    let yy = d[4] * 10 + d[5];
    let individual = d[6] * 100 + d[7] * 10 + d[8];
    let year = birth_year(individual, yy).ok_or_else(|| {
        DomainError::new(format!(
            "national identity number '{text}' has individual number {individual:03}, which is not issued for year {yy:02}"
        ))
    })?;
    let birth_date = Month::try_from(month as u8)
        .and_then(|m| Date::from_calendar_date(year, m, day as u8))
        .map_err(|_| {
            DomainError::new(format!(
                "national identity number '{text}' has birth date {day:02}.{month:02}.{year}, which does not exist"
            ))
        })?;
    Ok((kind, synthetic, birth_date))
}

/// The mod 11 check digit over `digits`; `None` for check value 10, which no issued number has.
fn weighted_check(digits: &[u32], weights: &[u32]) -> Option<u32> {
    super::mod11::check_digit_of_values(digits, weights)
}

fn check(text: &str, which: &str, expected: Option<u32>, actual: u32) -> Result<(), DomainError> {
    match expected {
        None => Err(DomainError::new(format!(
            "national identity number '{text}' cannot exist: its {which} check digit would be 10"
        ))),
        Some(expected) if expected != actual => Err(DomainError::new(format!(
            "national identity number '{text}' has {which} check digit {actual}, expected {expected}"
        ))),
        Some(_) => Ok(()),
    }
}

/// The full birth year from the individual number's range and the two-digit year; `None` for
/// combinations never issued.
fn birth_year(individual: u32, yy: u32) -> Option<i32> {
    let century = match (individual, yy) {
        (0..=499, _) => 1900,
        (500..=749, 54..=99) => 1800,
        (500..=999, 0..=39) => 2000,
        (900..=999, 40..=99) => 1900,
        _ => return None,
    };
    Some(century + yy as i32)
}

impl fmt::Display for NationalId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn ok(text: &str) -> NationalId {
        NationalId::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn err(text: &str) -> String {
        NationalId::parse(text).unwrap_err().0
    }

    /// Appends both check digits by the algorithm, independently of the parser.
    fn complete(stem: &str) -> Option<String> {
        let d: Vec<u32> = stem.bytes().map(|b| u32::from(b - b'0')).collect();
        let k1 = weighted_check(&d, &K1_WEIGHTS)?;
        let mut d10 = d.clone();
        d10.push(k1);
        let k2 = weighted_check(&d10, &K2_WEIGHTS)?;
        Some(format!("{stem}{k1}{k2}"))
    }

    /// The first number with valid check digits from date part `ddmmyy` and individual numbers
    /// counting up from `individual`, so a test can target a rule other than the check digits.
    fn first_valid(ddmmyy: &str, individual: u32) -> String {
        (individual..individual + 50)
            .find_map(|i| complete(&format!("{ddmmyy}{i:03}")))
            .expect("some individual number in 50 has valid check digits")
    }

    #[test]
    fn accepts_hand_verified_birth_numbers() {
        // Worked example from matematikk.org: V1 = 110 -> k1 0; V2 = 92, 92 mod 11 = 4 -> k2 7.
        let id = ok("02016126007");
        assert_eq!(id.birth_date(), date!(1961 - 01 - 02));
        assert_eq!(id.kind(), IdKind::BirthNumber);
        assert!(!id.is_synthetic());
        assert_eq!(id.as_str(), "02016126007");
        // 0*3+1*7+0+1*1+0+0+1*4+2*5+3*2 = 28, 28 mod 11 = 6 -> k1 5;
        // 0*5+1*4+0+1*2+0+0+1*5+2*4+3*3+5*2 = 38, 38 mod 11 = 5 -> k2 6.
        assert_eq!(ok("01010012356").birth_date(), date!(1900 - 01 - 01));
        assert_eq!(complete("010100123").as_deref(), Some("01010012356"));
    }

    #[test]
    fn centuries_follow_the_individual_number() {
        assert_eq!(ok("01015460020").birth_date(), date!(1854 - 01 - 01));
        assert_eq!(ok("01015450068").birth_date(), date!(1854 - 01 - 01));
        assert_eq!(ok("01014090017").birth_date(), date!(1940 - 01 - 01));
        assert_eq!(ok("31129990077").birth_date(), date!(1999 - 12 - 31));
        assert_eq!(ok("01010050053").birth_date(), date!(2000 - 01 - 01));
        // 500-749 is not issued for years 40-53.
        assert!(err("01014050066").contains("individual number 500"));
        // 750-899 is only issued for years 00-39.
        assert!(err(&first_valid("010140", 800)).contains("not issued for year 40"));
        assert_eq!(
            ok(&first_valid("010139", 800)).birth_date(),
            date!(2039 - 01 - 01)
        );
    }

    #[test]
    fn d_numbers_add_40_to_the_day() {
        let id = ok("41010012420");
        assert_eq!(id.kind(), IdKind::DNumber);
        assert_eq!(id.birth_date(), date!(1900 - 01 - 01));
        assert!(!id.is_synthetic());
        assert_eq!(ok("71010012443").birth_date(), date!(1900 - 01 - 31));
        assert!(err("72010012482").contains("32.01.1900"));
    }

    #[test]
    fn synthetic_months_are_accepted() {
        let id = ok("01810012311");
        assert!(id.is_synthetic());
        assert_eq!(id.kind(), IdKind::BirthNumber);
        assert_eq!(id.birth_date(), date!(1900 - 01 - 01));
        let id = ok("01410012339");
        assert!(id.is_synthetic());
        assert_eq!(id.birth_date(), date!(1900 - 01 - 01));
        let id = ok("41810012305");
        assert!(id.is_synthetic());
        assert_eq!(id.kind(), IdKind::DNumber);
        let id = ok(&first_valid("414100", 123));
        assert!(id.is_synthetic());
        assert_eq!(id.kind(), IdKind::DNumber);
        assert_eq!(
            ok(&first_valid("319299", 123)).birth_date(),
            date!(1999 - 12 - 31)
        );
        assert_eq!(
            ok(&first_valid("294200", 500)).birth_date(),
            date!(2000 - 02 - 29)
        );
    }

    #[test]
    fn months_outside_the_ranges_are_refused() {
        for ddmmyy in [
            "011300", "010000", "015300", "019300", "014000", "018000", "012000",
        ] {
            let id = first_valid(ddmmyy, 123);
            assert!(err(&id).contains("month"), "{id}");
        }
    }

    #[test]
    fn birth_dates_must_exist() {
        assert_eq!(ok("29029612410").birth_date(), date!(1996 - 02 - 29));
        assert_eq!(ok("29020050088").birth_date(), date!(2000 - 02 - 29));
        assert!(err("29029912392").contains("29.02.1999"));
        // 1900 is not a leap year.
        assert!(err("29020012380").contains("29.02.1900"));
        assert!(err("31040012349").contains("31.04.1900"));
        assert!(err(&first_valid("000100", 123)).contains("00.01.1900"));
        assert!(err(&first_valid("400100", 123)).contains("00.01.1900"));
        // Leap-year rules apply after removing the synthetic offset too.
        assert!(err(&first_valid("298282", 123)).contains("29.02.1982"));
        assert!(err(&first_valid("694282", 123)).contains("29.02.1982"));
        assert_eq!(
            ok(&first_valid("298284", 123)).birth_date(),
            date!(1984 - 02 - 29)
        );
    }

    #[test]
    fn check_value_10_means_no_such_number() {
        // 010100002: 0*3+1*7+0+1*1+0+0+0+0+2*2 = 12, 12 mod 11 = 1, 11 - 1 = 10.
        assert_eq!(
            weighted_check(&[0, 1, 0, 1, 0, 0, 0, 0, 2], &K1_WEIGHTS),
            None
        );
        assert!(err("01010000200").contains("first check digit would be 10"));
        // 010100000 gives k1 3, and then k2 would be 10.
        assert_eq!(
            weighted_check(&[0, 1, 0, 1, 0, 0, 0, 0, 0], &K1_WEIGHTS),
            Some(3)
        );
        assert!(err("01010000030").contains("second check digit would be 10"));
    }

    #[test]
    fn wrong_check_digits_name_the_expected_one() {
        assert!(err("01010012357").contains("second check digit 7, expected 6"));
        assert!(err("01010012366").contains("first check digit 6, expected 5"));
    }

    #[test]
    fn refuses_bad_shapes() {
        assert!(err("").contains("empty"));
        assert!(err("0101001235").contains("has 10 digits"));
        assert!(err("010100123567").contains("has 12 digits"));
        assert!(err("010100 12356").contains("contains ' '"));
        assert!(err("0101001235x").contains("contains 'x'"));
    }

    #[test]
    fn the_2032_rule_checks_only_the_second_digit() {
        // k1 0 instead of 5; k2 over 0101001230 is 5 (sum 28, 28 mod 11 = 6, 11 - 6 = 5).
        let text = "01010012305";
        assert!(err(text).contains("first check digit 0, expected 5"));
        let id = NationalId::parse_with_rules(text, CheckDigitRule::From2032).unwrap();
        assert_eq!(id.birth_date(), date!(1900 - 01 - 01));
        // k2 still matters.
        let e = NationalId::parse_with_rules("01010012306", CheckDigitRule::From2032).unwrap_err();
        assert!(e.0.contains("second check digit 6, expected 5"), "{e}");
        // Today's valid numbers stay valid under the new rule.
        assert!(NationalId::parse_with_rules("02016126007", CheckDigitRule::From2032).is_ok());
        // k1 3 makes k2 10 (see above): no such number under either rule.
        assert!(NationalId::parse_with_rules("01010012330", CheckDigitRule::From2032).is_err());
    }

    #[test]
    fn synthetic_builds_valid_plus_80_numbers() {
        let id = NationalId::synthetic(date!(1900 - 01 - 01), 123).unwrap();
        assert_eq!(id.as_str(), "01810012311");
        assert!(id.is_synthetic());
        assert_eq!(id.kind(), IdKind::BirthNumber);

        let id = NationalId::synthetic(date!(2000 - 02 - 29), 500).unwrap();
        assert_eq!(id.birth_date(), date!(2000 - 02 - 29));
        assert_eq!(&id.as_str()[..9], "298200500");

        // Individual number outside the date's century, or too large.
        assert!(NationalId::synthetic(date!(1985 - 06 - 15), 600).is_none());
        assert!(NationalId::synthetic(date!(2005 - 06 - 15), 100).is_none());
        assert!(NationalId::synthetic(date!(1985 - 06 - 15), 1000).is_none());
        assert!(NationalId::synthetic(date!(2040 - 06 - 15), 600).is_none());

        // Roughly 1 in 11 individual numbers fails per check digit; the rest round-trip.
        let mut made = 0;
        for individual in 0..500 {
            if let Some(id) = NationalId::synthetic(date!(1985 - 06 - 15), individual) {
                assert_eq!(NationalId::parse(id.as_str()).unwrap(), id);
                assert_eq!(id.birth_date(), date!(1985 - 06 - 15));
                assert_eq!(&id.as_str()[2..4], "86");
                made += 1;
            } else {
                let stem = format!("158685{individual:03}");
                assert_eq!(complete(&stem), None, "{stem}");
            }
        }
        assert!((350..500).contains(&made), "{made}");
    }

    #[test]
    fn the_date_is_checked_before_the_check_digits() {
        // Month 34 and wrong check digits: the month is what is reported.
        let e = err("01340012300");
        assert!(e.contains("month 34"), "{e}");
        // Day 32 with wrong check digits: the date.
        assert!(err("32010012300").contains("32.01.1900"));
        // An individual number not issued for the year, with wrong check digits: the year.
        assert!(err("01014050000").contains("not issued for year 40"));
        // A good date with a wrong check digit: the check digit.
        let e = err("01010012300");
        assert!(e.contains("first check digit 0, expected 5"), "{e}");
    }

    #[test]
    fn generated_numbers_pass_the_parser_with_their_date_kind_and_sex() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(18);
        for kind in [
            GeneratedKind::BirthNumber,
            GeneratedKind::DNumber,
            GeneratedKind::Synthetic,
        ] {
            for n in 0..1000 {
                let birth = date!(1854 - 01 - 01)
                    + time::Duration::days(rng.gen_range(0..(2039 - 1854) * 365));
                let sex = [None, Some(Sex::Female), Some(Sex::Male)][n % 3];
                let id = NationalId::generate(kind, birth, sex, &mut rng)
                    .unwrap_or_else(|e| panic!("{kind:?} {birth}: {e}"));
                let parsed = ok(id.as_str());
                assert_eq!(parsed.birth_date(), birth, "{id}");
                assert_eq!(
                    parsed.kind() == IdKind::DNumber,
                    kind == GeneratedKind::DNumber,
                    "{id}"
                );
                assert_eq!(
                    parsed.is_synthetic(),
                    kind == GeneratedKind::Synthetic,
                    "{id}"
                );
                if let Some(sex) = sex {
                    assert_eq!(parsed.sex(), sex, "{id}");
                }
            }
        }
    }

    #[test]
    fn a_birth_year_no_number_can_write_is_refused() {
        let mut rng = rand::thread_rng();
        for year in [1853, 2040] {
            let birth = Date::from_calendar_date(year, Month::June, 1).unwrap();
            let e = NationalId::generate(GeneratedKind::BirthNumber, birth, None, &mut rng)
                .unwrap_err();
            assert!(e.0.contains("1854 to 2039"), "{e}");
        }
    }
}
