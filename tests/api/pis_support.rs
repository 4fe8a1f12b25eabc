//! Shared ground for the payment tests: the seeded people and accounts, the product paths, and small
//! steps (identify a PSU at a TPP, create a payment, read what was booked on an account).

use crate::helpers::{complete_sca_as, sca_redirect, TestApp, TestRequest, TestResponse, TppState};
use serde_json::{json, Value};
use xs2a_core::domain::kid;

pub(crate) const KARI: &str = "14838510036";
pub(crate) const OLA: &str = "02917910181";
pub(crate) const KARI_CURRENT: &str = "12051000003";
pub(crate) const OLA_CURRENT: &str = "12051001018";
pub(crate) const FJORDKRAFT: &str = "12052000007";
pub(crate) const STRAKS: &str = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";
pub(crate) const DOMESTIC: &str = "/v1/payments/norwegian-domestic-credit-transfers";
pub(crate) const SEPA: &str = "/v1/payments/sepa-credit-transfers";
pub(crate) const PERIODIC: &str = "/v1/periodic-payments/norwegian-domestic-credit-transfers";
pub(crate) const BULK: &str = "/v1/bulk-payments/norwegian-domestic-credit-transfers";
pub(crate) const CROSS_BORDER_BULK: &str = "/v1/bulk-payments/cross-border-credit-transfers";
pub(crate) const BASKETS: &str = "/v1/signing-baskets";
pub(crate) const FIX: &str = "amount-as-string";

/// A person identified at a TPP (GET /v1/users and SCA): the TPP's state with their psu-id.
pub(crate) async fn identified(
    app: &TestApp,
    session: &str,
    national_id: &str,
    certificate: Option<&'static str>,
) -> TppState {
    let mut tpp = TppState::new(session);
    if let Some(certificate) = certificate {
        tpp = tpp.signing_as(certificate);
    }
    let href = sca_redirect(&tpp.get(app, "/v1/users").send().await);
    let done = complete_sca_as(app, certificate, &href, json!({"nationalId": national_id})).await;
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    tpp
}

/// Kari at the default (aisp-pisp) TPP.
pub(crate) async fn kari(app: &TestApp) -> TppState {
    identified(app, "pay-1", KARI, None).await
}

pub(crate) fn pay<'a>(
    app: &'a TestApp,
    tpp: &TppState,
    path: &str,
    body: &Value,
) -> TestRequest<'a> {
    tpp.post(app, path, body).header("x-accept-fix", FIX)
}

pub(crate) fn transfer(amount: &str, creditor: &str, remittance: Value) -> Value {
    let mut body = json!({
        "instructedAmount": {"amount": amount, "currency": "NOK"},
        "creditorName": "Ola Nordmann",
        "creditorAccount": {"bban": creditor, "currency": "NOK"},
        "creditorAddress": {"street": "Storgata", "buildingNumber": "1", "postalCode": "0155", "townName": "Oslo", "country": "NO"},
        "debtorAccount": {"bban": KARI_CURRENT, "currency": "NOK"},
    });
    if let Value::Object(extra) = remittance {
        body.as_object_mut().unwrap().extend(extra);
    }
    body
}

/// A valid KID (mod 10).
pub(crate) fn valid_kid() -> String {
    let digits = "12345678";
    format!("{digits}{}", kid::mod10_check_digit(digits))
}

#[track_caller]
pub(crate) fn created(response: &TestResponse) -> String {
    assert_eq!(response.status, 201, "{}", response.body);
    response.body["paymentId"].as_str().unwrap().to_owned()
}

pub(crate) async fn customers(app: &TestApp) -> Vec<Value> {
    app.get("/v1/sandbox/customers")
        .send()
        .await
        .body
        .as_array()
        .unwrap()
        .clone()
}

pub(crate) async fn booked_on(app: &TestApp, bban: &str) -> Vec<Value> {
    let id = customers(app)
        .await
        .iter()
        .flat_map(|c| c["accounts"].as_array().unwrap().clone())
        .find(|a| a["bban"] == bban)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.get(&format!("/v1/sandbox/accounts/{id}/transactions"))
        .send()
        .await
        .body
        .as_array()
        .unwrap()
        .clone()
}
