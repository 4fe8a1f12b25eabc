//! The OpenAPI document: served, written by the CLI, well formed, and able to catch a drifted answer.
//! (Every answer the other API tests read is checked against it by the helpers: `openapi_check`.)

use crate::helpers::*;
use serde_json::{json, Value};

#[tokio::test]
async fn the_document_is_served_at_openapi_json_and_matches_the_cli() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(format!("{}/openapi.json", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let served: Value = response.json().await.unwrap();
    assert_eq!(served["openapi"], "3.1.0");
    assert_eq!(&served, xs2a_http::api::openapi::document());
    let written = std::process::Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
        .arg("openapi")
        .output()
        .unwrap();
    assert!(written.status.success());
    let written: Value = serde_json::from_slice(&written.stdout).unwrap();
    assert_eq!(written, served);
}

#[test]
fn every_reference_resolves_and_every_operation_has_an_id_and_an_answer() {
    let document = xs2a_http::api::openapi::document();
    let text = document.to_string();
    for (at, _) in text.match_indices("\"$ref\":\"") {
        let rest = &text[at + 8..];
        let pointer = &rest[..rest.find('"').unwrap()];
        assert!(
            document.pointer(pointer.trim_start_matches('#')).is_some(),
            "dangling {pointer}"
        );
    }
    let mut ids = std::collections::HashSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap();
            assert!(ids.insert(id.to_owned()), "operationId {id} twice");
            let responses = operation["responses"].as_object().unwrap();
            // The consent starts answer 401 with scaRedirect by design; everything else has a success.
            let always_sca = path.ends_with("consents") && method == "post";
            assert!(
                always_sca
                    || responses
                        .keys()
                        .any(|s| s.starts_with('2') || s.starts_with('3')),
                "{method} {path} declares no success"
            );
        }
    }
}

#[test]
fn the_check_catches_an_answer_that_drifted_from_the_document() {
    use crate::openapi_check::check;
    let good = json!({"status": "UP", "now": "2026-11-24T10:00:00Z"}).to_string();
    check(
        "GET",
        "/health",
        200,
        Some("application/json"),
        good.as_bytes(),
    );
    let drifted = json!({"state": "UP"}).to_string();
    let caught = std::panic::catch_unwind(|| {
        check(
            "GET",
            "/health",
            200,
            Some("application/json"),
            drifted.as_bytes(),
        )
    });
    assert!(
        caught.is_err(),
        "a body without the declared fields must fail"
    );
    let undeclared = std::panic::catch_unwind(|| {
        check(
            "GET",
            "/health",
            418,
            Some("application/json"),
            good.as_bytes(),
        )
    });
    assert!(undeclared.is_err(), "an undeclared status must fail");
    let unknown = std::panic::catch_unwind(|| {
        check(
            "GET",
            "/no/such/thing",
            200,
            Some("application/json"),
            good.as_bytes(),
        )
    });
    assert!(unknown.is_err(), "an undocumented path must fail");
}

#[test]
fn platform_and_workbench_prefixes_map_to_the_documented_paths() {
    use crate::openapi_check::template_for;
    assert_eq!(
        template_for("/api-sandbox/v1/accounts/a1/balances"),
        Some("/v1/accounts/{accountId}/balances")
    );
    assert_eq!(
        template_for("/v1/payments/instant-norwegian-credit-transfers-straks/fee-information"),
        Some("/v1/payments/instant-norwegian-credit-transfers-straks/fee-information")
    );
    assert_eq!(
        template_for("/v1/payments/norwegian-domestic-credit-transfers/p1/status"),
        Some("/v1/{service}/{product}/{paymentId}/status")
    );
}
