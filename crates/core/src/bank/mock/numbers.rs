//! The numbers mock data names — account numbers (BBAN, IBAN) and corporate customer numbers — read as the
//! bank platform's sandbox reads them: its own developer kit creates accounts whose BBAN check digit is
//! wrong (33 of its 41, with valid IBANs) and corporations with 8-digit numbers, and the platform takes
//! them. So does this sandbox, with a WARNING that says what a real number looks like. Only mock data is
//! this lenient: payment requests keep refusing bad account numbers (`payments::validation`).

use super::input::{bad, warn, Warnings};
use crate::domain::refusal::Refusal;
use crate::domain::{Bban, DomainError, Iban, OrgNumber};

/// A BBAN of mock data: the form must hold (11 digits); a wrong check digit is a warning.
pub fn bban(path: &str, value: &str, warnings: &mut Warnings) -> Result<Bban, Refusal> {
    let (bban, problem) = Bban::parse_keeping_check_digit(value).map_err(bad(path))?;
    note_check_digit(path, problem, warnings);
    Ok(bban)
}

/// An IBAN of mock data: its own mod 97 check digits must hold; a Norwegian IBAN whose account number
/// has a wrong mod 11 check digit is a warning.
pub fn iban(path: &str, value: &str, warnings: &mut Warnings) -> Result<Iban, Refusal> {
    let (iban, problem) = Iban::parse_keeping_check_digit(value).map_err(bad(path))?;
    note_check_digit(path, problem, warnings);
    Ok(iban)
}

fn note_check_digit(path: &str, problem: Option<DomainError>, warnings: &mut Warnings) {
    if let Some(problem) = problem {
        warn(
            warnings,
            path,
            format!(
                "{path}: {problem}. Accepted as mock data, as the bank platform's sandbox does; a real \
                 Norwegian account number passes the mod 11 check, and payment requests naming this one \
                 are refused."
            ),
        );
    }
}

/// The account numbers of a request: the BBAN, and the IBAN derived from or checked against it.
pub fn account_numbers(
    bban_path: &str,
    bban_value: &Option<String>,
    iban_path: &str,
    iban_value: &Option<String>,
    warnings: &mut Warnings,
) -> Result<(Bban, Iban), Refusal> {
    // One warning per account: the BBAN's, or the IBAN's when only the IBAN is given.
    let mut notes = Warnings::new();
    let bban_given = bban_value
        .as_deref()
        .filter(|b| !b.trim().is_empty())
        .map(|b| bban(bban_path, b, &mut notes))
        .transpose()?;
    let iban_given = iban_value
        .as_deref()
        .filter(|i| !i.trim().is_empty())
        .map(|i| iban(iban_path, i, &mut notes))
        .transpose()?;
    if let Some(iban) = &iban_given {
        if iban.country() != "NO" {
            return Err(Refusal::format(
                iban_path,
                format!(
                    "{iban_path} '{iban}' is not Norwegian; accounts of this bank have NO IBANs"
                ),
            ));
        }
    }
    warnings.extend(notes.into_iter().take(1));
    match (bban_given, iban_given) {
        (Some(bban), Some(iban)) if iban.bban_part() != bban.as_str() => Err(Refusal::format(
            iban_path,
            format!(
                "{iban_path} '{iban}' names account {}, but {bban_path} is {bban}; they must name the same account",
                iban.bban_part()
            ),
        )),
        (Some(bban), Some(iban)) => Ok((bban, iban)),
        (Some(bban), None) => {
            let iban = Iban::from_norwegian_bban(&bban);
            Ok((bban, iban))
        }
        (None, Some(iban)) => {
            let bban = bban(bban_path, iban.bban_part(), &mut Warnings::new())?;
            Ok((bban, iban))
        }
        (None, None) => Err(Refusal::format(
            bban_path,
            format!("{bban_path} (or {iban_path}) is required"),
        )),
    }
}

/// A corporation's number: a 9-digit organisation number, or 8 digits with a warning (the platform
/// kit's corporations are 55555555 to 88888888). Returned without spaces.
pub fn corporate_number(
    path: &str,
    text: &str,
    warnings: &mut Warnings,
) -> Result<String, Refusal> {
    let digits: String = text.chars().filter(|c| *c != ' ').collect();
    if digits.len() == 8 && digits.bytes().all(|b| b.is_ascii_digit()) {
        warn(
            warnings,
            path,
            format!(
                "{path} '{text}' has 8 digits; a Norwegian organisation number has 9 (the last a mod 11 \
                 check digit). Accepted as mock data, as the bank platform's sandbox does."
            ),
        );
        return Ok(digits);
    }
    OrgNumber::parse(text)
        .map(|n| n.as_str().to_owned())
        .map_err(|e| {
            Refusal::format(
                path,
                format!("{path}: a corporate customer is identified by a 9-digit organisation number: {e}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_bban_check_digit_is_one_warning_naming_the_path() {
        let mut warnings = Warnings::new();
        let (bban, iban) = account_numbers(
            "bban",
            &Some("43427943323".into()),
            "iban",
            &Some("NO6243427943323".into()),
            &mut warnings,
        )
        .unwrap();
        assert_eq!(
            (bban.as_str(), iban.as_str()),
            ("43427943323", "NO6243427943323")
        );
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].path.as_deref(), Some("bban"));
        assert!(warnings[0].text.as_deref().unwrap().contains("check digit"));
    }

    #[test]
    fn a_bban_of_the_wrong_length_is_still_refused() {
        let e = bban("bban", "1234567890", &mut Warnings::new()).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_deref()),
            (crate::domain::refusal::Code::FormatError, Some("bban"))
        );
    }

    #[test]
    fn eight_digit_corporate_numbers_are_warned_about_and_bad_nine_digit_ones_refused() {
        let mut warnings = Warnings::new();
        assert_eq!(
            corporate_number("owner", "55555555", &mut warnings).unwrap(),
            "55555555"
        );
        assert_eq!(warnings.len(), 1);
        assert!(corporate_number("owner", "974760674", &mut warnings).is_err());
        assert_eq!(
            corporate_number("owner", "974 760 673", &mut warnings).unwrap(),
            "974760673"
        );
    }
}
