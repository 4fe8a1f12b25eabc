//! Tests of editing mock data: what changes, what is kept, and each refusal with its status and code.

use super::*;
use crate::bank::mock::accounts::tests::{bban, request as account_request};
use crate::bank::mock::card_accounts::{self, tests::request as card_request};
use crate::bank::mock::customers::tests::{person, person_number};
use crate::bank::mock::holdings;
use crate::bank::mock::model::{Account, CardAccount};
use crate::domain::refusal::Code;

fn setup() -> (Store, String, Account) {
    let store = Store::temporary().unwrap();
    let number = person_number();
    person(&store, &number, "Kari Nordmann");
    let account = accounts::create(&store, &account_request(&number, &bban(1205_00_1000))).unwrap();
    (store, number, account)
}

fn status_code_path(e: Refusal) -> (u16, Code, String) {
    (e.status(), e.code, e.path.unwrap_or_default())
}

fn json<T: serde::de::DeserializeOwned>(text: &str) -> T {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_customer_is_renamed_by_id_or_number_under_either_name() {
    let (store, number, account) = setup();
    let id = account.customer_id.clone();
    let view = update_customer(
        &store,
        &id,
        &json(r#"{"customerName": "Kari Nordmann-Li"}"#),
    )
    .unwrap();
    assert_eq!(view.customer.customer_name, "Kari Nordmann-Li");
    assert_eq!(view.customer.name, "Kari Nordmann-Li");
    assert_eq!(view.accounts.len(), 1);
    let view = update_customer(&store, &number, &json(r#"{"name": "Kari Li"}"#)).unwrap();
    assert_eq!(view.customer.customer_name, "Kari Li");
    assert_eq!(
        holdings::get_view::<Account>(&store, "id", &account.id)
            .unwrap()
            .owner_name,
        "Kari Li"
    );
}

#[test]
fn a_customer_edit_refuses_an_empty_name_a_new_number_and_an_unknown_customer() {
    let (store, number, account) = setup();
    let id = account.customer_id;
    let refused =
        |body: &str| status_code_path(update_customer(&store, &id, &json(body)).unwrap_err());
    assert_eq!(
        refused(r#"{"customerName": "  "}"#),
        (400, Code::FormatError, "customerName".into())
    );
    assert_eq!(
        refused(&format!(r#"{{"customerName": "{}"}}"#, "x".repeat(71))),
        (400, Code::FormatError, "customerName".into())
    );
    assert_eq!(
        refused(r#"{"customerName": "A", "customerNumber": "974760673"}"#),
        (400, Code::FormatError, "customerNumber".into())
    );
    assert_eq!(
        refused(r#"{"customerName": "A", "customerType": "corporate"}"#),
        (400, Code::FormatError, "customerType".into())
    );
    // The same number and type sent back are fine.
    update_customer(
        &store,
        &id,
        &json(&format!(
            r#"{{"customerName": "A", "customerNumber": "{number}", "type": "PRIVATE"}}"#
        )),
    )
    .unwrap();
    let e = update_customer(&store, "no-such-id", &json(r#"{"name": "A"}"#)).unwrap_err();
    assert_eq!(
        status_code_path(e),
        (404, Code::ResourceUnknown, "customerId".into())
    );
}

#[test]
fn an_account_edit_changes_what_it_names_and_keeps_the_rest() {
    let (store, _, account) = setup();
    let edited = update_account(
        &store,
        &account.id,
        &json(
            r#"{"accountName": "Felleskonto", "cashAccountType": "SVGS", "status": "BLOCKED",
                "creditLine": "5000", "balances": [
                  {"balanceType": "expected", "balanceAmount": {"amount": "10.00", "currency": "NOK"}},
                  {"balanceType": "EXPECTED", "balanceAmount": {"amount": "11.00", "currency": "NOK"}}]}"#,
        ),
    )
    .unwrap();
    assert_eq!(edited.warnings.len(), 1, "the repeated balance type");
    let view = edited.value;
    assert_eq!(view.name, "Felleskonto");
    assert_eq!(view.product, account.product, "left out, kept");
    assert_eq!(view.cash_account_type, "SVGS");
    assert_eq!(
        view.status,
        crate::bank::mock::model::AccountStatus::Blocked
    );
    assert_eq!(
        view.credit_line.as_ref().unwrap().amount.to_string(),
        "5000.00"
    );
    assert_eq!(view.balances.len(), 1);
    assert_eq!(
        holdings::get_view::<Account>(&store, "id", &account.id).unwrap(),
        view
    );
    // null removes the credit line; an empty list removes the balances.
    let view = update_account(
        &store,
        &account.id,
        &json(r#"{"creditLine": null, "balances": []}"#),
    )
    .unwrap()
    .value;
    assert!(view.credit_line.is_none() && view.balances.is_empty());
}

#[test]
fn an_account_edit_refuses_identity_changes_bad_values_and_unknown_accounts() {
    let (store, number, account) = setup();
    let refused = |body: &str| {
        status_code_path(update_account(&store, &account.id, &json(body)).unwrap_err())
    };
    assert_eq!(
        refused(r#"{"currency": "SEK"}"#),
        (400, Code::FormatError, "currency".into())
    );
    assert_eq!(
        refused(&format!(r#"{{"bban": "{}"}}"#, bban(1205_00_2000))),
        (400, Code::FormatError, "bban".into())
    );
    assert_eq!(
        refused(r#"{"customerNumber": "974760673"}"#),
        (400, Code::FormatError, "customerNumber".into())
    );
    assert_eq!(
        refused(r#"{"iban": "NO9386011117947"}"#),
        (400, Code::FormatError, "iban".into())
    );
    assert_eq!(
        refused(r#"{"cashAccountType": "XXXX"}"#),
        (400, Code::FormatError, "cashAccountType".into())
    );
    assert_eq!(
        refused(r#"{"creditLine": {"amount": "1", "currency": "EUR"}}"#),
        (400, Code::FormatError, "creditLine.currency".into())
    );
    assert_eq!(
        refused(
            r#"{"balances": [{"balanceType": "nope", "balanceAmount": {"amount": "1", "currency": "NOK"}}]}"#
        ),
        (400, Code::FormatError, "balances[0].balanceType".into())
    );
    assert_eq!(
        refused(r#"{"accountName": ""}"#),
        (400, Code::FormatError, "accountName".into())
    );
    // Nothing of a refused edit was written.
    assert_eq!(
        holdings::by_id::<Account>(&store, "x", &account.id).unwrap(),
        account,
        "unchanged"
    );
    // Identity sent back as it is (BBAN with dots) is accepted.
    let b = &account.bban;
    update_account(
        &store,
        &account.id,
        &json(&format!(
            r#"{{"customerNumber": "{number}", "bban": "{}.{}.{}", "currency": "NOK", "iban": "{}"}}"#,
            &b[..4],
            &b[4..6],
            &b[6..],
            account.iban
        )),
    )
    .unwrap();
    let e = update_account(&store, "nope", &UpdateAccount::default()).unwrap_err();
    assert_eq!(
        status_code_path(e),
        (404, Code::ResourceUnknown, "mockAccountId".into())
    );
}

#[test]
fn a_card_account_edit_changes_limit_and_related_account_and_refuses_what_it_must() {
    let (store, number, account) = setup();
    let card =
        card_accounts::create(&store, &card_request(&number, "5555 55** **** 1234")).unwrap();
    let body = format!(
        r#"{{"name": "Reisekort", "status": "blocked", "creditLimit": {{"amount": 20000, "currency": "NOK"}},
            "relatedAccount": "{}", "maskedPan": "555555xxxxxx1234"}}"#,
        account.bban
    );
    let view = update_card_account(&store, &card.id, &json(&body))
        .unwrap()
        .value;
    assert_eq!(view.name, "Reisekort");
    assert_eq!(
        view.credit_limit.as_ref().unwrap().amount.to_string(),
        "20000.00"
    );
    assert_eq!(view.related_account.as_deref(), Some(account.bban.as_str()));
    assert_eq!(
        holdings::get_view::<CardAccount>(&store, "id", &card.id).unwrap(),
        view
    );
    let view = update_card_account(
        &store,
        &card.id,
        &json(r#"{"creditLimit": null, "relatedAccount": null}"#),
    )
    .unwrap()
    .value;
    assert!(view.credit_limit.is_none() && view.related_account.is_none());

    let refused = |body: &str| {
        status_code_path(update_card_account(&store, &card.id, &json(body)).unwrap_err())
    };
    assert_eq!(
        refused(r#"{"maskedPan": "4444 44** **** 1234"}"#),
        (400, Code::FormatError, "maskedPan".into())
    );
    assert_eq!(
        refused(r#"{"currency": "EUR"}"#),
        (400, Code::FormatError, "currency".into())
    );
    assert_eq!(
        refused(r#"{"status": "closed"}"#),
        (400, Code::FormatError, "status".into())
    );
    assert_eq!(
        refused(&format!(
            r#"{{"relatedAccount": "{}"}}"#,
            bban(1205_00_3000)
        )),
        (404, Code::ResourceUnknown, "relatedAccount".into())
    );
    assert_eq!(
        refused(r#"{"relatedAccount": 12}"#),
        (400, Code::FormatError, "relatedAccount".into())
    );
    let e = update_card_account(&store, "nope", &UpdateCardAccount::default()).unwrap_err();
    assert_eq!(
        status_code_path(e),
        (404, Code::ResourceUnknown, "mockCardAccountId".into())
    );
}
