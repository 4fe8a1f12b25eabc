//! Every problem of a request in one answer (issue 29): the refusal keeps its status and first ERROR (the
//! gate's order is the contract), and under the sandbox profile the other steps that fail follow it as
//! further ERRORs, so a client fixes them in one round trip; the production profile answers with the
//! first only, as the bank does. The inspector shows each failed step.

use crate::helpers::{spawn_app, spawn_app_with, test_config, TestApp};
use serde_json::{json, Value};
use xs2a_core::bank::rehearsal::Profile;
use xs2a_core::signing::signer::SignOptions;

const CUSTOMERS: &str = "/v1/sandbox/customers";

/// A POST with three independent faults: the algorithm named `rsa-sha512`, Date carried but not signed, and
/// a Digest over other bytes than those sent (put in after signing, so the signature fails as well).
async fn three_faults(app: &TestApp) -> crate::helpers::TestResponse {
    app.post(
        CUSTOMERS,
        &json!({"customerNumber": "914000009", "name": "Tre Feil AS", "type": "corporate"}),
    )
    .options(SignOptions {
        signed_headers: Some(vec!["digest".into(), "x-request-id".into()]),
        ..SignOptions::default()
    })
    .tamper(|headers| {
        let signature = headers["signature"].to_str().unwrap().to_owned();
        let renamed = signature.replace("algorithm=\"rsa-sha256\"", "algorithm=\"rsa-sha512\"");
        assert_ne!(signature, renamed, "the signer names rsa-sha256");
        headers.insert("signature", renamed.parse().unwrap());
        headers.insert(
            "digest",
            "SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE="
                .parse()
                .unwrap(),
        );
    })
    .send()
    .await
}

fn errors(body: &Value) -> Vec<(String, String)> {
    body["tppMessages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["category"] == "ERROR")
        .map(|m| {
            (
                m["code"].as_str().unwrap().to_owned(),
                m["text"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn step_named(errors: &[(String, String)], step: &str) -> bool {
    errors
        .iter()
        .any(|(_, text)| text.contains(&format!("at step '{step}'")))
}

#[tokio::test]
async fn a_request_with_three_faults_gets_all_three_named_in_one_answer() {
    let app = spawn_app().await;
    let mut watch = app.watch_traffic();
    let response = three_faults(&app).await;
    assert_eq!(response.status, 400, "{}", response.body);
    let errors = errors(&response.body);
    // The first ERROR is the refusal as before: the first failing step in the gate's order.
    assert!(
        errors[0]
            .1
            .starts_with("Request signature check failed at step 'algorithm'"),
        "{errors:?}"
    );
    assert!(step_named(&errors[1..], "signed headers"), "{errors:?}");
    assert!(step_named(&errors[1..], "digest"), "{errors:?}");

    // The inspector shows each of them failed, the first as the refusal's step.
    let verdict = watch.exchange(&app, |s| s.method == "POST").await;
    assert_eq!(verdict["failedStep"], "algorithm", "{verdict}");
    let failed: Vec<&str> = verdict["gate"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["outcome"] == "failed")
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    // The Digest was changed after signing, so the signature over what was sent fails too: it is
    // checked whatever the signed-header list's verdict (issue 38).
    assert_eq!(
        failed,
        ["algorithm", "signed headers", "digest", "signature"],
        "{verdict}"
    );
}

#[tokio::test]
async fn the_production_profile_names_the_first_problem_only() {
    let mut config = test_config();
    config.profile = Some(Profile::Production);
    let app = spawn_app_with(config).await;
    let response = three_faults(&app).await;
    assert_eq!(response.status, 400, "{}", response.body);
    let errors = errors(&response.body);
    assert!(
        errors[0]
            .1
            .starts_with("Request signature check failed at step 'algorithm'"),
        "{errors:?}"
    );
    assert!(!step_named(&errors, "signed headers"), "{errors:?}");
    assert!(!step_named(&errors, "digest"), "{errors:?}");
}

#[tokio::test]
async fn a_request_with_one_fault_is_answered_as_before() {
    let app = spawn_app().await;
    let response = app
        .get(CUSTOMERS)
        .tamper(|h| drop(h.remove("digest")))
        .options(SignOptions {
            digest_without_body: true,
            ..SignOptions::default()
        })
        .send()
        .await;
    assert_eq!(response.status, 400, "{}", response.body);
    let errors = errors(&response.body);
    let failing: Vec<_> = errors
        .iter()
        .filter(|(_, text)| text.starts_with("Request signature check failed"))
        .collect();
    assert_eq!(failing.len(), 1, "{errors:?}");
}
