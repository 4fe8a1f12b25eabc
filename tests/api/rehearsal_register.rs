//! The simulated central register (docs/rehearsal.md): every TPP the gate identifies is listed with its
//! roles and when it was seen; the operator marks one unregistered, withdraws a role or revokes its
//! certificate, and the next request gets 401 CERTIFICATE_BLOCKED, ROLE_INVALID or CERTIFICATE_REVOKED.

use crate::helpers::{spawn_app, tpp, workbench_api as call, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn listed(app: &TestApp) -> Vec<Value> {
    let (status, list) = call(app, Method::GET, "/register", None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array().unwrap().clone()
}

fn organisation_id() -> String {
    let header = tpp("aisp-pisp").certificate_header();
    let der = xs2a_core::signing::certificate::decode_certificate_header(&header)
        .unwrap()
        .der;
    xs2a_core::signing::certificate::TppCertificate::from_der(&der)
        .unwrap()
        .organization_identifier
        .unwrap()
}

async fn change(app: &TestApp, body: Value) -> Value {
    let (status, entry) = call(
        app,
        Method::PATCH,
        &format!("/register/{}", organisation_id()),
        Some(body),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{entry}");
    entry
}

#[tokio::test]
async fn every_tpp_seen_is_listed_with_its_roles() {
    let app = spawn_app().await;
    assert!(listed(&app).await.is_empty());
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    let list = listed(&app).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["organisationId"], organisation_id());
    assert_eq!(list[0]["roles"], json!(["PSP_AI", "PSP_PI"]));
    assert_eq!(list[0]["registered"], true);
    assert!(list[0]["firstSeen"].is_string() && list[0]["lastSeen"].is_string());
}

#[tokio::test]
async fn an_unregistered_tpp_is_refused_401_certificate_blocked() {
    let app = spawn_app().await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    change(&app, json!({"registered": false})).await;
    app.get("/v1/sandbox/customers")
        .send()
        .await
        .assert_refused(
            401,
            "CERTIFICATE_BLOCKED",
            Some("TPP-Signature-Certificate"),
        );
    change(&app, json!({"registered": true})).await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
}

#[tokio::test]
async fn a_revoked_certificate_is_refused_401_certificate_revoked() {
    let app = spawn_app().await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    let entry = change(&app, json!({"certificateRevoked": true})).await;
    assert_eq!(entry["revokedSerials"].as_array().unwrap().len(), 1);
    app.get("/v1/sandbox/customers")
        .send()
        .await
        .assert_refused(
            401,
            "CERTIFICATE_REVOKED",
            Some("TPP-Signature-Certificate"),
        );
}

#[tokio::test]
async fn a_withdrawn_role_refuses_the_services_that_need_it_401_role_invalid() {
    let app = spawn_app().await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    change(&app, json!({"withdrawnRoles": ["PSP_AI"]})).await;
    app.get("/v1/accounts").send().await.assert_refused(
        401,
        "ROLE_INVALID",
        Some("TPP-Signature-Certificate"),
    );
    // Services that do not need the role are still served.
    app.get("/v1/sandbox/customers").send().await.assert_ok();
}

#[tokio::test]
async fn a_tpp_never_seen_cannot_be_changed() {
    let app = spawn_app().await;
    let (status, body) = call(
        &app,
        Method::PATCH,
        "/register/PSDNO-FSA-NOBODY",
        Some(json!({"registered": false})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}
