//! Tests of card transactions: validation, conflicts, the listing's shape, status filter and paging.

use super::*;
use crate::bank::mock::card_accounts::{self, tests::request as card_request};
use crate::bank::mock::customers::tests::{person, person_number};
use crate::domain::refusal::Code;
use serde_json::json;

fn setup() -> (Store, CardAccount) {
    let store = Store::temporary().unwrap();
    let number = person_number();
    person(&store, &number, "Kari Nordmann");
    let card =
        card_accounts::create(&store, &card_request(&number, "5555 55** **** 1234")).unwrap();
    (store, card)
}

fn items(value: serde_json::Value) -> Vec<CardTransactionInput> {
    serde_json::from_value(value).unwrap()
}

fn booked(date: &str, amount: serde_json::Value) -> serde_json::Value {
    json!({"bookingDate": date, "transactionAmount": {"currency": "NOK", "amount": amount}})
}

fn refused(store: &Store, card: &str, batch: serde_json::Value) -> (u16, Code, String) {
    let e = create(store, card, &items(batch)).unwrap_err();
    (e.status(), e.code, e.path.unwrap_or_default())
}

#[test]
fn a_booked_item_gets_defaults_and_lists_in_specs_shape() {
    let (store, card) = setup();
    let mut foreign = booked("2024-05-02", json!("-110.00"));
    foreign["transactionDate"] = json!("2024-05-01");
    foreign["originalAmount"] = json!({"currency": "EUR", "amount": "-9.50"});
    foreign["merchantCategoryCode"] = json!("5812");
    foreign["cardTransactionId"] = json!("abc-1");
    let created = create(
        &store,
        &card.id,
        &items(json!([booked("2024-05-01", json!(-4990)), foreign])),
    )
    .unwrap();
    assert_eq!(
        created[0].merchant_category_code,
        DEFAULT_MERCHANT_CATEGORY_CODE
    );
    assert_eq!(created[0].original_amount, created[0].transaction_amount);
    assert_eq!(
        created[0].card_transaction_id,
        derive_id("card-transaction", &format!("{}/1", card.id))
    );
    let body = serde_json::to_value(
        list(&store, &card.id, BookingStatus::Both, &Listing::default()).unwrap(),
    )
    .unwrap();
    assert_eq!(body["cardAccount"]["maskedPan"], "5555 55** **** 1234");
    let second = &body["cardTransactions"]["booked"][1];
    assert_eq!(second["cardTransactionId"], "abc-1");
    assert_eq!(
        second["transactionAmount"],
        json!({"currency": "NOK", "amount": -11000})
    );
    assert_eq!(
        second["originalAmount"],
        json!({"currency": "EUR", "amount": -950})
    );
    assert_eq!(second["transactionDate"], "2024-05-01");
    assert_eq!(body["cardTransactions"]["pending"], json!([]));
}

#[test]
fn pending_transactions_are_listed_as_their_ids() {
    let (store, card) = setup();
    let batch = json!([
        booked("2024-05-01", json!("-1")),
        {"status": "pending", "transactionDate": "2024-05-03", "cardTransactionId": "p-1",
         "transactionAmount": {"currency": "NOK", "amount": "-2"}},
    ]);
    create(&store, &card.id, &items(batch)).unwrap();
    let pending = list(
        &store,
        &card.id,
        BookingStatus::Pending,
        &Listing::default(),
    )
    .unwrap();
    assert_eq!(pending.card_transactions.pending, ["p-1"]);
    assert!(pending.card_transactions.booked.is_empty());
    let booked_only = list(&store, &card.id, BookingStatus::Booked, &Listing::default()).unwrap();
    assert_eq!(booked_only.card_transactions.booked.len(), 1);
    assert!(booked_only.card_transactions.pending.is_empty());
}

#[test]
fn booking_status_is_required_and_checked() {
    let e = BookingStatus::parse(None).unwrap_err();
    assert_eq!(
        (e.status(), e.code, e.path.as_deref()),
        (400, Code::QueryParameterRequired, Some("bookingStatus"))
    );
    let e = BookingStatus::parse(Some("all")).unwrap_err();
    assert_eq!(
        (e.code, e.path.as_deref()),
        (Code::FormatError, Some("bookingStatus"))
    );
}

#[test]
fn a_booked_item_without_booking_date_is_refused() {
    let (store, card) = setup();
    let batch = json!([{"transactionDate": "2024-05-01", "transactionAmount": {"currency": "NOK", "amount": "1"}}]);
    assert_eq!(
        refused(&store, &card.id, batch),
        (400, Code::FormatError, "[0].bookingDate".into())
    );
}

#[test]
fn one_bad_item_stores_nothing() {
    let (store, card) = setup();
    let mut bad = booked("2024-05-02", json!("1"));
    bad["bookingDate"] = json!("2024-13-02");
    let batch = json!([booked("2024-05-01", json!("1")), bad]);
    assert_eq!(
        refused(&store, &card.id, batch),
        (400, Code::FormatError, "[1].bookingDate".into())
    );
    assert!(of_card_account(&store, &card.id).unwrap().is_empty());
}

#[test]
fn a_transaction_amount_in_another_currency_is_refused() {
    let (store, card) = setup();
    let batch = json!([{"bookingDate": "2024-05-01", "transactionAmount": {"currency": "EUR", "amount": "1"}}]);
    assert_eq!(
        refused(&store, &card.id, batch),
        (
            400,
            Code::FormatError,
            "[0].transactionAmount.currency".into()
        )
    );
}

#[test]
fn a_reused_card_transaction_id_is_a_conflict_and_nothing_is_stored() {
    let (store, card) = setup();
    let mut a = booked("2024-05-01", json!("1"));
    a["cardTransactionId"] = json!("x");
    create(&store, &card.id, &items(json!([a.clone()]))).unwrap();
    let batch = json!([booked("2024-05-02", json!("1")), a]);
    assert_eq!(
        refused(&store, &card.id, batch),
        (409, Code::Conflict, "[1].cardTransactionId".into())
    );
    assert_eq!(of_card_account(&store, &card.id).unwrap().len(), 1);
}

#[test]
fn an_unknown_card_account_is_resource_unknown() {
    let (store, _) = setup();
    let e = refused(&store, "nope", json!([booked("2024-05-01", json!("1"))]));
    assert_eq!(e, (404, Code::ResourceUnknown, "mockCardAccountId".into()));
    let e = list(&store, "nope", BookingStatus::Both, &Listing::default()).unwrap_err();
    assert_eq!(e.code, Code::ResourceUnknown);
}

#[test]
fn listing_filters_by_date_and_pages() {
    let (store, card) = setup();
    let batch: Vec<_> = (1..=5)
        .map(|d| booked(&format!("2024-05-0{d}"), json!(d)))
        .collect();
    create(&store, &card.id, &items(json!(batch))).unwrap();
    let listing = Listing {
        from: Some(time::macros::date!(2024 - 05 - 02)),
        to: None,
        offset: 1,
        limit: 2,
    };
    let page = list(&store, &card.id, BookingStatus::Booked, &listing).unwrap();
    let dates: Vec<_> = page
        .card_transactions
        .booked
        .iter()
        .map(|t| t.booking_date.as_str())
        .collect();
    assert_eq!(dates, ["2024-05-03", "2024-05-04"]);
}

#[test]
fn the_platform_kits_card_transactions_are_accepted_with_a_warning_per_free_form_code() {
    let (store, card) = setup();
    let kit = json!([
        {"cardTransactionId": "test-1", "terminalId": "tid", "bookingDate": "2019-05-08",
         "transactionDate": "2019-05-08", "transactionAmount": {"currency": "NOK", "amount": 100},
         "originalAmount": {"currency": "NOK", "amount": 100}, "merchantCategoryCode": "BOB",
         "markupFee": {"currency": "NOK", "amount": 10}, "markupFeePercentage": "20", "cardAcceptorId": "",
         "cardAcceptorAddress": {}, "maskedPan": "", "transactionDetails": "", "invoiced": "",
         "proprietaryBankTransactionCode": ""},
        {"cardTransactionId": "test-2", "bookingDate": "2019-05-08", "transactionDate": "2019-05-08",
         "transactionAmount": {"currency": "NOK", "amount": 1000}, "merchantCategoryCode": "5411"}
    ]);
    let created = create_warned(&store, &card.id, &items(kit)).unwrap();
    assert_eq!(created.value[0].merchant_category_code, "BOB");
    assert_eq!(created.warnings.len(), 1, "{:?}", created.warnings);
    assert_eq!(
        created.warnings[0].path.as_deref(),
        Some("[0].merchantCategoryCode")
    );
}
