//! Tests of account transactions: validation paths, whole-batch refusal, derivation and paging.
#![allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial

use super::*;
use crate::bank::mock::accounts::tests::{bban, request as account_request};
use crate::bank::mock::customers::tests::{person, person_number};
use crate::bank::mock::listing::ListingQuery;
use crate::bank::mock::model::Account;
use crate::domain::refusal::Code;
use serde_json::json;

fn setup() -> (Store, Account) {
    let store = Store::temporary().unwrap();
    let number = person_number();
    person(&store, &number, "Kari Nordmann");
    let account =
        crate::bank::mock::accounts::create(&store, &account_request(&number, &bban(1205_00_1000)))
            .unwrap();
    (store, account)
}

fn items(value: serde_json::Value) -> Vec<TransactionInput> {
    serde_json::from_value(value).unwrap()
}

fn item(amount: serde_json::Value, booking_date: &str) -> serde_json::Value {
    json!({"amount": amount, "currency": "NOK", "bookingDate": booking_date})
}

fn refused(store: &Store, account: &str, batch: serde_json::Value) -> (u16, Code, String) {
    let e = create(store, account, &items(batch)).unwrap_err();
    (e.status(), e.code, e.path.unwrap_or_default())
}

#[test]
fn a_minimal_debit_gets_every_field_derived() {
    let (store, account) = setup();
    let created = create(
        &store,
        &account.id,
        &items(json!([item(json!("-125.5"), "2024-03-01")])),
    )
    .unwrap();
    let t = &created[0];
    assert_eq!(t.amount, -12550);
    assert_eq!(t.value_date, "2024-03-01");
    assert_eq!(t.debtor_name, "Kari Nordmann");
    assert_eq!(t.debtor_account.bban, account.bban);
    assert_eq!(t.debtor_account.iban, account.iban);
    assert_eq!(t.creditor_name, COUNTERPARTY_NAME);
    assert_eq!(t.creditor_account, clearing_account());
    assert_eq!(t.bank_transaction_code, "PMNT-ICDT-DMCT");
    assert_eq!(
        t.remittance_information_unstructured,
        format!("Betaling til {COUNTERPARTY_NAME}")
    );
    assert_eq!(
        (t.ultimate_debtor.as_str(), t.purpose_code.as_str()),
        ("Kari Nordmann", "OTHR")
    );
    assert_eq!(
        t.links.self_link.href,
        format!("/v1/sandbox/accounts/{}/transactions/{}", account.id, t.id)
    );
    let body = serde_json::to_value(t).unwrap();
    for field in [
        "id",
        "amount",
        "currency",
        "valueDate",
        "remittanceInformationUnstructured",
        "creditorName",
        "creditorAccount",
        "debtorName",
        "debtorAccount",
        "bankTransactionCode",
        "ultimateDebtor",
        "ultimateCreditor",
        "purposeCode",
        "bookingDate",
        "_links",
    ] {
        assert!(body.get(field).is_some(), "{field} missing");
    }
    assert_eq!(get(&store, &account.id, &t.id).unwrap(), *t);
}

#[test]
fn a_credit_names_the_owner_as_creditor_and_integer_amounts_are_minor_units() {
    let (store, account) = setup();
    let mut i = item(json!(1000000), "2024-03-01");
    i["debtorName"] = json!("Arbeidsgiver AS");
    i["debtorAccount"] = json!({"bban": bban(1503_00_0000)});
    let t = &create(&store, &account.id, &items(json!([i]))).unwrap()[0];
    assert_eq!(t.amount, 1000000);
    assert_eq!(t.creditor_name, "Kari Nordmann");
    assert_eq!(t.creditor_account.bban, account.bban);
    assert_eq!(t.debtor_account.bban, bban(1503_00_0000));
    assert!(t.debtor_account.iban.starts_with("NO"));
    assert_eq!(
        t.remittance_information_unstructured,
        "Innbetaling fra Arbeidsgiver AS"
    );
    assert_eq!(t.bank_transaction_code, "PMNT-RCDT-DMCT");
}

#[test]
fn one_bad_item_refuses_the_batch_with_its_path_and_stores_nothing() {
    let (store, account) = setup();
    let batch = json!([
        item(json!("1.00"), "2024-03-01"),
        item(json!("2.00"), "2024-03-02"),
        item(json!("3.00"), "2024-03-03"),
        item(json!("4.001"), "2024-03-04"),
    ]);
    assert_eq!(
        refused(&store, &account.id, batch),
        (400, Code::FormatError, "[3].amount".into())
    );
    assert!(of_account(&store, &account.id).unwrap().is_empty());
}

#[test]
fn required_fields_are_named_when_missing() {
    let (store, account) = setup();
    let e = refused(
        &store,
        &account.id,
        json!([{"currency": "NOK", "bookingDate": "2024-01-01"}]),
    );
    assert_eq!(e, (400, Code::FormatError, "[0].amount".into()));
    let e = refused(
        &store,
        &account.id,
        json!([{"amount": "1", "bookingDate": "2024-01-01"}]),
    );
    assert_eq!(e.2, "[0].currency");
    let e = refused(
        &store,
        &account.id,
        json!([{"amount": "1", "currency": "NOK"}]),
    );
    assert_eq!(e.2, "[0].bookingDate");
}

#[test]
fn a_bad_booking_date_is_a_format_error_at_its_path() {
    let (store, account) = setup();
    let e = refused(&store, &account.id, json!([item(json!("1"), "2024-02-30")]));
    assert_eq!(e, (400, Code::FormatError, "[0].bookingDate".into()));
}

#[test]
fn a_currency_other_than_the_accounts_is_refused() {
    let (store, account) = setup();
    let mut i = item(json!("1"), "2024-01-01");
    i["currency"] = json!("EUR");
    assert_eq!(
        refused(&store, &account.id, json!([i])),
        (400, Code::FormatError, "[0].currency".into())
    );
}

#[test]
fn zero_fractional_integers_and_overflowing_amounts_are_refused() {
    let (store, account) = setup();
    for amount in [
        json!("0"),
        json!(1.5),
        json!(3000000000i64),
        json!("30000000.00"),
        json!(true),
    ] {
        let e = refused(
            &store,
            &account.id,
            json!([item(amount.clone(), "2024-01-01")]),
        );
        assert_eq!(e, (400, Code::FormatError, "[0].amount".into()), "{amount}");
    }
}

#[test]
fn bank_transaction_code_has_4_to_14_characters() {
    let (store, account) = setup();
    for (code, ok) in [
        ("PMNT", true),
        ("PMNT-RCDT-DMCT", true),
        ("PMN", false),
        ("PMNT-RCDT-DMCTX", false),
    ] {
        let mut i = item(json!("1"), "2024-01-01");
        i["bankTransactionCode"] = json!(code);
        let result = create(&store, &account.id, &items(json!([i])));
        assert_eq!(result.is_ok(), ok, "{code}");
        if let Err(e) = result {
            assert_eq!(e.path.as_deref(), Some("[0].bankTransactionCode"));
        }
    }
}

#[test]
fn a_bad_counterparty_iban_is_refused_at_its_path() {
    let (store, account) = setup();
    let mut i = item(json!("-1"), "2024-01-01");
    i["creditorAccount"] = json!({"iban": "NO9386011117948"});
    assert_eq!(
        refused(&store, &account.id, json!([i])),
        (400, Code::FormatError, "[0].creditorAccount.iban".into())
    );
}

#[test]
fn a_foreign_counterparty_iban_is_accepted() {
    let (store, account) = setup();
    let mut i = item(json!("-1"), "2024-01-01");
    i["creditorAccount"] = json!({"iban": "DE89370400440532013000"});
    let t = &create(&store, &account.id, &items(json!([i]))).unwrap()[0];
    assert_eq!(t.creditor_account.bban, "370400440532013000");
}

#[test]
fn an_unknown_account_is_resource_unknown() {
    let (store, _) = setup();
    let e = refused(
        &store,
        "no-such-account",
        json!([item(json!("1"), "2024-01-01")]),
    );
    assert_eq!(e, (404, Code::ResourceUnknown, "mockAccountId".into()));
    let e = list(&store, "no-such-account", &Listing::default()).unwrap_err();
    assert_eq!((e.status(), e.code), (404, Code::ResourceUnknown));
}

#[test]
fn listing_orders_by_booking_date_then_recording_and_ids_are_stable() {
    let (store, account) = setup();
    let first = create(
        &store,
        &account.id,
        &items(json!([
            item(json!("3"), "2024-03-03"),
            item(json!("1"), "2024-03-01")
        ])),
    )
    .unwrap();
    let second = create(
        &store,
        &account.id,
        &items(json!([item(json!("2"), "2024-03-01")])),
    )
    .unwrap();
    let listed = list(&store, &account.id, &Listing::default()).unwrap();
    let amounts: Vec<i64> = listed.iter().map(|t| t.amount).collect();
    assert_eq!(amounts, [100, 200, 300]);
    assert_eq!(listed[0].id, first[1].id);
    assert_eq!(listed[1].id, second[0].id);
    assert_eq!(
        first[0].id,
        derive_id("transaction", &format!("{}/1", account.id))
    );
}

#[test]
fn listing_filters_by_date_and_pages() {
    let (store, account) = setup();
    let batch: Vec<_> = (1..=9)
        .map(|d| item(json!(format!("{d}")), &format!("2024-03-0{d}")))
        .collect();
    create(&store, &account.id, &items(json!(batch))).unwrap();
    let query = ListingQuery {
        from_date: Some("2024-03-02".into()),
        to_date: Some("2024-03-08".into()),
        offset: Some("2".into()),
        limit: Some("3".into()),
    };
    let listed = list(&store, &account.id, &Listing::parse(&query).unwrap()).unwrap();
    let dates: Vec<&str> = listed.iter().map(|t| t.booking_date.as_str()).collect();
    assert_eq!(dates, ["2024-03-04", "2024-03-05", "2024-03-06"]);
    let beyond = Listing {
        offset: 50,
        ..Listing::default()
    };
    assert!(list(&store, &account.id, &beyond).unwrap().is_empty());
}
