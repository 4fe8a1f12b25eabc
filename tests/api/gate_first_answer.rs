//! Every problem in the first answer (issue 38): a missing header does not hide the checks that can
//! still run, an untrusted or role-less certificate still lends its key to keyId, algorithm and
//! signature, each problem is one ERROR (the signing string rides in the signature's ERROR), and the
//! first ERROR says which other steps passed and which could not be checked, and why. The production
//! profile answers with the first problem alone, as before.

use crate::helpers::{spawn_app, spawn_app_with, test_config, TestApp, TestResponse};
use reqwest::header::HeaderValue;
use serde_json::Value;
use xs2a_core::bank::rehearsal::Profile;
use xs2a_core::signing::signer::SignOptions;

const CUSTOMERS: &str = "/v1/sandbox/customers";

/// (code, path, text) of each ERROR, in order.
fn errors(response: &TestResponse) -> Vec<(String, String, String)> {
    messages(&response.body, "ERROR")
}

fn messages(body: &Value, category: &str) -> Vec<(String, String, String)> {
    body["tppMessages"]
        .as_array()
        .unwrap_or_else(|| panic!("no tppMessages in {body}"))
        .iter()
        .filter(|m| m["category"] == category)
        .map(|m| {
            let field = |name: &str| m[name].as_str().unwrap_or_default().to_owned();
            (field("code"), field("path"), field("text"))
        })
        .collect()
}

/// The request of the first trial: no Date, the algorithm named `SHA-256`, and `date` left out of
/// the signed headers; the certificate, keyId, Digest (none: a GET) and signature are right.
async fn no_date_sha_256_date_unsigned(app: &TestApp) -> TestResponse {
    app.get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(vec!["(request-target)".into(), "x-request-id".into()]),
            ..SignOptions::default()
        })
        .tamper(|headers| {
            headers.remove("date");
            let signature = headers["signature"].to_str().unwrap().to_owned();
            let renamed = signature.replace("algorithm=\"rsa-sha256\"", "algorithm=\"SHA-256\"");
            assert_ne!(signature, renamed, "the signer names rsa-sha256");
            headers.insert("signature", HeaderValue::from_str(&renamed).unwrap());
        })
        .send()
        .await
}

#[tokio::test]
async fn a_request_without_date_names_all_three_problems_and_the_steps_that_passed() {
    let app = spawn_app().await;
    let response = no_date_sha_256_date_unsigned(&app).await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("Date"));
    let errors = errors(&response);
    // Two ERRORs, one per problem: the missing Date, and date not signed.
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(
        (errors[1].0.as_str(), errors[1].1.as_str()),
        ("BAD_REQUEST", "Signature")
    );
    assert!(
        errors[1].2.contains("at step 'signed headers'") && errors[1].2.contains("'date'"),
        "{errors:#?}"
    );
    // The third, the algorithm's name, is accepted with a WARNING under the sandbox profile.
    let warnings = messages(&response.body, "WARNING");
    assert!(
        warnings.iter().any(|w| w.2.contains("'SHA-256'")),
        "{warnings:#?}"
    );
    // The first ERROR says what passed and what could not be checked.
    let first = &errors[0].2;
    assert!(
        first.contains(
            "Other steps: certificate, signature header, keyId, algorithm, digest and signature passed; \
             date could not be checked because Date is missing."
        ),
        "{first}"
    );
}

#[tokio::test]
async fn a_missing_date_that_was_signed_leaves_the_signature_unchecked_and_says_why() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|headers| drop(headers.remove("date")))
        .send()
        .await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("Date"));
    let errors = errors(&response);
    assert_eq!(errors.len(), 1, "one problem, one ERROR: {errors:#?}");
    assert!(
        errors[0]
            .2
            .contains("date and signature could not be checked because Date is missing"),
        "{errors:#?}"
    );
    assert!(
        errors[0].2.contains(
            "certificate, signature header, keyId, algorithm, signed headers and digest passed"
        ),
        "{errors:#?}"
    );
}

#[tokio::test]
async fn a_missing_certificate_still_has_the_signature_header_and_digest_checked() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|headers| drop(headers.remove("tpp-signature-certificate")))
        .send()
        .await;
    response.assert_refused(
        400,
        "HTTP_HEADER_REQUIRED",
        Some("TPP-Signature-Certificate"),
    );
    let first = &errors(&response)[0].2;
    assert!(
        first.contains("because TPP-Signature-Certificate is missing")
            && first.contains("signature header, signed headers and digest passed"),
        "{first}"
    );
}

/// A request signed with the untrusted fixture's own key, its keyId as given.
async fn signed_by_the_untrusted_tpp(app: &TestApp, key_id: Option<String>) -> TestResponse {
    app.get(CUSTOMERS)
        .signed_by("untrusted")
        .options(SignOptions {
            key_id,
            ..SignOptions::default()
        })
        .send()
        .await
}

#[tokio::test]
async fn an_untrusted_certificates_key_id_and_signature_are_still_checked() {
    let app = spawn_app().await;
    let right = signed_by_the_untrusted_tpp(&app, None).await;
    right.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    let right_errors = errors(&right);
    assert_eq!(right_errors.len(), 1, "{right_errors:#?}");
    assert!(
        right_errors[0].2.contains("Every other step passed."),
        "keyId, algorithm and signature checked with the certificate's own key: {right_errors:#?}"
    );

    let wrong_key_id = "SN=1,CA=CN=Untrusted Test CA".to_owned();
    let wrong = signed_by_the_untrusted_tpp(&app, Some(wrong_key_id)).await;
    wrong.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    let wrong_errors = errors(&wrong);
    assert_eq!(wrong_errors.len(), 2, "{wrong_errors:#?}");
    assert!(
        wrong_errors[1].2.contains("at step 'keyId'"),
        "{wrong_errors:#?}"
    );
    assert_ne!(
        right.body, wrong.body,
        "a wrong keyId and a right one answer differently"
    );
}

#[tokio::test]
async fn a_role_less_certificate_still_has_its_signature_checked() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .signed_by("no-roles")
        .tamper(|headers| {
            drop(headers.insert(
                "x-request-id",
                HeaderValue::from_static("changed-after-signing"),
            ))
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
    let errors = errors(&response);
    assert!(errors[0].2.contains("no PSD2 roles"), "{errors:#?}");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[1].2.contains("at step 'signature'")
            && errors[1].2.contains("x-request-id: changed-after-signing"),
        "{errors:#?}"
    );
}

#[tokio::test]
async fn a_signature_refusal_is_one_error_that_carries_the_signing_string() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|headers| {
            drop(headers.insert(
                "x-request-id",
                HeaderValue::from_static("changed-after-signing"),
            ))
        })
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
    let errors = errors(&response);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let text = &errors[0].2;
    assert!(text.contains("Every other step passed."), "{text}");
    let (_, signing_string) = text
        .split_once("Signing string computed by the sandbox (lines joined by \\n): ")
        .unwrap_or_else(|| panic!("no signing string in {text}"));
    assert!(
        signing_string.starts_with("(request-target): get /v1/sandbox/customers\\n"),
        "{signing_string}"
    );
    assert!(
        signing_string.contains("x-request-id: changed-after-signing"),
        "{signing_string}"
    );
}

#[tokio::test]
async fn the_production_profile_answers_with_the_first_problem_alone_as_before() {
    let mut config = test_config();
    config.profile = Some(Profile::Production);
    let app = spawn_app_with(config).await;
    let response = no_date_sha_256_date_unsigned(&app).await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("Date"));
    let errors = errors(&response);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0]
            .2
            .starts_with("Request signature check failed at step 'required headers': The header Date is required on every /v1 request."),
        "{errors:#?}"
    );
    assert!(!errors[0].2.contains("Other steps"), "{errors:#?}");
}

#[tokio::test]
async fn the_inspector_shows_the_steps_that_could_not_be_checked_with_the_reason() {
    let app = spawn_app().await;
    let mut watch = app.watch_traffic();
    no_date_sha_256_date_unsigned(&app).await;
    let exchange = watch.exchange(&app, |s| s.path == CUSTOMERS).await;
    let steps = exchange["gate"]["steps"].as_array().unwrap();
    let outcome = |name: &str| {
        let step = steps
            .iter()
            .find(|s| s["step"] == name)
            .unwrap_or_else(|| panic!("no step {name} in {exchange}"));
        (
            step["outcome"].as_str().unwrap().to_owned(),
            step["detail"].as_str().unwrap_or_default().to_owned(),
        )
    };
    assert_eq!(outcome("required headers").0, "failed");
    assert_eq!(
        outcome("date"),
        (
            "skipped".to_owned(),
            "could not be checked because Date is missing".to_owned()
        )
    );
    for passed in ["certificate", "keyId", "algorithm", "digest", "signature"] {
        assert_eq!(outcome(passed).0, "passed", "{passed}: {exchange}");
    }
    assert_eq!(outcome("signed headers").0, "failed");
    assert_eq!(exchange["failedStep"], "required headers");
}
