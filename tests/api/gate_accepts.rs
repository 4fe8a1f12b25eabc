//! What real TPP clients do differently and the gate accepts: the RFC 2047 wrapper, (request-target)
//! present or absent, SHA-512, another header order, serial and issuer spelled differently (with warnings),
//! PEM armour, the bank's "UTC" dates (docs/reference/signed-requests.md#the-gate), Digest on a GET.

use crate::helpers::{spawn_app, tpp};
use axum::http::HeaderValue;
use serde_json::json;
use xs2a_core::signing::signer::{DigestAlgorithm, SignOptions};

const CUSTOMERS: &str = "/v1/sandbox/customers";

fn key_id_parts() -> (String, String) {
    let credentials = tpp("aisp-pisp");
    let (sn, ca) = credentials
        .key_id()
        .strip_prefix("SN=")
        .unwrap()
        .split_once(",CA=")
        .unwrap();
    (sn.to_owned(), ca.to_owned())
}

#[tokio::test]
async fn a_signature_in_an_rfc_2047_wrapper_is_accepted() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            rfc2047: true,
            ..Default::default()
        })
        .send()
        .await;
    response.assert_ok();
    assert!(response.warnings().is_empty(), "{:?}", response.warnings());
}

#[tokio::test]
async fn request_target_may_be_signed_or_left_out() {
    let app = spawn_app().await;
    app.get(CUSTOMERS).send().await.assert_ok();
    app.get(CUSTOMERS)
        .options(SignOptions {
            request_target: false,
            ..Default::default()
        })
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_sha_512_digest_is_accepted() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
        .options(SignOptions {
            digest: DigestAlgorithm::Sha512,
            ..Default::default()
        })
        .send()
        .await;
    response.assert_ok();
}

#[tokio::test]
async fn signed_headers_may_come_in_another_order() {
    let app = spawn_app().await;
    let order = ["x-request-id", "date", "(request-target)"]
        .map(String::from)
        .to_vec();
    app.get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(order),
            ..Default::default()
        })
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_digest_on_a_get_without_body_is_accepted() {
    let app = spawn_app().await;
    app.get(CUSTOMERS)
        .options(SignOptions {
            digest_without_body: true,
            ..Default::default()
        })
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_lower_case_serial_with_leading_zeros_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let (sn, ca) = key_id_parts();
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!("SN=00{},CA={ca}", sn.to_lowercase())),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_ok();
    assert!(!response.warnings().is_empty());
}

#[tokio::test]
async fn an_issuer_in_another_order_with_spaces_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let (sn, _) = key_id_parts();
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!(
                "SN={sn},CA=C=NO, O=xs2a-sandbox, CN=xs2a-sandbox%20Test%20CA"
            )),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_ok();
    assert!(!response.warnings().is_empty());
}

#[tokio::test]
async fn an_issuer_naming_only_some_attributes_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let (sn, _) = key_id_parts();
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!("SN={sn},CA=CN=xs2a-sandbox Test CA")),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_ok();
    let warnings = response.warnings().join(" ");
    assert!(
        warnings.contains("leaves out the issuer's O=xs2a-sandbox, C=NO"),
        "{warnings}"
    );
}

#[tokio::test]
async fn a_pem_armoured_certificate_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| {
            let der = h["tpp-signature-certificate"].to_str().unwrap().to_owned();
            let pem = format!("-----BEGIN CERTIFICATE-----{der}-----END CERTIFICATE-----");
            h.insert(
                "tpp-signature-certificate",
                HeaderValue::from_str(&pem).unwrap(),
            );
        })
        .send()
        .await;
    response.assert_ok();
    assert!(
        response.warnings().iter().any(|w| w.contains("PEM")),
        "{:?}",
        response.warnings()
    );
}

#[tokio::test]
async fn a_date_written_with_utc_as_in_spec_is_accepted() {
    let app = spawn_app().await;
    let date =
        xs2a_core::signing::http_date::format(crate::helpers::TEST_NOW).replace("GMT", "UTC");
    assert!(date.ends_with(" UTC"));
    let response = app.get(CUSTOMERS).header("Date", &date).send().await;
    response.assert_ok();
}

#[tokio::test]
async fn a_carried_but_unsigned_psu_id_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(vec!["date".into(), "x-request-id".into()]),
            ..Default::default()
        })
        .header("PSU-ID", "3f1b8a48-5d5e-4a7c-9a4f-2d9c6c1e0b11")
        .send()
        .await;
    response.assert_ok();
    assert!(
        response.warnings().iter().any(|w| w.contains("psu-id")),
        "{:?}",
        response.warnings()
    );
}

#[tokio::test]
async fn the_verified_certificate_is_cached_by_its_der_hash() {
    let app = spawn_app().await;
    for _ in 0..3 {
        app.get(CUSTOMERS).send().await.assert_ok();
    }
    app.get(CUSTOMERS)
        .signed_by("aisp")
        .send()
        .await
        .assert_ok();
    assert_eq!(app.state.verifier.cached_certificates(), 2);
}
