//! Who may do what (docs/reference/access.md): in shared mode the bank-side controls need the operator
//! credential while the mock-data API stays open to signed TPPs; the bundled test CA is trusted only when
//! the operator names it; in loopback mode everything stays open. And the simulated clock survives a
//! restart.

use crate::helpers::{spawn_app, spawn_app_with, test_config, TestApp};
use serde_json::{json, Value};
use xs2a_core::bank::state::AccessMode;
use xs2a_http::app::{App, AppConfig, DataDir};

fn shared() -> AppConfig {
    AppConfig {
        access: AccessMode::Shared,
        trust_test_ca: Some(true),
        ..test_config()
    }
}

/// Every bank-side control, with a body that is valid where one is needed.
fn controls(account: &str) -> Vec<(&'static str, String, Option<Value>)> {
    vec![
        ("POST", "/v1/sandbox/initialize".into(), Some(json!({}))),
        ("GET", "/v1/sandbox/clock".into(), None),
        (
            "PUT",
            "/v1/sandbox/clock".into(),
            Some(json!({"advance": "PT1M"})),
        ),
        ("GET", "/v1/sandbox/batch-runs".into(), None),
        ("POST", "/v1/sandbox/batch-runs".into(), Some(json!({}))),
        ("GET", "/v1/sandbox/payments".into(), None),
        ("GET", "/v1/sandbox/consents".into(), None),
        ("GET", "/v1/sandbox/settings".into(), None),
        (
            "PUT",
            "/v1/sandbox/settings".into(),
            Some(json!({"reproduceDomesticReadBeforeApprovalIssue": true})),
        ),
        (
            "PUT",
            "/v1/sandbox/payments/no-such-payment/forced-outcome".into(),
            Some(json!({"outcome": "RJCT"})),
        ),
        (
            "POST",
            "/v1/sandbox/consents/revoke".into(),
            Some(json!({"customerNumber": "14838510036"})),
        ),
        (
            "PUT",
            format!("/v1/sandbox/accounts/{account}/payment-permission"),
            Some(json!({"paymentsAllowed": true})),
        ),
    ]
}

async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    body: Option<Value>,
    tpp: &str,
    operator: bool,
) -> (u16, Value) {
    let mut request = app.request(method.parse().unwrap(), path).signed_by(tpp);
    if let Some(body) = &body {
        request = request.json(body);
    }
    if operator {
        request = request.header(
            "Authorization",
            &format!("Bearer {}", app.app.operator_token()),
        );
    }
    let response = request.send().await;
    (response.status, response.body)
}

async fn first_account(app: &TestApp) -> String {
    crate::pis_support::customers(app).await[0]["accounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn in_shared_mode_every_control_needs_the_operator_and_the_mock_data_stays_open() {
    let app = spawn_app_with(shared()).await;
    let account = first_account(&app).await;
    for tpp in ["aisp-pisp", "pisp"] {
        for (method, path, body) in controls(&account) {
            let (status, answer) = send(&app, method, &path, body, tpp, false).await;
            assert_eq!(status, 403, "{tpp}: {method} {path}: {answer}");
            assert_eq!(
                answer["tppMessages"][0]["code"], "FORBIDDEN",
                "{method} {path}"
            );
        }
    }
    for (method, path, body) in controls(&account) {
        let (status, answer) = send(&app, method, &path, body, "aisp-pisp", true).await;
        assert_ne!(status, 403, "the operator may: {method} {path}: {answer}");
        assert!(status < 500, "{method} {path}: {answer}");
    }
    let (status, _) = send(&app, "GET", "/v1/sandbox/customers", None, "pisp", false).await;
    assert_eq!(status, 200, "the mock data stays open");
    let (status, _) = send(
        &app,
        "POST",
        "/v1/sandbox/customers",
        Some(json!({"customerNumber": "24059812345", "name": "Delt Dag", "type": "private"})),
        "aisp",
        false,
    )
    .await;
    assert!(
        status == 201 || status == 400,
        "mock data writes are a TPP's: {status}"
    );
}

#[tokio::test]
async fn in_loopback_mode_the_controls_stay_open_to_signed_tpps() {
    let app = spawn_app().await;
    let account = first_account(&app).await;
    for (method, path, body) in controls(&account) {
        let (status, answer) = send(&app, method, &path, body, "pisp", false).await;
        assert_ne!(status, 403, "{method} {path}: {answer}");
    }
}

#[tokio::test]
async fn in_shared_mode_the_bundled_test_ca_is_trusted_only_when_named() {
    let app = spawn_app_with(AppConfig {
        access: AccessMode::Shared,
        ..test_config()
    })
    .await;
    let response = app.get("/v1/sandbox/customers").send().await;
    response.assert_refused(400, "BAD_REQUEST", Some("TPP-Signature-Certificate"));
}

#[tokio::test]
async fn the_simulated_clock_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = || AppConfig {
        data: DataDir::At(dir.path().to_owned()),
        ..AppConfig::default()
    };
    let moved_to = time::macros::datetime!(2031-02-03 04:05:06 UTC);
    {
        let app = App::build(config()).unwrap();
        xs2a_core::bank::clock_control::change(
            app.state(),
            xs2a_core::bank::clock_control::ClockChange::Freeze,
        )
        .unwrap();
        xs2a_core::bank::clock_control::change(
            app.state(),
            xs2a_core::bank::clock_control::ClockChange::SetTo(moved_to),
        )
        .unwrap();
        app.close().unwrap();
    }
    let app = App::build(config()).unwrap();
    assert_eq!(app.state().clock.now(), moved_to);
    assert_eq!(app.state().clock.reading().mode, "frozen");
    app.close().unwrap();
}
