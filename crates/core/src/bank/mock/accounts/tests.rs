//! Tests of mock accounts: creation, defaults, numbers and the refusals, each with status and code.

use super::*;
use crate::bank::mock::customers::tests::{person, person_number};
use crate::domain::refusal::Code;
use crate::domain::{Bban, Iban};

/// A valid BBAN made from a 10-digit stem.
pub fn bban(stem: u64) -> String {
    (stem..)
        .find_map(|s| Bban::with_check_digit(&format!("{s:010}")))
        .unwrap()
        .as_str()
        .to_owned()
}

pub fn request(customer: &str, bban: &str) -> CreateAccount {
    CreateAccount {
        customer_number: Some(customer.into()),
        account_name: Some("Brukskonto".into()),
        bban: Some(bban.into()),
        balances: Some(vec![BalanceInput {
            balance_type: Some("interimAvailable".into()),
            balance_amount: Some(AmountInput {
                amount: Some("-12.5".into()),
                currency: Some("NOK".into()),
            }),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

fn setup() -> (Store, String) {
    let store = Store::temporary().unwrap();
    let number = person_number();
    person(&store, &number, "Kari Nordmann");
    (store, number)
}

fn refused(store: &Store, request: &CreateAccount) -> (u16, Code, String) {
    let e = create(store, request).unwrap_err();
    (e.status(), e.code, e.path.unwrap_or_default())
}

#[test]
fn an_account_gets_its_iban_defaults_and_stable_id() {
    let (store, number) = setup();
    let b = bban(1205_00_1000);
    let view = create_view(&store, &request(&number, &b)).unwrap().value;
    assert_eq!(view.id, derive_id("account", &b));
    assert_eq!(view.resource_id, view.id);
    assert_eq!(
        view.iban,
        Iban::from_norwegian_bban(&Bban::parse(&b).unwrap()).as_str()
    );
    assert_eq!(
        (view.currency, view.cash_account_type.as_str()),
        (Currency::NOK, "CACC")
    );
    assert_eq!(view.owner_name, "Kari Nordmann");
    assert_eq!(view.usage, "PRIV");
    let json = serde_json::to_value(&view.balances).unwrap();
    assert_eq!(json[0]["balanceAmount"]["amount"], "-12.50");
    assert_eq!(
        holdings::get_view::<Account>(&store, "mockAccountId", &view.id).unwrap(),
        view
    );
}

#[test]
fn a_matching_iban_is_accepted_and_a_lone_iban_gives_the_bban() {
    let (store, number) = setup();
    let b = bban(1205_00_2000);
    let iban = Iban::from_norwegian_bban(&Bban::parse(&b).unwrap())
        .as_str()
        .to_owned();
    let mut r = request(&number, &b);
    r.iban = Some(iban.clone());
    create(&store, &r).unwrap();
    let b2 = bban(1205_00_3000);
    let iban2 = Iban::from_norwegian_bban(&Bban::parse(&b2).unwrap())
        .as_str()
        .to_owned();
    let mut r = request(&number, "");
    r.bban = None;
    r.iban = Some(iban2);
    assert_eq!(create(&store, &r).unwrap().bban, b2);
}

#[test]
fn bad_iban_check_digits_are_a_format_error_at_iban() {
    let (store, number) = setup();
    let b = bban(1205_00_1000);
    let mut iban = Iban::from_norwegian_bban(&Bban::parse(&b).unwrap())
        .as_str()
        .to_owned();
    let wrong = if &iban[2..4] == "10" { "11" } else { "10" };
    iban.replace_range(2..4, wrong);
    let mut r = request(&number, &b);
    r.iban = Some(iban);
    assert_eq!(refused(&store, &r), (400, Code::FormatError, "iban".into()));
}

#[test]
fn an_iban_of_another_account_is_refused_at_iban() {
    let (store, number) = setup();
    let other = bban(1205_00_9000);
    let mut r = request(&number, &bban(1205_00_1000));
    r.iban = Some(
        Iban::from_norwegian_bban(&Bban::parse(&other).unwrap())
            .as_str()
            .to_owned(),
    );
    assert_eq!(refused(&store, &r), (400, Code::FormatError, "iban".into()));
}

#[test]
fn a_bad_bban_check_digit_is_accepted_with_a_warning_at_bban() {
    let (store, number) = setup();
    let mut b = bban(1205_00_1000);
    let last = b.pop().unwrap();
    b.push(if last == '9' {
        '0'
    } else {
        (last as u8 + 1) as char
    });
    let created = create_warned(&store, &request(&number, &b)).unwrap();
    assert_eq!(created.value.bban, b);
    assert_eq!(created.warnings.len(), 1);
    assert_eq!(created.warnings[0].path.as_deref(), Some("bban"));
}

#[test]
fn a_bban_of_ten_digits_is_a_format_error_at_bban() {
    let (store, number) = setup();
    assert_eq!(
        refused(&store, &request(&number, "1205001000")),
        (400, Code::FormatError, "bban".into())
    );
}

#[test]
fn the_platform_kits_account_shape_is_accepted() {
    let (store, number) = setup();
    let r: CreateAccount = serde_json::from_str(&format!(
        r#"{{"customerNumber":"{number}","accountName":"Brukskonto","bban":"90412263056","iban":"NO2390412263056",
            "currency":"NOK","product":"Brukskonto","cashAccountType":"TAXE","creditLine":0,
            "balances":[{{"balanceType":"EXPECTED","balanceAmount":{{"amount":10000,"currency":"NOK"}}}}]}}"#
    ))
    .unwrap();
    let created = create_warned(&store, &r).unwrap();
    assert!(created.warnings.is_empty(), "{:?}", created.warnings);
    let account = created.value;
    assert_eq!(account.credit_line.unwrap().amount.to_string(), "0.00");
    assert_eq!(
        account.balances[0].balance_type,
        crate::bank::mock::model::BalanceType::Expected
    );
    assert_eq!(
        account.balances[0].balance_amount.amount.to_string(),
        "10000.00"
    );
}

#[test]
fn a_balance_type_given_twice_is_kept_once_with_a_warning() {
    let (store, number) = setup();
    let mut r = request(&number, &bban(1205_00_1000));
    let again = r.balances.as_ref().unwrap()[0].clone();
    r.balances.as_mut().unwrap().push(again);
    let created = create_warned(&store, &r).unwrap();
    assert_eq!(created.value.balances.len(), 1);
    assert_eq!(
        created.warnings[0].path.as_deref(),
        Some("balances[1].balanceType")
    );
}

#[test]
fn a_missing_bban_and_iban_is_a_format_error_at_bban() {
    let (store, number) = setup();
    let mut r = request(&number, "");
    r.bban = None;
    assert_eq!(refused(&store, &r), (400, Code::FormatError, "bban".into()));
}

#[test]
fn a_currency_off_the_list_is_a_format_error_at_currency() {
    let (store, number) = setup();
    let mut r = request(&number, &bban(1205_00_1000));
    r.currency = Some("XYZ".into());
    assert_eq!(
        refused(&store, &r),
        (400, Code::FormatError, "currency".into())
    );
}

#[test]
fn a_balance_in_another_currency_is_refused_at_its_path() {
    let (store, number) = setup();
    let mut r = request(&number, &bban(1205_00_1000));
    r.balances.as_mut().unwrap()[0]
        .balance_amount
        .as_mut()
        .unwrap()
        .currency = Some("EUR".into());
    assert_eq!(
        refused(&store, &r),
        (
            400,
            Code::FormatError,
            "balances[0].balanceAmount.currency".into()
        )
    );
}

#[test]
fn an_unknown_balance_type_is_refused_at_its_path() {
    let (store, number) = setup();
    let mut r = request(&number, &bban(1205_00_1000));
    r.balances.as_mut().unwrap()[0].balance_type = Some("available".into());
    assert_eq!(
        refused(&store, &r),
        (400, Code::FormatError, "balances[0].balanceType".into())
    );
}

#[test]
fn too_many_fraction_digits_are_refused_at_the_amount() {
    let (store, number) = setup();
    let mut r = request(&number, &bban(1205_00_1000));
    r.balances.as_mut().unwrap()[0]
        .balance_amount
        .as_mut()
        .unwrap()
        .amount = Some("1.005".into());
    assert_eq!(
        refused(&store, &r),
        (
            400,
            Code::FormatError,
            "balances[0].balanceAmount.amount".into()
        )
    );
}

#[test]
fn a_71_character_name_is_refused_and_70_accepted() {
    let (store, number) = setup();
    let mut r = request(&number, &bban(1205_00_1000));
    r.account_name = Some("x".repeat(71));
    assert_eq!(
        refused(&store, &r),
        (400, Code::FormatError, "accountName".into())
    );
    r.account_name = Some("x".repeat(70));
    assert!(create(&store, &r).is_ok());
}

#[test]
fn an_unknown_customer_is_resource_unknown_at_customer_number() {
    let store = Store::temporary().unwrap();
    let r = request(&person_number(), &bban(1205_00_1000));
    assert_eq!(
        refused(&store, &r),
        (404, Code::ResourceUnknown, "customerNumber".into())
    );
}

#[test]
fn a_duplicate_bban_is_a_conflict() {
    let (store, number) = setup();
    let b = bban(1205_00_1000);
    create(&store, &request(&number, &b)).unwrap();
    assert_eq!(
        refused(&store, &request(&number, &b)),
        (409, Code::Conflict, "bban".into())
    );
}

#[test]
fn an_unknown_account_id_is_resource_unknown() {
    let store = Store::temporary().unwrap();
    let e = holdings::get_view::<Account>(&store, "mockAccountId", "nope").unwrap_err();
    assert_eq!((e.status(), e.code), (404, Code::ResourceUnknown));
}
