//! Tests of the transaction operations over a store: the filters and paging, the 90-day floor at its
//! boundary without the PSU present, the known issue about pending transactions, and each refusal's
//! status, code and path.
#![allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial

use super::*;
use crate::bank::ais::card_transactions;
use crate::bank::consent::Consent;
use crate::bank::mock::accounts::tests::{bban, request as account_request};
use crate::bank::mock::card_accounts::{self, tests::request as card_request};
use crate::bank::mock::customers::tests::{person, person_number};
use crate::bank::mock::model::CardAccount;
use crate::bank::mock::transactions::TransactionInput;
use crate::bank::sca::Context;
use crate::signing::verifier::VerifiedTpp;
use serde_json::json;
use time::macros::datetime;

/// The sandbox clock of every test: the floor without the PSU present is 2025-12-15.
fn clock() -> Clock {
    Clock::frozen(datetime!(2026-03-15 10:00 UTC))
}

/// The bundled AISP's certificate, as the gate would have verified it.
fn aisp() -> VerifiedTpp {
    VerifiedTpp::bundled("aisp").expect("bundled")
}

struct Bank {
    store: Store,
    account: Account,
    card: CardAccount,
    customer_id: String,
}

fn bank() -> Bank {
    let store = Store::temporary().unwrap();
    let number = person_number();
    let customer = person(&store, &number, "Kari Nordmann");
    let account =
        crate::bank::mock::accounts::create(&store, &account_request(&number, &bban(1205_00_1000)))
            .unwrap();
    let card =
        card_accounts::create(&store, &card_request(&number, "5555 55** **** 1234")).unwrap();
    Bank {
        store,
        account,
        card,
        customer_id: customer.id,
    }
}

impl Bank {
    fn access(&self, psu_present: bool) -> Access {
        let at = datetime!(2026-03-01 10:00 UTC);
        Access {
            tpp: aisp(),
            customer_id: self.customer_id.clone(),
            context: Context::Private,
            agreement_id: None,
            consent: Consent {
                tpp_id: aisp().tpp_id(),
                tpp_name: "Sandbox AISP AS".into(),
                customer_id: self.customer_id.clone(),
                agreement_id: None,
                accounts: vec![self.account.id.clone()],
                card_accounts: vec![self.card.id.clone()],
                granted_at: at,
                sca_at: at,
            },
            psu_present,
        }
    }

    /// Booked transactions on these dates (and pending ones, marked so), in this order.
    fn book(&self, dates: &[(&str, bool)]) {
        let items: Vec<TransactionInput> = dates
            .iter()
            .map(|(date, pending)| {
                let status = if *pending { "pending" } else { "booked" };
                json!({"amount": "-10.00", "currency": "NOK", "bookingDate": date, "status": status})
            })
            .map(|item| serde_json::from_value(item).unwrap())
            .collect();
        crate::bank::mock::transactions::create(&self.store, &self.account.id, &items).unwrap();
    }

    /// What a read with the PSU present leaves: the account accessed online with SCA at this TPP.
    fn read_online(&self) {
        crate::bank::consent::record_online_access(
            &self.store,
            &aisp().tpp_id(),
            [&self.account.id, &self.card.id],
            clock().now(),
        )
        .unwrap();
    }

    fn list(&self, psu_present: bool, pairs: &[(&str, &str)]) -> CoreResult<TransactionPage> {
        list(
            &self.store,
            &clock(),
            &self.access(psu_present),
            &self.account.id,
            &query(pairs),
        )
    }
}

fn query(pairs: &[(&str, &str)]) -> TransactionQuery {
    let sent: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(name, value)| (name.to_string(), (*value).into()))
        .collect();
    serde_json::from_value(sent.into()).unwrap()
}

fn dates(group: &Option<Vec<Transaction>>) -> Vec<String> {
    group
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|t| format_date(t.booking_date))
        .collect()
}

fn refusal(result: CoreResult<impl std::fmt::Debug>) -> (u16, Code, String) {
    let refusal = result.unwrap_err();
    (
        refusal.status(),
        refusal.code,
        refusal.path.unwrap_or_default(),
    )
}

#[test]
fn dates_filter_both_ends_inclusive_and_pages_count_what_they_select() {
    let bank = bank();
    bank.book(&[
        ("2026-01-01", false),
        ("2026-01-02", false),
        ("2026-01-03", false),
        ("2026-01-04", false),
    ]);
    let page = bank
        .list(
            true,
            &[
                ("bookingStatus", "booked"),
                ("dateFrom", "2026-01-02"),
                ("dateTo", "2026-01-04"),
                ("limit", "2"),
                ("offset", "1"),
            ],
        )
        .unwrap();
    assert_eq!(page.selected, 3);
    assert_eq!(dates(&page.booked), ["2026-01-03", "2026-01-04"]);
    assert!(page.pending.is_none(), "booked asks for no pending group");
    assert!(page.warnings.is_empty());
}

#[test]
fn without_the_psu_the_floor_keeps_its_own_day_and_drops_the_day_before() {
    let bank = bank();
    bank.book(&[
        ("2025-12-14", false),
        ("2025-12-15", false),
        ("2026-03-01", false),
    ]);
    bank.read_online();
    let page = bank.list(false, &[("bookingStatus", "booked")]).unwrap();
    assert_eq!(dates(&page.booked), ["2025-12-15", "2026-03-01"]);
    assert_eq!(page.listing.from, Some(time::macros::date!(2025 - 12 - 15)));
    assert_eq!(page.warnings.len(), 1);
    assert_eq!(page.warnings[0].code, Code::AccessExceeded);
    let present = bank.list(true, &[("bookingStatus", "booked")]).unwrap();
    assert_eq!(present.selected, 3, "the PSU present: no floor");
    assert!(present.warnings.is_empty());
}

#[test]
fn without_the_psu_an_account_not_read_online_is_401_consent_expired() {
    let bank = bank();
    assert_eq!(
        refusal(bank.list(false, &[("bookingStatus", "booked")])),
        (401, Code::ConsentExpired, "PSU-IP-Address".into())
    );
    assert_eq!(
        refusal(details(
            &bank.store,
            &clock(),
            &bank.access(false),
            &bank.account.id,
            "x"
        )),
        (401, Code::ConsentExpired, "PSU-IP-Address".into())
    );
}

#[test]
fn a_malformed_query_is_refused_before_it_counts_as_a_read() {
    let bank = bank();
    bank.read_online();
    for _ in 0..5 {
        assert_eq!(
            refusal(bank.list(false, &[("limit", "0"), ("bookingStatus", "booked")])),
            (400, Code::FormatError, "limit".into())
        );
    }
    for _ in 0..4 {
        bank.list(false, &[("bookingStatus", "booked")]).unwrap();
    }
    assert_eq!(
        refusal(bank.list(false, &[("bookingStatus", "booked")])),
        (429, Code::AccessExceeded, String::new())
    );
}

#[test]
fn an_account_outside_the_consent_is_404_at_account_id() {
    let bank = bank();
    let outside = bank.list_other("not-granted");
    assert_eq!(outside, (404, Code::ResourceUnknown, "accountId".into()));
    // A card account's id is granted, but not as an account.
    assert_eq!(
        bank.list_other(&bank.card.id.clone()),
        (404, Code::ResourceUnknown, "accountId".into())
    );
}

impl Bank {
    fn list_other(&self, id: &str) -> (u16, Code, String) {
        refusal(list(
            &self.store,
            &clock(),
            &self.access(true),
            id,
            &query(&[("bookingStatus", "booked")]),
        ))
    }
}

#[test]
fn the_known_issue_returns_every_pending_one_until_switched_off() {
    let bank = bank();
    bank.book(&[
        ("2026-01-01", false),
        ("2026-01-05", false),
        ("2026-01-01", true),
        ("2026-04-01", true),
    ]);
    let asked = [("bookingStatus", "both"), ("dateFrom", "2026-01-02")];
    let issue = bank.list(true, &asked).unwrap();
    assert_eq!(dates(&issue.booked), ["2026-01-05"]);
    assert_eq!(dates(&issue.pending), ["2026-01-01", "2026-04-01"]);
    assert_eq!(issue.selected, 1, "the links page the booked ones alone");
    assert_eq!(
        (issue.warnings[0].code, issue.warnings[0].path.as_deref()),
        (Code::BadRequest, Some("bookingStatus"))
    );
    let all = bank
        .list(
            true,
            &[("bookingStatus", "all"), ("dateFrom", "2026-01-02")],
        )
        .unwrap();
    assert_eq!(dates(&all.booked), ["2026-01-05"]);
    assert_eq!(dates(&all.pending), ["2026-04-01"], "all is not affected");
    assert_eq!(all.selected, 2);
    assert!(all.warnings.is_empty());
    let mut switched = settings::get(&bank.store).unwrap();
    switched.reproduce_pending_transactions_issue = false;
    settings::put(&bank.store, switched).unwrap();
    let fixed = bank.list(true, &asked).unwrap();
    assert_eq!(dates(&fixed.booked), ["2026-01-05"]);
    assert_eq!(
        dates(&fixed.pending),
        ["2026-04-01"],
        "filtered like booked ones"
    );
    assert_eq!(fixed.selected, 2);
    assert!(fixed.warnings.is_empty());
}

#[test]
fn one_transaction_is_found_booked_or_pending_and_refused_before_the_floor() {
    let bank = bank();
    bank.book(&[
        ("2025-12-14", false),
        ("2025-12-15", false),
        ("2026-04-01", true),
    ]);
    bank.read_online();
    let page = bank.list(true, &[("bookingStatus", "both")]).unwrap();
    let booked = page.booked.unwrap();
    let pending = page.pending.unwrap();
    let found = |id: &str, present: bool| {
        details(
            &bank.store,
            &clock(),
            &bank.access(present),
            &bank.account.id,
            id,
        )
    };
    assert!(!found(&booked[1].id, false).unwrap().pending);
    assert!(found(&pending[0].id, false).unwrap().pending);
    assert_eq!(
        refusal(found(&booked[0].id, false)),
        (404, Code::ResourceUnknown, "transactionId".into())
    );
    assert!(
        found(&booked[0].id, true).is_ok(),
        "the PSU present: no floor"
    );
    assert_eq!(
        refusal(found("no-such-id", true)),
        (404, Code::ResourceUnknown, "transactionId".into())
    );
}

#[test]
fn card_transactions_filter_and_page_pending_ones_too() {
    let bank = bank();
    let items: Vec<crate::bank::mock::card_transactions::CardTransactionInput> =
        serde_json::from_value(json!([
            {"bookingDate": "2026-01-01", "transactionAmount": {"currency": "NOK", "amount": "-1.00"}},
            {"bookingDate": "2026-01-03", "transactionAmount": {"currency": "NOK", "amount": "-1.00"}},
            {"transactionDate": "2026-01-01", "status": "pending",
             "transactionAmount": {"currency": "NOK", "amount": "-1.00"}},
            {"transactionDate": "2026-01-04", "status": "pending",
             "transactionAmount": {"currency": "NOK", "amount": "-1.00"}}
        ]))
        .unwrap();
    crate::bank::mock::card_transactions::create(&bank.store, &bank.card.id, &items).unwrap();
    let page = card_transactions::list(
        &bank.store,
        &clock(),
        &bank.access(true),
        &bank.card.id,
        &query(&[
            ("bookingStatus", "both"),
            ("dateFrom", "2026-01-02"),
            ("limit", "1"),
        ]),
    )
    .unwrap();
    assert_eq!(page.selected, 2);
    assert_eq!(page.booked.as_ref().map(Vec::len), Some(1));
    assert_eq!(page.pending.as_ref().map(Vec::len), Some(0));
    assert!(page.warnings.is_empty());
    // The account's id is granted, but not as a card account.
    let refused = card_transactions::list(
        &bank.store,
        &clock(),
        &bank.access(true),
        &bank.account.id,
        &query(&[("bookingStatus", "both")]),
    );
    assert_eq!(
        refusal(refused),
        (404, Code::ResourceUnknown, "accountId".into())
    );
}
