//! The TPP dialogue: a TPP registers, reads and removes its contact e-mail address.

use crate::helpers::spawn_app;
use serde_json::json;

const CONTACT: &str = "/v1/tpp-dialogue/contact";

#[tokio::test]
async fn a_tpp_registers_reads_and_removes_its_contact_address() {
    let app = spawn_app().await;
    app.get(CONTACT)
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", None);
    let response = app
        .put(CONTACT, &json!({"email": "psd2-ops@acme.example.com"}))
        .send()
        .await;
    response.assert_ok();
    assert!(response.warnings().is_empty());
    let read = app.get(CONTACT).send().await;
    assert_eq!(read.body["email"], "psd2-ops@acme.example.com");
    assert_eq!(app.delete(CONTACT).send().await.status, 204);
    app.get(CONTACT)
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", None);
}

#[tokio::test]
async fn each_tpp_sees_only_its_own_address() {
    let app = spawn_app().await;
    app.put(CONTACT, &json!({"email": "ops@one.example.com"}))
        .send()
        .await
        .assert_ok();
    app.get(CONTACT)
        .signed_by("aisp")
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", None);
}

#[tokio::test]
async fn an_invalid_address_is_refused() {
    let app = spawn_app().await;
    let response = app
        .put(CONTACT, &json!({"email": "not-an-address"}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("email"));
}

#[tokio::test]
async fn a_personal_looking_address_is_registered_with_a_warning() {
    let app = spawn_app().await;
    let response = app
        .put(CONTACT, &json!({"email": "kari.nordmann@acme.example.com"}))
        .send()
        .await;
    response.assert_ok();
    let warnings = response.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("role address"));
}
