//! The rules issue 9 adds, one test each with status and code: the /api-sandbox prefix, mock data as the
//! platform's kit writes it, deleting a customer, amounts of at most 13 integer digits, the session
//! exemption for consents, pending transactions and their known issue, and the identify page's persons.

use crate::ais_journeys::private_consent;
use crate::helpers::{complete_sca, sca_redirect, spawn_app, TestApp, TppState};
use crate::pis_support::{kari, pay, transfer, DOMESTIC, KARI, OLA_CURRENT};
use crate::sca_pages::{browser, get_page, start_sca};
use serde_json::{json, Value};
use xs2a_core::signing::signer::SignOptions;

#[tokio::test]
async fn kit_rules_the_interface_answers_under_api_sandbox_signed_over_the_path_as_sent() {
    let app = spawn_app().await;
    let plain = app.get("/v1/sandbox/customers").send().await;
    let prefixed = app.get("/api-sandbox/v1/sandbox/customers").send().await;
    prefixed.assert_ok();
    assert_eq!(prefixed.body, plain.body);
    // Signed over the unprefixed path but sent under the prefix: the signature covers what was sent.
    let mut headers = axum::http::HeaderMap::new();
    crate::helpers::tpp("aisp-pisp").sign(
        "GET",
        "/v1/sandbox/customers",
        &mut headers,
        b"",
        app.state.clock.now(),
        &SignOptions::default(),
    );
    let sent = app
        .client
        .get(format!("{}/api-sandbox/v1/sandbox/customers", app.base))
        .headers(headers)
        .send()
        .await
        .unwrap();
    let wrong = crate::helpers::TestResponse::read(sent).await;
    wrong.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(
        wrong
            .text()
            .contains("get /api-sandbox/v1/sandbox/customers"),
        "{}",
        wrong.text()
    );
}

#[tokio::test]
async fn kit_rules_an_unknown_method_or_path_names_only_the_path_as_sent() {
    let app = spawn_app().await;
    let cases = [
        (
            axum::http::Method::PATCH,
            "/api-sandbox/v1/sandbox/customers/some-id",
            405,
            "BAD_REQUEST",
        ),
        // Shaped like a payment path (`/{service}/{product}/{paymentId}`), but no payment service.
        (
            axum::http::Method::GET,
            "/api-sandbox/v1/accounts/x/nothing",
            404,
            "NOT_FOUND",
        ),
        (
            axum::http::Method::DELETE,
            "/v1/accounts/x/nothing",
            404,
            "NOT_FOUND",
        ),
        (
            axum::http::Method::GET,
            "/v1/accounts/x/nothing/authorisations/y",
            404,
            "NOT_FOUND",
        ),
    ];
    for (method, sent, status, code) in cases {
        let response = app.request(method.clone(), sent).send().await;
        response.assert_refused(status, code, None);
        let text = response.text();
        assert!(text.contains(sent), "{method} {sent}: {text}");
        for word in text.split_whitespace().filter(|w| w.starts_with('/')) {
            let word = word.trim_end_matches(['.', ',', ';', ':', ')']);
            assert_eq!(word, sent, "names another endpoint: {text}");
        }
    }
}

#[tokio::test]
async fn kit_rules_an_eight_digit_corporate_number_is_created_with_a_warning() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/sandbox/customers",
            &json!({"customerNumber": "55555555", "customerName": "Testfirma 4", "customerType": "corporate"}),
        )
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["customerType"], "corporate");
    assert_eq!(created.body["customerName"], "Testfirma 4");
    assert_eq!(
        created.body["name"], "Testfirma 4",
        "the sandbox's first names too"
    );
    assert_eq!(created.body["customerId"], created.body["id"]);
    assert_eq!(created.warnings().len(), 1, "{}", created.body);
    assert_eq!(created.body["tppMessages"][0]["path"], "customerNumber");
    // Seven digits stay refused.
    let refused = app
        .post(
            "/v1/sandbox/customers",
            &json!({"customerNumber": "5555555", "name": "Testfirma", "type": "corporate"}),
        )
        .send()
        .await;
    refused.assert_refused(400, "FORMAT_ERROR", Some("customerNumber"));
}

#[tokio::test]
async fn kit_rules_a_balance_amount_of_fourteen_integer_digits_is_400_format_error() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "bban": "90412263056", "currency": "NOK",
                    "balances": [{"balanceType": "EXPECTED", "balanceAmount": {"amount": 12345678901234u64, "currency": "NOK"}}]}),
        )
        .send()
        .await;
    response.assert_refused(
        400,
        "FORMAT_ERROR",
        Some("balances[0].balanceAmount.amount"),
    );
}

#[tokio::test]
async fn kit_rules_a_payment_of_fourteen_integer_digits_is_400_format_error() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer(
        "12345678901234.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Husleie"}),
    );
    let response = pay(&app, &tpp, DOMESTIC, &body).send().await;
    response.assert_refused(400, "FORMAT_ERROR", Some("instructedAmount.amount"));
    let ok = transfer(
        "1234567890123.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Husleie"}),
    );
    assert_eq!(pay(&app, &tpp, DOMESTIC, &ok).send().await.status, 201);
}

async fn customer(app: &TestApp, number: &str) -> Value {
    let listed = app.get("/v1/sandbox/customers").send().await;
    listed
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["customerNumber"] == number)
        .cloned()
        .unwrap()
}

#[tokio::test]
async fn kit_rules_deleting_a_customer_is_204_and_cancels_its_unfinished_payments() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer(
        "100.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Middag"}),
    );
    let created = pay(&app, &tpp, DOMESTIC, &body).send().await;
    let payment = created.body["paymentId"].as_str().unwrap().to_owned();
    let id = customer(&app, KARI).await["customerId"]
        .as_str()
        .unwrap()
        .to_owned();

    let deleted = app
        .delete(&format!("/v1/sandbox/customers/{id}"))
        .send()
        .await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);

    let status = tpp
        .get(&app, &format!("{DOMESTIC}/{payment}/status"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert_eq!(status.body["transactionStatus"], "CANC", "{}", status.body);
    // Her psu-id names nobody now: the TPP is asked for SCA again.
    let accounts = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(accounts.status, 401, "{}", accounts.body);
    let again = app
        .delete(&format!("/v1/sandbox/customers/{id}"))
        .send()
        .await;
    again.assert_refused(404, "RESOURCE_UNKNOWN", Some("customerId"));
}

#[tokio::test]
async fn kit_rules_a_second_consent_in_the_same_session_asks_no_new_sca() {
    let app = spawn_app().await;
    let mut tpp = TppState::new("one-session");
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let accounts = customer(&app, KARI).await["accounts"].clone();
    let first_account = accounts[0]["id"].as_str().unwrap().to_owned();
    let done = complete_sca(
        &app,
        &href,
        json!({"nationalId": KARI, "context": "PRIVATE", "accounts": [first_account]}),
    )
    .await;
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());

    // Within the hour, a new consent (to add the second account) skips authentication.
    let second = tpp
        .post(&app, "/v1/bank-offered-consents", &json!({}))
        .send()
        .await;
    let href = sca_redirect(&second);
    assert!(second.text().contains("no new SCA"), "{}", second.text());
    let id = href.rsplit('/').next().unwrap();
    let state = app.get(&format!("/v1/sandbox/sca/{id}")).send().await;
    assert_ne!(state.body["step"], "method", "{}", state.body);
    assert_ne!(state.body["step"], "identify", "{}", state.body);
    complete_sca(&app, &href, json!({"context": "PRIVATE"})).await;
    let listed = tpp.get(&app, "/v1/accounts").send().await;
    listed.assert_ok();
    assert_eq!(listed.body["accounts"].as_array().unwrap().len(), 2);

    // A payment in the same session still needs its own SCA with dynamic linking.
    let body = transfer(
        "10.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Kaffe"}),
    );
    let created = pay(&app, &tpp, DOMESTIC, &body).send().await;
    let link = created.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap();
    let id = link.rsplit('/').next().unwrap();
    let state = app.get(&format!("/v1/sandbox/sca/{id}")).send().await;
    assert_eq!(state.body["step"], "method", "{}", state.body);
}

/// Posts a booked and two pending transactions to Kari's current account; returns its id.
async fn with_pending(app: &TestApp) -> String {
    let account = customer(app, KARI).await["accounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let posted = app
        .post(
            &format!("/v1/sandbox/accounts/{account}/transactions"),
            &json!([
                {"amount": "-10.00", "currency": "NOK", "bookingDate": "2026-05-30"},
                {"amount": "-20.00", "currency": "NOK", "valueDate": "2026-03-01", "status": "pending"},
                {"amount": "-30.00", "currency": "NOK", "valueDate": "2026-05-31", "status": "PENDING"}
            ]),
        )
        .send()
        .await;
    assert_eq!(posted.status, 201, "{}", posted.body);
    let statuses: Vec<&str> = posted
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["booked", "pending", "pending"]);
    account
}

#[tokio::test]
async fn kit_rules_pending_transactions_reproduce_the_known_issue_until_switched_off() {
    let app = spawn_app().await;
    let account = with_pending(&app).await;
    let tpp = private_consent(&app, "pending-session").await;
    let path = format!(
        "/v1/accounts/{account}/transactions?bookingStatus=both&dateFrom=2026-05-01&limit=1"
    );

    let reproduced = tpp.get(&app, &path).send().await;
    reproduced.assert_ok();
    let pending = reproduced.body["transactions"]["pending"]
        .as_array()
        .unwrap();
    assert_eq!(
        pending.len(),
        2,
        "all pending, whatever the filters: {}",
        reproduced.body
    );
    assert!(pending.iter().all(|t| t.get("bookingDate").is_none()));
    assert_eq!(
        reproduced.body["transactions"]["booked"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert!(
        reproduced
            .warnings()
            .iter()
            .any(|w| w.contains("known issue of the bank")),
        "{}",
        reproduced.body
    );

    let off = app
        .put(
            "/v1/sandbox/settings",
            &json!({"reproducePendingTransactionsIssue": false}),
        )
        .send()
        .await;
    off.assert_ok();
    let filtered = tpp.get(&app, &path).send().await;
    filtered.assert_ok();
    let report = &filtered.body["transactions"];
    let shown =
        report["booked"].as_array().unwrap().len() + report["pending"].as_array().unwrap().len();
    assert_eq!(
        shown, 1,
        "limit=1 covers pending ones too: {}",
        filtered.body
    );
    let only_pending = tpp
        .get(
            &app,
            &format!(
                "/v1/accounts/{account}/transactions?bookingStatus=pending&dateFrom=2026-05-01"
            ),
        )
        .send()
        .await;
    assert_eq!(
        only_pending.body["transactions"]["pending"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "the March one is filtered out: {}",
        only_pending.body
    );
}

#[tokio::test]
async fn kit_rules_a_pending_transaction_without_any_date_is_400_format_error() {
    let app = spawn_app().await;
    let account = customer(&app, KARI).await["accounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let response = app
        .post(
            &format!("/v1/sandbox/accounts/{account}/transactions"),
            &json!([{"amount": "-1.00", "currency": "NOK", "status": "pending"}]),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("[0].bookingDate"));
    let response = app
        .post(
            &format!("/v1/sandbox/accounts/{account}/transactions"),
            &json!([{"amount": "-1.00", "currency": "NOK", "bookingDate": "2026-05-01", "status": "cleared"}]),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("[0].status"));
}

#[tokio::test]
async fn kit_rules_the_identify_page_lists_customers_made_through_the_mock_data_api() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/api-sandbox/v1/sandbox/customers",
            &json!({"customerNumber": "01078900497", "name": "Test Testperson 1", "type": "private"}),
        )
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let started = start_sca(&app, "/v1/accounts", "https://tpp.example/cb", &[]).await;
    let page = get_page(&app, &browser(), &started.page, None).await;
    assert!(page.html.contains("Test Testperson 1"), "{}", page.html);
    assert!(page.html.contains("01078900497"), "{}", page.html);
    assert!(page.html.contains("Kari Nordmann"), "{}", page.html);
}
