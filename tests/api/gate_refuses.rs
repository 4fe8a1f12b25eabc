//! Every way the signed-request gate refuses a request: 400, the code, the header at fault, and a text
//! that says which step failed.

use crate::helpers::{fixture_dir, spawn_app, tpp, TEST_NOW};
use axum::http::HeaderValue;
use serde_json::json;
use time::Duration;
use xs2a_core::signing::signer::SignOptions;

const CUSTOMERS: &str = "/v1/sandbox/customers";

#[tokio::test]
async fn a_request_without_signature_is_refused_as_header_required() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| drop(h.remove("signature")))
        .send()
        .await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("Signature"));
}

#[tokio::test]
async fn a_completely_unsigned_request_is_refused() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .unsigned()
        .header("X-Request-ID", "1")
        .send()
        .await;
    assert_eq!(response.status, 400);
    assert_eq!(response.code(), "HTTP_HEADER_REQUIRED");
}

#[tokio::test]
async fn each_required_header_is_named_when_missing() {
    let app = spawn_app().await;
    for (header, path) in [
        ("x-request-id", "X-Request-ID"),
        ("date", "Date"),
        ("tpp-signature-certificate", "TPP-Signature-Certificate"),
    ] {
        let response = app
            .get(CUSTOMERS)
            .tamper(move |h| drop(h.remove(header)))
            .send()
            .await;
        response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some(path));
    }
}

#[tokio::test]
async fn a_body_without_digest_is_refused() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
        .tamper(|h| drop(h.remove("digest")))
        .send()
        .await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("Digest"));
}

#[tokio::test]
async fn a_date_more_than_60_seconds_off_either_way_is_refused() {
    let app = spawn_app().await;
    for offset in [61, -61, 3600] {
        let response = app
            .get(CUSTOMERS)
            .signed_at(TEST_NOW + Duration::seconds(offset))
            .send()
            .await;
        response.assert_refused(400, "BAD_REQUEST", Some("Date"));
        assert!(
            response.text().contains("step 'date'"),
            "{}",
            response.text()
        );
    }
    for offset in [60, -60] {
        app.get(CUSTOMERS)
            .signed_at(TEST_NOW + Duration::seconds(offset))
            .send()
            .await
            .assert_ok();
    }
}

#[tokio::test]
async fn a_date_that_is_not_rfc_7231_is_refused_as_format_error() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(vec!["date".into()]),
            ..Default::default()
        })
        .tamper(|h| drop(h.insert("date", HeaderValue::from_static("2026-06-01T12:00:00Z"))))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("Date"));
}

#[tokio::test]
async fn a_certificate_header_that_is_not_base64_der_is_refused() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| {
            drop(h.insert(
                "tpp-signature-certificate",
                HeaderValue::from_static("not a certificate"),
            ))
        })
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("TPP-Signature-Certificate"));
}

#[tokio::test]
async fn a_certificate_from_an_untrusted_ca_is_refused() {
    let app = spawn_app().await;
    let response = app.get(CUSTOMERS).signed_by("untrusted").send().await;
    response.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    assert!(
        response.text().contains("not trusted"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn an_expired_certificate_is_refused_with_its_validity() {
    let app = spawn_app().await;
    let response = app.get(CUSTOMERS).signed_by("expired").send().await;
    response.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    assert!(
        response.text().contains("valid from"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_certificate_without_psd2_roles_is_refused() {
    let app = spawn_app().await;
    let response = app.get(CUSTOMERS).signed_by("no-roles").send().await;
    response.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    assert!(
        response.text().contains("PSD2 roles"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_malformed_signature_header_is_refused_as_format_error() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| {
            drop(h.insert(
                "signature",
                HeaderValue::from_static("keyId=\"SN=1,CA=CN=x\",algorithm=\"rsa-sha256\""),
            ))
        })
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("Signature"));
    assert!(response.text().contains("step 'signature header'"));
}

#[tokio::test]
async fn a_key_id_naming_another_serial_is_refused() {
    let app = spawn_app().await;
    let issuer = tpp("aisp-pisp")
        .key_id()
        .split_once(",CA=")
        .unwrap()
        .1
        .to_owned();
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!("SN=1234ABCD,CA={issuer}")),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("keyId SN"), "{}", response.text());
}

#[tokio::test]
async fn a_key_id_with_the_decimal_serial_gets_a_hint() {
    let app = spawn_app().await;
    let credentials = tpp("aisp-pisp");
    let (sn, issuer) = credentials
        .key_id()
        .strip_prefix("SN=")
        .unwrap()
        .split_once(",CA=")
        .unwrap();
    let decimal = u128::from_str_radix(sn, 16)
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "0".into());
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!("SN={decimal},CA={issuer}")),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("decimal"), "{}", response.text());
}

#[tokio::test]
async fn a_key_id_naming_another_issuer_is_refused() {
    let app = spawn_app().await;
    let sn = tpp("aisp-pisp")
        .key_id()
        .split_once(",CA=")
        .unwrap()
        .0
        .to_owned();
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!("{sn},CA=CN=Other CA,O=xs2a-sandbox,C=NO")),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("keyId CA"), "{}", response.text());
}

#[tokio::test]
async fn an_algorithm_other_than_rsa_sha256_is_refused() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| {
            let value = h["signature"]
                .to_str()
                .unwrap()
                .replace("rsa-sha256", "ecdsa-sha256");
            h.insert("signature", HeaderValue::from_str(&value).unwrap());
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("step 'algorithm'"));
}

#[tokio::test]
async fn signing_a_header_the_request_lacks_is_refused() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(vec!["date".into(), "psu-id".into()]),
            ..Default::default()
        })
        .header("PSU-ID", "3f1b8a48-5d5e-4a7c-9a4f-2d9c6c1e0b11")
        .tamper(|h| drop(h.remove("psu-id")))
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("psu-id"), "{}", response.text());
}

#[tokio::test]
async fn a_signature_that_does_not_cover_date_is_refused() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(vec!["x-request-id".into()]),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("'date'"), "{}", response.text());
}

#[tokio::test]
async fn a_body_whose_digest_is_not_signed_is_refused() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
        .options(SignOptions {
            signed_headers: Some(vec!["date".into(), "x-request-id".into()]),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(response.text().contains("'digest'"), "{}", response.text());
}

#[tokio::test]
async fn a_digest_that_does_not_match_the_body_is_refused_with_the_right_value() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
        .with_body_after_signing(br#"{"email":"evil@tpp.no"}"#)
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Digest"));
    assert!(response.text().contains("SHA-256="), "{}", response.text());
}

#[tokio::test]
async fn a_signature_over_other_values_is_refused_showing_the_signing_string() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| {
            drop(h.insert(
                "x-request-id",
                HeaderValue::from_static("changed-after-signing"),
            ))
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    let text = response.text();
    assert!(text.contains("step 'signature'"), "{text}");
    assert!(
        text.contains("Signing string computed by the sandbox"),
        "{text}"
    );
    assert!(
        text.contains("x-request-id: changed-after-signing"),
        "{text}"
    );
    assert!(
        text.contains("(request-target): get /v1/sandbox/customers"),
        "{text}"
    );
}

#[tokio::test]
async fn a_certificate_swapped_after_signing_is_caught_at_the_key_id() {
    let app = spawn_app().await;
    let other = tpp("aisp");
    let response = app
        .get(CUSTOMERS)
        .tamper(move |h| {
            h.insert(
                "tpp-signature-certificate",
                HeaderValue::from_str(&other.certificate_header()).unwrap(),
            );
        })
        .send()
        .await;
    // The keyId still names the aisp-pisp certificate, so the keyId step catches it first.
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(
        response.text().contains("step 'keyId'"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_signature_made_with_another_key_fails_at_the_signature_step() {
    let app = spawn_app().await;
    let claimed = tpp("aisp-pisp");
    let key_id = claimed.key_id().to_owned();
    // Signed with the aisp key while naming and sending the aisp-pisp certificate.
    let response = app
        .get(CUSTOMERS)
        .with_signer(tpp("aisp"))
        .options(SignOptions {
            key_id: Some(key_id),
            ..Default::default()
        })
        .tamper(move |h| {
            h.insert(
                "tpp-signature-certificate",
                HeaderValue::from_str(&claimed.certificate_header()).unwrap(),
            );
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    assert!(
        response.text().contains("step 'signature'"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_ca_given_with_trust_ca_is_trusted() {
    let mut config = crate::helpers::test_config();
    config
        .trust_ca_pems
        .push(std::fs::read_to_string(fixture_dir("untrusted-ca").join("cert.pem")).unwrap());
    let app = crate::helpers::spawn_app_with(config).await;
    app.get(CUSTOMERS)
        .signed_by("untrusted")
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_required_header_with_non_ascii_bytes_is_a_format_error() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| {
            drop(h.insert(
                "x-request-id",
                HeaderValue::from_bytes(b"r\xe6ksmo").unwrap(),
            ))
        })
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("X-Request-ID"));
}

#[tokio::test]
async fn a_malformed_digest_is_a_format_error_at_digest() {
    let app = spawn_app().await;
    for digest in ["MD5=abc", "SHA-256=***", "SHA-256"] {
        let response = app
            .put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
            .tamper(move |h| drop(h.insert("digest", HeaderValue::from_static(digest))))
            .send()
            .await;
        // The signature covers digest, so the digest step must come first to name the real problem.
        response.assert_refused(400, "FORMAT_ERROR", Some("Digest"));
    }
}

#[tokio::test]
async fn a_malformed_rfc_2047_wrapper_is_a_format_error() {
    let app = spawn_app().await;
    for wrapped in ["=?utf-8?B?***?=", "=?koi8-r?B?YQ==?=", "=?utf-8?X?abc?="] {
        let response = app
            .get(CUSTOMERS)
            .tamper(move |h| drop(h.insert("signature", HeaderValue::from_static(wrapped))))
            .send()
            .await;
        response.assert_refused(400, "FORMAT_ERROR", Some("Signature"));
    }
}

#[tokio::test]
async fn unknown_duplicate_or_missing_signature_parts_are_format_errors() {
    let app = spawn_app().await;
    let cases: [fn(&str) -> String; 4] = [
        |s| format!("{s},nonce=\"x\""),
        |s| format!("{s},algorithm=\"rsa-sha256\""),
        |s| s.replace("keyId=", "keyID_=").replace("keyID_", "kid"),
        |s| s.replace("signature=\"", "signature=\"***"),
    ];
    for change in cases {
        let response = app
            .get(CUSTOMERS)
            .tamper(move |h| {
                let value = change(h["signature"].to_str().unwrap());
                h.insert("signature", HeaderValue::from_str(&value).unwrap());
            })
            .send()
            .await;
        response.assert_refused(400, "FORMAT_ERROR", Some("Signature"));
    }
}

#[tokio::test]
async fn a_header_listed_twice_is_a_format_error() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(vec!["date".into(), "date".into()]),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("Signature"));
    assert!(response.text().contains("twice"), "{}", response.text());
}

#[tokio::test]
async fn a_key_id_without_sn_or_ca_is_a_format_error() {
    let app = spawn_app().await;
    for key_id in ["CA=CN=x", "SN=1A2B", "serial=1,issuer=x"] {
        let response = app
            .get(CUSTOMERS)
            .options(SignOptions {
                key_id: Some(key_id.into()),
                ..Default::default()
            })
            .send()
            .await;
        response.assert_refused(400, "FORMAT_ERROR", Some("Signature"));
    }
}

#[tokio::test]
async fn a_key_id_ca_naming_an_attribute_the_issuer_lacks_is_refused() {
    let app = spawn_app().await;
    let sn = tpp("aisp-pisp")
        .key_id()
        .split_once(",CA=")
        .unwrap()
        .0
        .to_owned();
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            key_id: Some(format!(
                "{sn},CA=CN=xs2a-sandbox Test CA,O=xs2a-sandbox,OU=Payments,C=NO"
            )),
            ..Default::default()
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
}

#[tokio::test]
async fn a_certificate_not_yet_valid_at_the_sandbox_clock_is_refused() {
    let app = spawn_app().await;
    app.state
        .clock
        .set(time::macros::datetime!(2024-06-01 12:00 UTC));
    let response = app.get(CUSTOMERS).send().await;
    response.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    assert!(
        response.text().contains("valid from"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn pem_armour_with_a_wrong_label_or_no_end_is_a_format_error() {
    let app = spawn_app().await;
    for pem in [
        "-----BEGIN PRIVATE KEY-----AAAA-----END PRIVATE KEY-----",
        "-----BEGIN CERTIFICATE-----MIIB",
    ] {
        let response = app
            .get(CUSTOMERS)
            .tamper(move |h| {
                drop(h.insert("tpp-signature-certificate", HeaderValue::from_static(pem)))
            })
            .send()
            .await;
        response.assert_refused(400, "FORMAT_ERROR", Some("TPP-Signature-Certificate"));
    }
}
