//! Messages that say exactly what is wrong (issue 38's table), each over HTTP with its status and code: a
//! body field in the wrong case is named with the one that is missing, a date that is not a calendar date
//! is called that, and a garbage TPP-Signature-Certificate is blamed on its likely cause. (The SCA-start
//! 401 of `GET /v1/users` is `ais_rules::ais_rules_users_without_a_psu_id_is_401_consent_invalid_with_a_redirect`.)

use crate::helpers::spawn_app;
use crate::pis_support::{kari, pay, transfer, OLA_CURRENT, PERIODIC};
use base64::Engine;
use reqwest::header::HeaderValue;
use serde_json::json;

const CUSTOMERS: &str = "/v1/sandbox/customers";

#[tokio::test]
async fn a_payment_field_in_the_wrong_case_is_named_beside_the_missing_one() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let mut periodic = transfer("100.00", OLA_CURRENT, json!({}));
    let start = (crate::helpers::TEST_NOW + time::Duration::days(1))
        .date()
        .to_string();
    periodic["StartDate"] = json!(start);
    periodic["frequency"] = json!("Monthly");
    let response = pay(&app, &tpp, PERIODIC, &periodic).send().await;
    response.assert_refused(400, "FORMAT_ERROR", Some("startDate"));
    assert!(
        response.text().contains(
            "startDate is required but missing; 'StartDate' was sent, which differs from it only in case"
        ),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_typed_body_field_in_the_wrong_case_is_named_beside_the_missing_one() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/tpp-dialogue/contact", &json!({"Email": "ops@tpp.no"}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("email"));
    assert!(
        response
            .text()
            .contains("'Email' was sent, which differs from it only in case"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_date_that_is_not_in_the_calendar_is_called_that_in_a_payment() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let mut periodic = transfer("100.00", OLA_CURRENT, json!({}));
    periodic["startDate"] = json!("2026-02-30");
    periodic["frequency"] = json!("Monthly");
    let response = pay(&app, &tpp, PERIODIC, &periodic).send().await;
    response.assert_refused(400, "FORMAT_ERROR", Some("startDate"));
    assert!(
        response
            .text()
            .contains("startDate 2026-02-30 is not a calendar date (February 2026 has 28 days)."),
        "{}",
        response.text()
    );
}

/// The answer to a request whose TPP-Signature-Certificate is `value`.
async fn with_certificate(value: String) -> crate::helpers::TestResponse {
    let app = spawn_app().await;
    app.get(CUSTOMERS)
        .tamper(move |headers| {
            headers.insert(
                "tpp-signature-certificate",
                HeaderValue::from_str(&value).unwrap(),
            );
        })
        .send()
        .await
}

#[tokio::test]
async fn a_garbage_certificate_is_blamed_on_its_likely_cause_not_the_url_safe_alphabet() {
    let response = with_certificate("hello_world".into()).await;
    response.assert_refused(400, "FORMAT_ERROR", Some("TPP-Signature-Certificate"));
    let text = response.text();
    assert!(
        text.contains("TPP-Signature-Certificate is not base64: '_' at offset 5"),
        "{text}"
    );
    assert!(text.contains("not the certificate at all"), "{text}");
    assert!(!text.contains("URL-safe"), "{text}");
}

#[tokio::test]
async fn a_certificate_in_the_url_safe_alphabet_or_cut_at_a_line_break_is_told_so() {
    let pem =
        std::fs::read_to_string(crate::helpers::fixture_dir("aisp").join("cert.pem")).unwrap();
    let der = xs2a_core::signing::signer::pem_to_der(&pem).unwrap();
    let url_safe = base64::engine::general_purpose::URL_SAFE.encode(&der);
    let response = with_certificate(url_safe).await;
    response.assert_refused(400, "FORMAT_ERROR", Some("TPP-Signature-Certificate"));
    assert!(
        response.text().contains("the URL-safe alphabet"),
        "{}",
        response.text()
    );

    // A PEM pasted into a header keeps only its first line.
    let response = with_certificate("-----BEGIN CERTIFICATE-----".into()).await;
    response.assert_refused(400, "FORMAT_ERROR", Some("TPP-Signature-Certificate"));
    assert!(
        response.text().contains("cut at a line break"),
        "{}",
        response.text()
    );
}
