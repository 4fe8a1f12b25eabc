//! Requests signed by an independent implementation, verified by the real gate: the script in
//! tests/independent-signer/ builds the signing string, the Digest and the keyId from the bank's rules
//! (docs/interface.md#signing-every-request) with Python's standard library and signs with the `openssl` command,
//! sharing no code with the sandbox. Round trips through the crate's own signer cannot show that the rules are read
//! rightly; these can. python3 and openssl are required: without them these tests fail, they never skip.

use crate::helpers::{fixture_dir, spawn_app, TestApp, TestResponse};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// Runs the independent signer for one request; the headers it prints, and its signing string.
fn independent_signature(
    app: &TestApp,
    method: &str,
    target: &str,
    body: &str,
) -> (Vec<(String, String)>, String) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/independent-signer/sign.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(["--cert-dir", fixture_dir("aisp-pisp").to_str().unwrap()])
        .args(["--method", method, "--target", target, "--body", body])
        .args(["--now", &app.state.clock.now().unix_timestamp().to_string()])
        .output()
        .expect("python3 runs (it is required: these tests check the gate against an independent signer)");
    assert!(
        output.status.success(),
        "the independent signer failed (is openssl installed?): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: Value = serde_json::from_slice(&output.stdout).expect("the signer prints JSON");
    let headers = printed["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().unwrap().to_owned(),
                pair[1].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (
        headers,
        printed["signing_string"].as_str().unwrap().to_owned(),
    )
}

async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &str,
) -> TestResponse {
    let mut request = app
        .client
        .request(method.parse().unwrap(), format!("{}{path}", app.base));
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let response = request.body(body.to_owned()).send().await.unwrap();
    let response = TestResponse::read(response).await;
    response.check_documented(method, path);
    response
}

const CONTACT: &str = "/v1/tpp-dialogue/contact";
const BODY: &str = r#"{"email":"ops@tpp.no"}"#;

#[tokio::test]
async fn a_request_signed_by_an_independent_signer_is_accepted_without_warnings() {
    let app = spawn_app().await;
    let (headers, signing_string) = independent_signature(&app, "PUT", CONTACT, BODY);
    assert!(signing_string.starts_with("(request-target): put /v1/tpp-dialogue/contact\ndate: "));
    assert!(signing_string.contains("\ndigest: SHA-256="));
    let response = send(&app, "PUT", CONTACT, &headers, BODY).await;
    response.assert_ok();
    assert!(response.warnings().is_empty(), "{:?}", response.warnings());

    let (headers, _) = independent_signature(&app, "GET", "/v1/sandbox/customers", "");
    assert!(headers.iter().all(|(name, _)| name != "Digest"));
    send(&app, "GET", "/v1/sandbox/customers", &headers, "")
        .await
        .assert_ok();
}

#[tokio::test]
async fn an_independently_signed_request_with_a_header_changed_after_signing_is_refused() {
    let app = spawn_app().await;
    let (mut headers, _) = independent_signature(&app, "PUT", CONTACT, BODY);
    let request_id = headers
        .iter_mut()
        .find(|(name, _)| name == "X-Request-ID")
        .unwrap();
    request_id.1 = "0b5c7e2a-1f3d-4c6b-8a9e-7d2f4e6a8c10".into();
    let response = send(&app, "PUT", CONTACT, &headers, BODY).await;
    response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
}

#[tokio::test]
async fn an_independently_signed_body_changed_after_signing_is_refused_for_its_digest() {
    let app = spawn_app().await;
    let (headers, _) = independent_signature(&app, "PUT", CONTACT, BODY);
    let response = send(&app, "PUT", CONTACT, &headers, r#"{"email":"evil@tpp.no"}"#).await;
    assert_eq!(response.status, 400, "{}", response.body);
    assert_eq!(response.path(), "Digest", "{}", response.body);
}
