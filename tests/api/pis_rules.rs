//! The rules of payment initiation, one test per rule, each asserting status and code (and the path
//! where there is one): creation headers, products an account may not use, signing baskets, deleting
//! payments, authorisations, the SCA page's brand, forced outcomes, periodic and bulk payments through
//! the API, fees, a journey that ends in account information, and the dated structured-address rule.

use crate::helpers::{
    authorisation_id, complete_sca, sca_redirect, spawn_app, TestApp, TestRequest, TestResponse,
    TppState, AIS_REDIRECT, TEST_NOW,
};
use crate::pis_support::*;
use axum::http::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};
use std::str::FromStr;

/// Any request with the TPP's headers and x-accept-fix (TppState has get and post only).
fn call<'a>(app: &'a TestApp, tpp: &TppState, method: Method, path: &str) -> TestRequest<'a> {
    let mut request = app
        .request(method, path)
        .header("x-accept-fix", FIX)
        .header("TPP-Session-ID", &tpp.session)
        .header("TPP-Redirect-URI", AIS_REDIRECT)
        .header("PSU-IP-Address", "192.0.2.10");
    if let Some(certificate) = tpp.certificate {
        request = request.signed_by(certificate);
    }
    if let Some(psu_id) = &tpp.psu_id {
        request = request.header("PSU-ID", psu_id);
    }
    request
}

fn sepa(amount: &str) -> Value {
    json!({
        "instructedAmount": {"amount": amount, "currency": "EUR"},
        "creditorName": "Hans Mueller",
        "creditorAccount": {"iban": "DE89370400440532013000"},
        "creditorAgent": "COBADEFFXXX",
        "creditorAddress": {"street": "Hauptstrasse", "buildingNumber": "1", "postalCode": "10115", "townName": "Berlin", "country": "DE"},
        "debtorAccount": {"bban": KARI_CURRENT, "currency": "NOK"},
    })
}

#[track_caller]
fn redirect_of(response: &TestResponse) -> String {
    response.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no scaRedirect: {}", response.body))
        .to_owned()
}

/// Creates a payment and returns (paymentId, scaRedirect of its authorisation).
async fn create(app: &TestApp, tpp: &TppState, path: &str, body: &Value) -> (String, String) {
    let response = pay(app, tpp, path, body).send().await;
    (created(&response), redirect_of(&response))
}

/// Creates a payment and completes its SCA.
async fn authorised(app: &TestApp, tpp: &TppState, path: &str, body: &Value) -> String {
    let (id, href) = create(app, tpp, path, body).await;
    let done = complete_sca(app, &href, json!({})).await;
    assert_eq!(done["outcome"], "SUCCEEDED", "{done}");
    id
}

async fn status(app: &TestApp, tpp: &TppState, product_path: &str, id: &str) -> String {
    let response = tpp
        .get(app, &format!("{product_path}/{id}/status"))
        .send()
        .await;
    response.assert_ok();
    response.body["transactionStatus"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn basket_status(app: &TestApp, tpp: &TppState, basket_id: &str) -> String {
    let response = call(
        app,
        tpp,
        Method::GET,
        &format!("{BASKETS}/{basket_id}/status"),
    )
    .send()
    .await;
    response.assert_ok();
    response.body["transactionStatus"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn advance(app: &TestApp, by: &str) {
    app.put("/v1/sandbox/clock", &json!({"advance": by}))
        .send()
        .await
        .assert_ok();
}

async fn set_now(app: &TestApp, now: &str) {
    app.put("/v1/sandbox/clock", &json!({"now": now}))
        .send()
        .await
        .assert_ok();
}

// ---------------------------------------------------------------------------------------------
// Payment creation: headers and query
// ---------------------------------------------------------------------------------------------

/// A creation request with every header the bank requires (docs/interface.md#payments) except `without`.
fn create_without<'a>(
    app: &'a TestApp,
    psu_id: &str,
    body: &Value,
    without: &str,
) -> TestRequest<'a> {
    let mut request = app.post(DOMESTIC, body);
    for (name, value) in [
        ("x-accept-fix", FIX),
        ("TPP-Session-ID", "pay-1"),
        ("TPP-Redirect-URI", AIS_REDIRECT),
        ("PSU-IP-Address", "192.0.2.10"),
        ("PSU-ID", psu_id),
    ] {
        if name != without {
            request = request.header(name, value);
        }
    }
    request
}

#[tokio::test]
async fn creation_without_tpp_session_id_is_400_naming_it() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("20.01", OLA_CURRENT, json!({}));
    create_without(
        &app,
        tpp.psu_id.as_deref().unwrap(),
        &body,
        "TPP-Session-ID",
    )
    .send()
    .await
    .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("TPP-Session-ID"));
}

#[tokio::test]
async fn creation_without_tpp_redirect_uri_is_400_naming_it() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("20.02", OLA_CURRENT, json!({}));
    create_without(
        &app,
        tpp.psu_id.as_deref().unwrap(),
        &body,
        "TPP-Redirect-URI",
    )
    .send()
    .await
    .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("TPP-Redirect-URI"));
}

#[tokio::test]
async fn creation_without_psu_ip_address_is_400_naming_it() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("20.03", OLA_CURRENT, json!({}));
    create_without(
        &app,
        tpp.psu_id.as_deref().unwrap(),
        &body,
        "PSU-IP-Address",
    )
    .send()
    .await
    .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("PSU-IP-Address"));
}

#[tokio::test]
async fn creation_without_psu_id_or_x_psu_identity_is_400_naming_psu_id() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("20.04", OLA_CURRENT, json!({}));
    create_without(&app, tpp.psu_id.as_deref().unwrap(), &body, "PSU-ID")
        .send()
        .await
        .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("PSU-ID"));
}

#[tokio::test]
async fn creation_with_a_body_but_no_digest_is_400_naming_digest() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("20.05", OLA_CURRENT, json!({}));
    pay(&app, &tpp, DOMESTIC, &body)
        .tamper(|h| drop(h.remove("digest")))
        .send()
        .await
        .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("Digest"));
}

#[tokio::test]
async fn allow_logical_duplicate_other_than_true_or_false_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("20.06", OLA_CURRENT, json!({}));
    pay(
        &app,
        &tpp,
        &format!("{DOMESTIC}?allowLogicalDuplicate=maybe"),
        &body,
    )
    .send()
    .await
    .assert_refused(400, "FORMAT_ERROR", Some("allowLogicalDuplicate"));
}

#[tokio::test]
async fn x_psu_identity_instead_of_psu_id_creates_the_payment() {
    let app = spawn_app().await;
    let body = transfer("20.07", OLA_CURRENT, json!({}));
    let response = create_without(&app, "unused", &body, "PSU-ID")
        .header("X-PSU-IDENTITY", KARI)
        .send()
        .await;
    created(&response);
    assert_eq!(response.body["transactionStatus"], "RCVD");
}

// ---------------------------------------------------------------------------------------------
// PRODUCT_INVALID
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_card_account_cannot_pay_sepa_credit_transfers() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let card_id = customers(&app)
        .await
        .iter()
        .find(|c| c["customerNumber"] == KARI)
        .expect("Kari is a customer")["cardAccounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let card = app
        .get(&format!("/v1/sandbox/card-accounts/{card_id}"))
        .send()
        .await;
    card.assert_ok();
    let related = card.body["relatedAccount"]
        .as_str()
        .unwrap_or_else(|| panic!("no relatedAccount: {}", card.body))
        .to_owned();
    let mut body = sepa("30.00");
    body["debtorAccount"] = json!({
        "other": {"identification": related, "schemeNameProprietary": "creditCardAccount"},
        "currency": "NOK",
    });
    pay(&app, &tpp, SEPA, &body).send().await.assert_refused(
        403,
        "PRODUCT_INVALID",
        Some("debtorAccount.other"),
    );
}

#[tokio::test]
async fn ola_cannot_pay_from_karis_account() {
    let app = spawn_app().await;
    let ola = identified(&app, "ola-1", OLA, None).await;
    pay(
        &app,
        &ola,
        DOMESTIC,
        &transfer("31.00", OLA_CURRENT, json!({})),
    )
    .send()
    .await
    .assert_refused(403, "PRODUCT_INVALID", Some("debtorAccount"));
}

// ---------------------------------------------------------------------------------------------
// Signing baskets
// ---------------------------------------------------------------------------------------------

async fn basket(app: &TestApp, tpp: &TppState, ids: Value) -> TestResponse {
    pay(app, tpp, BASKETS, &json!({ "paymentIds": ids }))
        .send()
        .await
}

#[tokio::test]
async fn a_bulk_payment_cannot_join_a_basket() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (single, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.01", OLA_CURRENT, json!({})),
    )
    .await;
    let (bulk, _) = create(&app, &tpp, BULK, &bulk_body(&["40.02", "40.03"], None)).await;
    basket(&app, &tpp, json!([single, bulk]))
        .await
        .assert_refused(400, "REFERENCE_MIX_INVALID", Some("paymentIds[1]"));
}

#[tokio::test]
async fn an_empty_basket_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    basket(&app, &tpp, json!([]))
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("paymentIds"));
}

#[tokio::test]
async fn a_payment_named_twice_in_a_basket_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.04", OLA_CURRENT, json!({})),
    )
    .await;
    basket(&app, &tpp, json!([id, id])).await.assert_refused(
        400,
        "FORMAT_ERROR",
        Some("paymentIds[1]"),
    );
}

#[tokio::test]
async fn an_authorised_payment_cannot_join_a_basket() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = authorised(
        &app,
        &tpp,
        DOMESTIC,
        &transfer("40.05", OLA_CURRENT, json!({})),
    )
    .await;
    basket(&app, &tpp, json!([id]))
        .await
        .assert_refused(409, "CONFLICT", Some("paymentIds[0]"));
}

#[tokio::test]
async fn a_payment_in_another_basket_cannot_join_a_second() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.06", OLA_CURRENT, json!({})),
    )
    .await;
    assert_eq!(basket(&app, &tpp, json!([id])).await.status, 201);
    basket(&app, &tpp, json!([id]))
        .await
        .assert_refused(409, "CONFLICT", Some("paymentIds[0]"));
}

#[tokio::test]
async fn another_tpps_payment_is_unknown_to_a_basket() {
    let app = spawn_app().await;
    let other = identified(&app, "pisp-1", KARI, Some("pisp")).await;
    let (theirs, _) = create(
        &app,
        &other,
        STRAKS,
        &transfer("40.07", OLA_CURRENT, json!({})),
    )
    .await;
    let tpp = kari(&app).await;
    basket(&app, &tpp, json!([theirs])).await.assert_refused(
        404,
        "RESOURCE_UNKNOWN",
        Some("paymentIds[0]"),
    );
}

#[tokio::test]
async fn basket_create_without_x_accept_fix_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.08", OLA_CURRENT, json!({})),
    )
    .await;
    tpp.post(&app, BASKETS, &json!({"paymentIds": [id]}))
        .send()
        .await
        .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("x-accept-fix"));
}

#[tokio::test]
async fn basket_get_without_x_accept_fix_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.09", OLA_CURRENT, json!({})),
    )
    .await;
    let made = basket(&app, &tpp, json!([id])).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let basket_id = made.body["basketId"].as_str().unwrap();
    tpp.get(&app, &format!("{BASKETS}/{basket_id}"))
        .send()
        .await
        .assert_refused(400, "HTTP_HEADER_REQUIRED", Some("x-accept-fix"));
}

#[tokio::test]
async fn a_deleted_basket_is_gone() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.10", OLA_CURRENT, json!({})),
    )
    .await;
    let made = basket(&app, &tpp, json!([id])).await;
    let basket_id = made.body["basketId"].as_str().unwrap().to_owned();
    let deleted = call(
        &app,
        &tpp,
        Method::DELETE,
        &format!("{BASKETS}/{basket_id}"),
    )
    .send()
    .await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    call(&app, &tpp, Method::GET, &format!("{BASKETS}/{basket_id}"))
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", Some("basketId"));
}

#[tokio::test]
async fn a_signed_basket_cannot_be_deleted() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        DOMESTIC,
        &transfer("40.11", OLA_CURRENT, json!({})),
    )
    .await;
    let made = basket(&app, &tpp, json!([id])).await;
    let basket_id = made.body["basketId"].as_str().unwrap().to_owned();
    complete_sca(&app, &redirect_of(&made), json!({})).await;
    call(
        &app,
        &tpp,
        Method::DELETE,
        &format!("{BASKETS}/{basket_id}"),
    )
    .send()
    .await
    .assert_refused(409, "CONFLICT", Some("basketId"));
}

#[tokio::test]
async fn another_tpps_basket_is_unknown_to_get_and_delete() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.12", OLA_CURRENT, json!({})),
    )
    .await;
    let made = basket(&app, &tpp, json!([id])).await;
    let basket_id = made.body["basketId"].as_str().unwrap().to_owned();
    let other = identified(&app, "pisp-1", KARI, Some("pisp")).await;
    call(&app, &other, Method::GET, &format!("{BASKETS}/{basket_id}"))
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", Some("basketId"));
    call(
        &app,
        &other,
        Method::DELETE,
        &format!("{BASKETS}/{basket_id}"),
    )
    .send()
    .await
    .assert_refused(404, "RESOURCE_UNKNOWN", Some("basketId"));
    // Still there for its own TPP.
    call(&app, &tpp, Method::GET, &format!("{BASKETS}/{basket_id}"))
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_basket_of_another_psus_payments_is_403_and_stores_nothing() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.13", OLA_CURRENT, json!({})),
    )
    .await;
    let ola = identified(&app, "ola-1", OLA, None).await;
    basket(&app, &ola, json!([id]))
        .await
        .assert_refused(403, "FORBIDDEN", None);
    // Nothing was stored: Kari's own basket of the payment works.
    let made = basket(&app, &tpp, json!([id])).await;
    assert_eq!(made.status, 201, "{}", made.body);
}

#[tokio::test]
async fn a_basket_with_a_deleted_payment_is_rcvd_until_all_are_cancelled() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (first, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.14", OLA_CURRENT, json!({})),
    )
    .await;
    let (second, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.15", OLA_CURRENT, json!({})),
    )
    .await;
    let made = basket(&app, &tpp, json!([first, second])).await;
    let basket_id = made.body["basketId"].as_str().unwrap().to_owned();
    let deleted = app.delete(&format!("{STRAKS}/{second}")).send().await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(status(&app, &tpp, STRAKS, &second).await, "CANC");
    // [RCVD, CANC]: nothing is accepted, so the basket is RCVD.
    assert_eq!(basket_status(&app, &tpp, &basket_id).await, "RCVD");
    let deleted = app.delete(&format!("{STRAKS}/{first}")).send().await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(basket_status(&app, &tpp, &basket_id).await, "RJCT");
}

#[tokio::test]
async fn an_sca_started_before_its_basket_was_deleted_approves_nothing() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("40.16", OLA_CURRENT, json!({})),
    )
    .await;
    let made = basket(&app, &tpp, json!([id])).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let basket_id = made.body["basketId"].as_str().unwrap().to_owned();
    let href = redirect_of(&made);
    let deleted = call(
        &app,
        &tpp,
        Method::DELETE,
        &format!("{BASKETS}/{basket_id}"),
    )
    .send()
    .await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    // Completing it (whatever the automation endpoint answers) does not approve the payment.
    let _ = app
        .post(
            &format!("/v1/sandbox/sca/{}", authorisation_id(&href)),
            &json!({}),
        )
        .send()
        .await;
    assert_eq!(status(&app, &tpp, STRAKS, &id).await, "RCVD");
}

// ---------------------------------------------------------------------------------------------
// Payment DELETE
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_booked_payment_cannot_be_deleted() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = authorised(
        &app,
        &tpp,
        DOMESTIC,
        &transfer("50.01", OLA_CURRENT, json!({})),
    )
    .await;
    advance(&app, "PT2H").await;
    assert_eq!(status(&app, &tpp, DOMESTIC, &id).await, "ACSC");
    app.delete(&format!("{DOMESTIC}/{id}"))
        .send()
        .await
        .assert_refused(409, "CONFLICT", Some("paymentId"));
}

#[tokio::test]
async fn another_tpps_payment_cannot_be_deleted() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("50.02", OLA_CURRENT, json!({})),
    )
    .await;
    app.delete(&format!("{STRAKS}/{id}"))
        .signed_by("pisp")
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", Some("paymentId"));
    assert_eq!(status(&app, &tpp, STRAKS, &id).await, "RCVD");
}

fn periodic_body(amount: &str, start: time::Date, day: u8) -> Value {
    let mut body = transfer(amount, OLA_CURRENT, json!({}));
    body["startDate"] = json!(start.to_string());
    body["frequency"] = json!("Monthly");
    body["dayOfExecution"] = json!(day.to_string());
    body
}

#[tokio::test]
async fn a_running_periodic_payment_can_be_deleted() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let start = (TEST_NOW + time::Duration::days(1)).date();
    let id = authorised(
        &app,
        &tpp,
        PERIODIC,
        &periodic_body("50.03", start, start.day()),
    )
    .await;
    assert_eq!(status(&app, &tpp, PERIODIC, &id).await, "ACSP");
    let deleted = app.delete(&format!("{PERIODIC}/{id}")).send().await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(status(&app, &tpp, PERIODIC, &id).await, "CANC");
}

#[tokio::test]
async fn an_authorised_domestic_payment_deleted_before_the_run_is_not_booked() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let before = booked_on(&app, OLA_CURRENT).await.len();
    let id = authorised(
        &app,
        &tpp,
        DOMESTIC,
        &transfer("50.04", OLA_CURRENT, json!({})),
    )
    .await;
    assert_eq!(status(&app, &tpp, DOMESTIC, &id).await, "ACTC");
    let deleted = app.delete(&format!("{DOMESTIC}/{id}")).send().await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(status(&app, &tpp, DOMESTIC, &id).await, "CANC");
    advance(&app, "PT2H").await;
    assert_eq!(status(&app, &tpp, DOMESTIC, &id).await, "CANC");
    assert_eq!(booked_on(&app, OLA_CURRENT).await.len(), before);
}

// ---------------------------------------------------------------------------------------------
// Authorisations
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn an_authorisation_of_an_authorised_payment_is_409() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = authorised(
        &app,
        &tpp,
        STRAKS,
        &transfer("60.01", OLA_CURRENT, json!({})),
    )
    .await;
    tpp.post(&app, &format!("{STRAKS}/{id}/authorisations"), &json!({}))
        .send()
        .await
        .assert_refused(409, "CONFLICT", Some("paymentId"));
}

#[tokio::test]
async fn an_unknown_authorisation_id_is_sca_not_found() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("60.02", OLA_CURRENT, json!({})),
    )
    .await;
    tpp.get(
        &app,
        &format!("{STRAKS}/{id}/authorisations/no-such-authorisation"),
    )
    .send()
    .await
    .assert_refused(404, "SCA_NOT_FOUND", Some("authorisationId"));
}

#[tokio::test]
async fn an_authorisation_under_another_product_path_is_sca_not_found() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let (id, _) = create(
        &app,
        &tpp,
        STRAKS,
        &transfer("60.03", OLA_CURRENT, json!({})),
    )
    .await;
    let started = tpp
        .post(&app, &format!("{STRAKS}/{id}/authorisations"), &json!({}))
        .send()
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let auth = started.body["authorisationId"].as_str().unwrap().to_owned();
    let own = tpp
        .get(&app, &format!("{STRAKS}/{id}/authorisations/{auth}"))
        .send()
        .await;
    own.assert_ok();
    assert!(own.body["scaStatus"].is_string(), "{}", own.body);
    for wrong in [
        format!("{DOMESTIC}/{id}/authorisations/{auth}"),
        format!("/v1/periodic-payments/instant-norwegian-domestic-credit-transfers-straks/{id}/authorisations/{auth}"),
    ] {
        tpp.get(&app, &wrong).send().await.assert_refused(
            404,
            "SCA_NOT_FOUND",
            Some("authorisationId"),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The SCA page shows the TPP's brand
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn the_sca_page_shows_the_tpp_brand() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let response = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("70.01", OLA_CURRENT, json!({})),
    )
    .header("TPP-Brand-Logging-Information", "Pengeappen Regnskap")
    .send()
    .await;
    created(&response);
    let href = redirect_of(&response);
    let chosen = app
        .client
        .post(format!("{href}/method"))
        .form(&[("method", "HA2")])
        .send()
        .await
        .unwrap();
    assert!(
        chosen.status().is_success() || chosen.status().is_redirection(),
        "{}",
        chosen.status()
    );
    let page = app
        .client
        .get(&href)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Pengeappen Regnskap"), "{page}");
    assert!(page.contains("70.01"), "{page}");
}

// ---------------------------------------------------------------------------------------------
// Forced outcomes
// ---------------------------------------------------------------------------------------------

fn kid_payment(amount: &str) -> Value {
    transfer(
        amount,
        FJORDKRAFT,
        json!({"remittanceInformationStructured": {"reference": valid_kid(), "referenceType": "KID"}}),
    )
}

#[tokio::test]
async fn a_forced_rjct_on_a_kid_payment_rejects_it_at_the_next_run() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = authorised(&app, &tpp, DOMESTIC, &kid_payment("80.01")).await;
    let forced = app
        .put(
            &format!("/v1/sandbox/payments/{id}/forced-outcome"),
            &json!({"outcome": "RJCT"}),
        )
        .send()
        .await;
    forced.assert_ok();
    advance(&app, "PT2H").await;
    assert_eq!(status(&app, &tpp, DOMESTIC, &id).await, "RJCT");
}

#[tokio::test]
async fn an_unknown_forced_outcome_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = authorised(&app, &tpp, DOMESTIC, &kid_payment("80.02")).await;
    app.put(
        &format!("/v1/sandbox/payments/{id}/forced-outcome"),
        &json!({"outcome": "BAD"}),
    )
    .send()
    .await
    .assert_refused(400, "FORMAT_ERROR", Some("outcome"));
}

#[tokio::test]
async fn forcing_an_unknown_payment_is_404() {
    let app = spawn_app().await;
    app.put(
        "/v1/sandbox/payments/no-such-payment/forced-outcome",
        &json!({"outcome": "RJCT"}),
    )
    .send()
    .await
    .assert_refused(404, "RESOURCE_UNKNOWN", Some("paymentId"));
}

// ---------------------------------------------------------------------------------------------
// Periodic payments through the API
// ---------------------------------------------------------------------------------------------

/// The credits on Ola's current account of this amount (minor units), with their booking dates.
async fn credits_of(app: &TestApp, minor: i64) -> Vec<String> {
    booked_on(app, OLA_CURRENT)
        .await
        .iter()
        .filter(|t| t["amount"] == minor)
        .map(|t| t["bookingDate"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The sandbox simulates batch processing for all payments except periodic ones
/// (docs/reference/payments.md#periodic-payments). After its SCA a standing order is accepted for execution (ACSP)
/// and stays so, through its day of execution, a month of runs and its end date: no instance is booked, and the
/// status read says why.
#[tokio::test]
async fn a_periodic_payment_stays_accepted_and_no_run_books_an_instance() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let start = (TEST_NOW + time::Duration::days(1)).date();
    let mut body = periodic_body("90.01", start, start.day());
    body["endDate"] = json!((start + time::Duration::days(20)).to_string());
    let id = authorised(&app, &tpp, PERIODIC, &body).await;
    let read = tpp
        .get(&app, &format!("{PERIODIC}/{id}/status"))
        .send()
        .await;
    read.assert_ok();
    assert_eq!(read.body["transactionStatus"], "ACSP");
    assert_eq!(
        read.body["psuMessage"],
        xs2a_core::bank::pis::service::STANDING_ORDER_ACCEPTED,
        "the status read says that no instance will be booked"
    );
    assert!(read.body.get("fundsAvailable").is_none(), "{}", read.body);
    advance(&app, "P1D").await;
    advance(&app, "P31D").await;
    assert!(
        credits_of(&app, 9001).await.is_empty(),
        "no instance booked"
    );
    assert_eq!(status(&app, &tpp, PERIODIC, &id).await, "ACSP");
    let details = tpp.get(&app, &format!("{PERIODIC}/{id}")).send().await;
    details.assert_ok();
    assert_eq!(details.body["transactionStatus"], "ACSP");
    assert!(
        details.body.get("nextExecutionDate").is_none(),
        "no execution date is promised: {}",
        details.body
    );
    // It can still be deleted (cancelled), as a running standing order can at the bank.
    let deleted = app.delete(&format!("{PERIODIC}/{id}")).send().await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(status(&app, &tpp, PERIODIC, &id).await, "CANC");
}

// ---------------------------------------------------------------------------------------------
// Bulk payments through the API
// ---------------------------------------------------------------------------------------------

fn bulk_body(amounts: &[&str], first_remittance: Option<&str>) -> Value {
    let payments: Vec<Value> = amounts
        .iter()
        .enumerate()
        .map(|(i, amount)| {
            let mut order = json!({
                "instructedAmount": {"amount": amount, "currency": "NOK"},
                "creditorName": "Ola Nordmann",
                "creditorAccount": {"bban": OLA_CURRENT, "currency": "NOK"},
                "creditorAddress": {"street": "Storgata", "buildingNumber": "1", "postalCode": "0155", "townName": "Oslo", "country": "NO"},
            });
            if let (0, Some(text)) = (i, first_remittance) {
                order["remittanceInformationUnstructured"] = json!(text);
            }
            order
        })
        .collect();
    json!({
        "debtorAccount": {"bban": KARI_CURRENT, "currency": "NOK"},
        "payments": payments,
    })
}

#[tokio::test]
async fn a_bulk_of_two_is_booked_at_the_next_run() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let before = booked_on(&app, OLA_CURRENT).await.len();
    let id = authorised(&app, &tpp, BULK, &bulk_body(&["91.01", "91.02"], None)).await;
    assert_eq!(status(&app, &tpp, BULK, &id).await, "ACTC");
    advance(&app, "PT2H").await;
    assert_eq!(status(&app, &tpp, BULK, &id).await, "ACSC");
    let credits = booked_on(&app, OLA_CURRENT).await;
    assert_eq!(credits.len(), before + 2);
    assert!(credits.iter().any(|t| t["amount"] == 9101), "{credits:?}");
    assert!(credits.iter().any(|t| t["amount"] == 9102), "{credits:?}");
}

#[tokio::test]
async fn a_bulk_forced_partial_ends_part() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = authorised(
        &app,
        &tpp,
        BULK,
        &bulk_body(&["92.01", "92.02"], Some("SANDBOX:PART")),
    )
    .await;
    advance(&app, "PT2H").await;
    assert_eq!(status(&app, &tpp, BULK, &id).await, "PART");
}

// ---------------------------------------------------------------------------------------------
// Fees
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn an_instant_payment_from_10000_nok_costs_5_nok() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let response = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("20000.00", OLA_CURRENT, json!({})),
    )
    .send()
    .await;
    created(&response);
    assert_eq!(
        response.body["transactionFeeIndicator"], true,
        "{}",
        response.body
    );
    assert_eq!(
        response.body["transactionFees"],
        json!({"amount": "5.00", "currency": "NOK"})
    );
}

#[tokio::test]
async fn a_cross_border_bulk_of_two_costs_the_sum_of_its_orders_fees() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let order = |amount: &str| {
        json!({
            "instructedAmount": {"amount": amount, "currency": "EUR"},
            "creditorName": "Hans Mueller",
            "creditorAccount": {"iban": "DE89370400440532013000"},
            "creditorAgent": "COBADEFFXXX",
            "creditorAddress": {"street": "Hauptstrasse", "buildingNumber": "1", "postalCode": "10115", "townName": "Berlin", "country": "DE"},
        })
    };
    let body = json!({
        "debtorAccount": {"bban": KARI_CURRENT, "currency": "NOK"},
        "payments": [order("100.00"), order("200.00")],
    });
    let response = pay(&app, &tpp, CROSS_BORDER_BULK, &body).send().await;
    created(&response);
    assert_eq!(
        response.body["transactionFeeIndicator"], true,
        "{}",
        response.body
    );
    assert_eq!(
        response.body["transactionFees"],
        json!({"amount": "50.00", "currency": "NOK"}),
        "{}",
        response.body
    );
}

// ---------------------------------------------------------------------------------------------
// A journey that ends in account information
// ---------------------------------------------------------------------------------------------

fn interim_available(balances: &Value) -> Decimal {
    let balance = balances["balances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["balanceType"] == "interimAvailable")
        .unwrap_or_else(|| panic!("no interimAvailable: {balances}"));
    Decimal::from_str(balance["balanceAmount"]["amount"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn a_booked_payment_shows_in_account_information() {
    let app = spawn_app().await;
    // One session for everything: the consent's SCA and the payment's.
    let mut tpp = TppState::new("journey-1");
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let done = complete_sca(
        &app,
        &href,
        json!({"nationalId": KARI, "context": "PRIVATE"}),
    )
    .await;
    assert_eq!(done["outcome"], "SUCCEEDED", "{done}");
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());

    let accounts = tpp.get(&app, "/v1/accounts").send().await;
    accounts.assert_ok();
    let account_id = accounts.body["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["bban"] == KARI_CURRENT)
        .unwrap_or_else(|| panic!("no current account: {}", accounts.body))["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    let balances_path = format!("/v1/accounts/{account_id}/balances");
    let before = tpp.get(&app, &balances_path).send().await;
    before.assert_ok();

    let id = authorised(
        &app,
        &tpp,
        DOMESTIC,
        &transfer(
            "321.00",
            OLA_CURRENT,
            json!({"remittanceInformationUnstructured": "Reise til Bergen"}),
        ),
    )
    .await;
    advance(&app, "PT2H").await;
    assert_eq!(status(&app, &tpp, DOMESTIC, &id).await, "ACSC");

    // Two hours on, the session's SCA has lapsed: the TPP reads without the PSU (no PSU-IP-Address).
    tpp.present = false;
    let transactions = tpp
        .get(
            &app,
            &format!("/v1/accounts/{account_id}/transactions?bookingStatus=booked"),
        )
        .send()
        .await;
    transactions.assert_ok();
    let booked = transactions.body["transactions"]["booked"]
        .as_array()
        .unwrap();
    let ours = booked
        .iter()
        .find(|t| t["remittanceInformationUnstructured"] == "Reise til Bergen")
        .unwrap_or_else(|| panic!("not booked: {}", transactions.body));
    assert_eq!(ours["transactionAmount"]["currency"], "NOK", "{ours}");
    assert_eq!(
        Decimal::from_str(ours["transactionAmount"]["amount"].as_str().unwrap()).unwrap(),
        Decimal::from_str("-321.00").unwrap(),
        "{ours}"
    );
    let after = tpp.get(&app, &balances_path).send().await;
    after.assert_ok();
    assert_eq!(
        interim_available(&before.body) - interim_available(&after.body),
        Decimal::from_str("321.00").unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// The structured-address rule, by the clock
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn a_sepa_payment_without_town_name_is_a_warning_before_13_august_and_400_after() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    set_now(&app, "2026-08-01T12:00:00Z").await;
    let mut body = sepa("95.01");
    body["creditorAddress"]
        .as_object_mut()
        .unwrap()
        .remove("townName");
    let warned = pay(&app, &tpp, SEPA, &body).send().await;
    created(&warned);
    assert_eq!(
        warned.body["tppMessages"][0]["category"], "WARNING",
        "{}",
        warned.body
    );
    assert_eq!(warned.path(), "creditorAddress.townName", "{}", warned.body);
    assert!(!warned.warnings().is_empty());

    set_now(&app, "2026-08-13T12:00:00Z").await;
    body["instructedAmount"]["amount"] = json!("95.02");
    pay(&app, &tpp, SEPA, &body).send().await.assert_refused(
        400,
        "FORMAT_ERROR",
        Some("creditorAddress.townName"),
    );
}
