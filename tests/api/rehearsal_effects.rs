//! The fault plan's resource effects, its fix defaults and its operation match (docs/rehearsal.md): a
//! consent revoked at the bank or expired mid-journey gets what the bank gives those consents
//! (docs/interface.md#consent), a payment or part of a basket is rejected by the next batch run, an `x-accept-fix`
//! becomes the default on a date of the sandbox clock, and a rule names an operation by its operationId.

use crate::ais_journeys::private_consent;
use crate::helpers::{
    complete_sca, sca_redirect, spawn_app, workbench_api as call, TestApp, TppState, TEST_NOW,
};
use crate::pis_support::{created, kari, pay, transfer, BASKETS, DOMESTIC, OLA_CURRENT};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn set_plan(app: &TestApp, plan: Value) {
    let (status, body) = call(app, Method::PUT, "/faults", Some(plan)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

fn injected(response: &crate::helpers::TestResponse) -> String {
    response
        .headers
        .get("sandbox-injected")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_consent_revoked_by_the_psu_mid_journey_gets_consent_unknown_and_a_new_sca() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    tpp.get(&app, "/v1/accounts").send().await.assert_ok();
    set_plan(&app, json!({"rules": [{"id": "revoked", "match": {"path": "/v1/accounts", "every": 2}, "effect": {"kind": "consentRevoked"}}]})).await;
    // The first read is served; the second finds the consent revoked at the bank.
    tpp.get(&app, "/v1/accounts").send().await.assert_ok();
    let after = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(after.status, 401, "{}", after.body);
    assert_eq!(after.code(), "CONSENT_INVALID");
    sca_redirect(&after);
    assert_eq!(
        injected(&after),
        "injected: consent revoked by the PSU at the bank (rule revoked)"
    );
    // Revoked at the bank, not only refused once: the bank holds no consent any more.
    let consents = app.get("/v1/sandbox/consents").send().await;
    consents.assert_ok();
    assert_eq!(consents.body, json!([]));
}

#[tokio::test]
async fn a_consent_expired_mid_journey_gets_consent_expired_and_a_new_sca() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    set_plan(&app, json!({"rules": [{"id": "aged", "match": {"path": "/v1/accounts*"}, "effect": {"kind": "consentExpired"}}]})).await;
    let response = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(response.status, 401, "{}", response.body);
    assert_eq!(response.code(), "CONSENT_EXPIRED");
    sca_redirect(&response);
    assert!(injected(&response).starts_with("injected: consent expired"));
}

async fn payment_status(app: &TestApp, tpp: &TppState, id: &str) -> String {
    let read = tpp
        .get(app, &format!("{DOMESTIC}/{id}/status"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    read.assert_ok();
    read.body["transactionStatus"].as_str().unwrap().to_owned()
}

async fn authorise(app: &TestApp, tpp: &TppState, id: &str) {
    let href = tpp
        .post(app, &format!("{DOMESTIC}/{id}/authorisations"), &json!({}))
        .send()
        .await
        .body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    complete_sca(app, &href, json!({})).await;
}

async fn next_run(app: &TestApp) {
    app.put("/v1/sandbox/clock", &json!({"advance": "PT2H"}))
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn a_payment_is_rejected_by_the_next_batch_run() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    set_plan(&app, json!({"rules": [{"id": "rjct", "match": {"path": "/v1/payments/*", "method": "POST", "every": 1}, "effect": {"kind": "paymentRejected"}}]})).await;
    let response = pay(
        &app,
        &tpp,
        DOMESTIC,
        &transfer("17.00", OLA_CURRENT, json!({})),
    )
    .send()
    .await;
    assert_eq!(
        injected(&response),
        "injected: payment rejected by the next batch run (rule rjct)"
    );
    let rejected = created(&response);
    // The plan switched off: the same kind of payment goes through, so the rejection is the plan's.
    call(&app, Method::DELETE, "/faults", None).await;
    let served = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("18.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    authorise(&app, &tpp, &rejected).await;
    authorise(&app, &tpp, &served).await;
    assert_eq!(payment_status(&app, &tpp, &rejected).await, "ACTC");
    next_run(&app).await;
    assert_eq!(payment_status(&app, &tpp, &rejected).await, "RJCT");
    assert_eq!(payment_status(&app, &tpp, &served).await, "ACSC");
}

#[tokio::test]
async fn a_basket_is_partly_rejected_by_the_next_batch_run() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let mut ids = Vec::new();
    for amount in ["10.00", "11.00", "12.00"] {
        ids.push(created(
            &pay(
                &app,
                &tpp,
                DOMESTIC,
                &transfer(amount, OLA_CURRENT, json!({})),
            )
            .send()
            .await,
        ));
    }
    set_plan(&app, json!({"rules": [{"id": "part", "match": {"path": "/v1/signing-baskets", "method": "POST"}, "effect": {"kind": "basketPartlyRejected", "rejected": 1}}]})).await;
    let basket = pay(&app, &tpp, BASKETS, &json!({"paymentIds": ids}))
        .send()
        .await;
    assert_eq!(basket.status, 201, "{}", basket.body);
    assert!(injected(&basket).starts_with("injected: basket partly rejected"));
    let basket_id = basket.body["basketId"].as_str().unwrap().to_owned();
    complete_sca(
        &app,
        basket.body["_links"]["scaRedirect"]["href"]
            .as_str()
            .unwrap(),
        json!({}),
    )
    .await;
    next_run(&app).await;
    assert_eq!(payment_status(&app, &tpp, &ids[0]).await, "ACSC");
    assert_eq!(payment_status(&app, &tpp, &ids[1]).await, "ACSC");
    assert_eq!(payment_status(&app, &tpp, &ids[2]).await, "RJCT");
    let status = tpp
        .get(&app, &format!("{BASKETS}/{basket_id}/status"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert_eq!(status.body["transactionStatus"], "PATC", "{}", status.body);
}

/// The first balance's amount as Kari's TPP reads it, without x-accept-fix.
async fn balance_amount(app: &TestApp, tpp: &TppState) -> Value {
    let accounts = tpp.get(app, "/v1/accounts").send().await;
    accounts.assert_ok();
    let id = accounts.body["accounts"][0]["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    let balances = tpp
        .get(app, &format!("/v1/accounts/{id}/balances"))
        .send()
        .await;
    balances.assert_ok();
    balances.body["balances"][0]["balanceAmount"]["amount"].clone()
}

#[tokio::test]
async fn an_x_accept_fix_becomes_the_default_on_the_plans_date() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    assert!(
        balance_amount(&app, &tpp).await.is_string(),
        "the bank's default"
    );
    let lands = TEST_NOW + time::Duration::minutes(10);
    let lands_text = lands
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    set_plan(
        &app,
        json!({"fixDefaults": [{"fix": "amount-as-string", "from": lands_text}]}),
    )
    .await;
    // Before the day: the old behaviour, unless the request names the fix.
    assert!(balance_amount(&app, &tpp).await.is_number());
    let accounts = tpp.get(&app, "/v1/accounts").send().await;
    let id = accounts.body["accounts"][0]["resourceId"].as_str().unwrap();
    let named = tpp
        .get(&app, &format!("/v1/accounts/{id}/balances"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert!(named.body["balances"][0]["balanceAmount"]["amount"].is_string());
    // From the day on: as if every request named it.
    app.state.clock.advance(time::Duration::minutes(10));
    assert!(balance_amount(&app, &tpp).await.is_string());

    let (status, body) = call(
        &app,
        Method::PUT,
        "/faults",
        Some(json!({"fixDefaults": [{"fix": "no-such-fix", "from": lands_text}]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["tppMessages"][0]["path"], "fixDefaults[0].fix");
}

#[tokio::test]
async fn a_rule_names_an_operation_by_its_operation_id() {
    let app = spawn_app().await;
    let document: Value = app
        .client
        .get(format!("{}/openapi.json", app.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let operation = document["paths"]["/v1/sandbox/customers"]["get"]["operationId"]
        .as_str()
        .unwrap()
        .to_owned();
    set_plan(&app, json!({"rules": [{"id": "op", "match": {"operation": operation}, "effect": {"kind": "serverError"}}]})).await;
    app.get("/v1/sandbox/customers")
        .send()
        .await
        .assert_refused(500, "SYSTEM_ERROR", None);
    // The platform's form of the path is the same operation; another operation is served.
    app.get("/api-sandbox/v1/sandbox/customers")
        .send()
        .await
        .assert_refused(500, "SYSTEM_ERROR", None);
    app.get("/v1/sandbox/generate/bban")
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn the_json_schema_and_the_service_take_the_same_plan_with_every_effect() {
    let schema: Value = serde_json::from_slice(
        &std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/schema/fault-plan.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let effects = [
        json!({"kind": "latency", "fixedMs": 10, "jitterMs": 5}),
        json!({"kind": "rateLimited", "retryAfterSeconds": 30}),
        json!({"kind": "serverError"}),
        json!({"kind": "maintenance", "until": "2026-06-02T02:30:00Z"}),
        json!({"kind": "connectionReset"}),
        json!({"kind": "noAnswer", "holdSeconds": 5}),
        json!({"kind": "consentRevoked"}),
        json!({"kind": "consentExpired"}),
        json!({"kind": "paymentRejected"}),
        json!({"kind": "basketPartlyRejected", "rejected": 2}),
        json!({"kind": "scaCancelled"}),
        json!({"kind": "scaExpired"}),
        json!({"kind": "scaOtherAccounts"}),
        json!({"kind": "scaOtherContext"}),
    ];
    let rules: Vec<Value> = effects
        .iter()
        .enumerate()
        .map(|(i, effect)| json!({"id": format!("r{i}"), "enabled": false, "match": {"operation": "get_v1_accounts", "method": "GET"}, "effect": effect}))
        .collect();
    let plan = json!({"seed": 1, "rules": rules, "fixDefaults": [{"fix": "longer-names", "from": "2026-12-01T00:00:00Z"}]});
    let problems: Vec<String> = validator
        .iter_errors(&plan)
        .map(|e| e.to_string())
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    let app = spawn_app().await;
    set_plan(&app, plan).await;
    // And what the schema refuses, the service refuses too.
    let bad =
        json!({"rules": [{"id": "x", "effect": {"kind": "basketPartlyRejected", "rejected": 0}}]});
    assert!(!validator.is_valid(&bad));
    let (status, body) = call(&app, Method::PUT, "/faults", Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}
