//! Valid Norwegian numbers made up for new mock data (the workbench's "generate" buttons, and scripts that
//! create customers and accounts): a national identity number, an organisation number, a BBAN — each with
//! valid check digits, random, and not already used by a customer or an account of this sandbox.

use super::model::{Account, Customer};
use crate::domain::refusal::{CoreResult, Refusal};
use crate::domain::{Bban, GeneratedKind, NationalId, OrgNumber, Sex};
use crate::store::Store;
use time::Date;

/// The bank register number of the sandbox's own accounts (the seed's BBANs start with it).
pub const DEFAULT_BANK_CODE: &str = "1205";

/// How many draws are made before giving up: each draw collides with at most the few thousand numbers a
/// sandbox holds, out of millions, so the limit is reached only when something else is wrong.
const DRAWS: usize = 100;

/// What the national identity number generator is asked for, as the query gives it.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NationalIdRequest {
    /// `fodselsnummer`, `d-number` or `synthetic` (the default: test numbers that no real person has).
    pub kind: Option<String>,
    /// `YYYY-MM-DD`; by default a random adult's, 18 to 80 years before today.
    pub birth_date: Option<String>,
    /// `female` or `male`; by default either.
    pub sex: Option<String>,
}

fn parse_kind(kind: Option<&str>) -> CoreResult<GeneratedKind> {
    match kind {
        None | Some("synthetic") => Ok(GeneratedKind::Synthetic),
        Some("fodselsnummer") => Ok(GeneratedKind::BirthNumber),
        Some("d-number") => Ok(GeneratedKind::DNumber),
        Some(other) => Err(Refusal::format(
            "kind",
            format!("kind '{other}' is not one of fodselsnummer, d-number, synthetic"),
        )),
    }
}

fn parse_sex(sex: Option<&str>) -> CoreResult<Option<Sex>> {
    match sex {
        None => Ok(None),
        Some("female") => Ok(Some(Sex::Female)),
        Some("male") => Ok(Some(Sex::Male)),
        Some(other) => Err(Refusal::format(
            "sex",
            format!("sex '{other}' is not one of female, male"),
        )),
    }
}

/// Draws until `make` gives a number `taken` does not know.
fn unused<T>(
    what: &str,
    mut make: impl FnMut() -> CoreResult<T>,
    taken: impl Fn(&T) -> CoreResult<bool>,
) -> CoreResult<T> {
    for _ in 0..DRAWS {
        let candidate = make()?;
        if !taken(&candidate)? {
            return Ok(candidate);
        }
    }
    Err(Refusal::conflict(
        "(query)",
        format!("no unused {what} was found in {DRAWS} draws"),
    ))
}

fn customer_number_taken(store: &Store, number: &str) -> CoreResult<bool> {
    Ok(store.table::<Customer>()?.get(number)?.is_some())
}

/// A national identity number of the kind asked for, no customer's yet.
pub fn national_id(store: &Store, today: Date, request: &NationalIdRequest) -> CoreResult<String> {
    let kind = parse_kind(request.kind.as_deref())?;
    let sex = parse_sex(request.sex.as_deref())?;
    let birth_date = request
        .birth_date
        .as_deref()
        .map(|text| super::input::date("birthDate", text))
        .transpose()?;
    let mut rng = rand::thread_rng();
    let id = unused(
        "national identity number",
        || {
            let birth = match birth_date {
                Some(date) => date,
                None => random_adult_birth_date(today, &mut rng),
            };
            NationalId::generate(kind, birth, sex, &mut rng)
                .map_err(|e| Refusal::format("birthDate", format!("birthDate: {e}")))
        },
        |id| customer_number_taken(store, id.as_str()),
    )?;
    Ok(id.as_str().to_owned())
}

/// A birth date 18 to 80 years before `today`.
fn random_adult_birth_date(today: Date, rng: &mut impl rand::Rng) -> Date {
    let days = rng.gen_range(18 * 365..80 * 365);
    today - time::Duration::days(days)
}

/// An organisation number no customer has yet.
pub fn org_number(store: &Store) -> CoreResult<String> {
    let mut rng = rand::thread_rng();
    let number = unused(
        "organisation number",
        || Ok(OrgNumber::generate(&mut rng)),
        |n| customer_number_taken(store, n.as_str()),
    )?;
    Ok(number.as_str().to_owned())
}

/// A BBAN at the bank `bank_code` (by default the sandbox's own, 1205) that no account has yet.
pub fn bban(store: &Store, bank_code: Option<&str>) -> CoreResult<String> {
    let bank_code = bank_code.unwrap_or(DEFAULT_BANK_CODE);
    let mut rng = rand::thread_rng();
    let accounts = store.table::<Account>()?;
    let bban = unused(
        "account number",
        || {
            Bban::generate(bank_code, &mut rng)
                .map_err(|e| Refusal::format("bankCode", format!("bankCode: {e}")))
        },
        |b| Ok(accounts.find(|a| a.bban == b.as_str())?.is_some()),
    )?;
    Ok(bban.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::refusal::Code;
    use time::macros::date;

    const TODAY: Date = date!(2026 - 06 - 01);

    #[test]
    fn a_national_id_is_of_the_kind_date_and_sex_asked_for() {
        let store = Store::temporary().unwrap();
        let request = NationalIdRequest {
            kind: Some("d-number".into()),
            birth_date: Some("1985-03-14".into()),
            sex: Some("female".into()),
        };
        let id = NationalId::parse(&national_id(&store, TODAY, &request).unwrap()).unwrap();
        assert_eq!(id.kind(), crate::domain::IdKind::DNumber);
        assert_eq!(id.birth_date(), date!(1985 - 03 - 14));
        assert_eq!(id.sex(), Sex::Female);
        assert!(!id.is_synthetic());
    }

    #[test]
    fn by_default_a_synthetic_adult_is_made() {
        let store = Store::temporary().unwrap();
        for _ in 0..50 {
            let text = national_id(&store, TODAY, &NationalIdRequest::default()).unwrap();
            let id = NationalId::parse(&text).unwrap();
            assert!(id.is_synthetic(), "{text}");
            let age = (TODAY - id.birth_date()).whole_days() / 365;
            assert!((18..=80).contains(&age), "{text}");
        }
    }

    #[test]
    fn wrong_parameters_are_format_errors_naming_them() {
        let store = Store::temporary().unwrap();
        let refused = |request: NationalIdRequest| {
            let e = national_id(&store, TODAY, &request).unwrap_err();
            (e.code, e.path.unwrap_or_default())
        };
        let with = |kind: Option<&str>, birth: Option<&str>, sex: Option<&str>| NationalIdRequest {
            kind: kind.map(Into::into),
            birth_date: birth.map(Into::into),
            sex: sex.map(Into::into),
        };
        assert_eq!(
            refused(with(Some("h-number"), None, None)),
            (Code::FormatError, "kind".into())
        );
        assert_eq!(
            refused(with(None, Some("14.03.1985"), None)),
            (Code::FormatError, "birthDate".into())
        );
        assert_eq!(
            refused(with(None, Some("1800-01-01"), None)),
            (Code::FormatError, "birthDate".into())
        );
        assert_eq!(
            refused(with(None, None, Some("other"))),
            (Code::FormatError, "sex".into())
        );
        let e = bban(&store, Some("12x4")).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_deref()),
            (Code::FormatError, Some("bankCode"))
        );
    }

    #[test]
    fn generated_numbers_are_not_those_of_existing_mock_data() {
        let store = Store::temporary().unwrap();
        crate::bank::mock::seed::reset(&store, TODAY).unwrap();
        let customers: Vec<String> = store
            .table::<Customer>()
            .unwrap()
            .list()
            .unwrap()
            .into_iter()
            .map(|c| c.customer_number)
            .collect();
        let accounts: Vec<String> = store
            .table::<Account>()
            .unwrap()
            .list()
            .unwrap()
            .into_iter()
            .map(|a| a.bban)
            .collect();
        for _ in 0..200 {
            let bban = bban(&store, None).unwrap();
            assert!(bban.starts_with(DEFAULT_BANK_CODE));
            assert!(!accounts.contains(&bban), "{bban}");
            let org = org_number(&store).unwrap();
            assert!(OrgNumber::parse(&org).is_ok() && !customers.contains(&org));
            let id = national_id(&store, TODAY, &NationalIdRequest::default()).unwrap();
            assert!(!customers.contains(&id), "{id}");
        }
    }

    #[test]
    fn a_number_already_taken_is_drawn_again_and_endless_collisions_are_a_conflict() {
        let mut draws = ["12050000001", "12050000002", "12050000003"].into_iter();
        let taken = |n: &&str| Ok(*n != "12050000003");
        assert_eq!(
            unused("x", || Ok(draws.next().unwrap()), taken).unwrap(),
            "12050000003"
        );
        let e = unused("x", || Ok(1), |_| Ok(true)).unwrap_err();
        assert_eq!(e.code, Code::Conflict);
    }
}
