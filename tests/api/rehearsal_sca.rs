//! The fault plan on the SCA pages (docs/rehearsal.md): the PSU cancels, the authorisation expires while
//! the PSU is on the page, the PSU ticks other accounts than the TPP expects or picks the other context,
//! and the pages answer late. Each is asserted where the TPP sees it: the redirect back, the consent.

use crate::helpers::{spawn_app, workbench_api as call, TestApp};
use crate::sca_pages::{
    action, browser, get_page, inputs, kari, param, post_form, start_sca, submit, through_context,
    tpp_params, TPP_REDIRECT,
};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

async fn set_plan(app: &TestApp, plan: Value) {
    let (status, body) = call(app, Method::PUT, "/faults", Some(plan)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

fn rule(id: &str, path: &str, effect: Value) -> Value {
    json!({"rules": [{"id": id, "match": {"path": path}, "effect": effect}]})
}

#[tokio::test]
async fn the_psu_cancels_instead_of_identifying() {
    let app = spawn_app().await;
    set_plan(
        &app,
        rule("cancel", "/sca/*/identify", json!({"kind": "scaCancelled"})),
    )
    .await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let page = get_page(&app, &client, &started.page, None).await;
    assert_eq!(page.status, 200, "the page itself is served");
    let location = submit(
        &app,
        &client,
        &page.html,
        "identify",
        &[("nationalId", &kari())],
    )
    .await;
    let params = tpp_params(&location, TPP_REDIRECT);
    assert_eq!(param(&params, "code"), Some("SCA_INVALID"));
    assert!(param(&params, "message").is_some_and(|m| m.contains("cancelled")));
    assert_eq!(param(&params, "psu-id"), None);
}

#[tokio::test]
async fn the_authorisation_expires_while_the_psu_is_on_the_page() {
    let app = spawn_app().await;
    set_plan(
        &app,
        rule("expire", "/sca/*/method", json!({"kind": "scaExpired"})),
    )
    .await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let page = get_page(&app, &client, &started.page, None).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "identify",
        &[("nationalId", &kari())],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    let expired = post_form(
        &app,
        &client,
        &action(&page.html, "method"),
        &[("method", "HA2")],
    )
    .await;
    assert_eq!(expired.status, 400, "{}", expired.html);
    assert!(
        expired.html.contains("This authorisation has expired"),
        "{}",
        expired.html
    );
    // Back to the TPP from there: SCA_EXPIRED.
    let location = submit(&app, &client, &expired.html, "cancel", &[]).await;
    assert_eq!(
        param(&tpp_params(&location, TPP_REDIRECT), "code"),
        Some("SCA_EXPIRED")
    );
}

/// The accounts the bank holds as granted to the default TPP, by id.
async fn granted(app: &TestApp) -> Vec<String> {
    let consents = app.get("/v1/sandbox/consents").send().await;
    consents.assert_ok();
    let mut ids: Vec<String> = consents.body[0]["consent"]["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .chain(
            consents.body[0]["consent"]["cardAccounts"]
                .as_array()
                .unwrap(),
        )
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn the_psu_ticks_other_accounts_than_the_tpp_expects() {
    let app = spawn_app().await;
    set_plan(
        &app,
        rule("other", "/sca/*", json!({"kind": "scaOtherAccounts"})),
    )
    .await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let consent = through_context(&app, &client, &started, "PRIVATE").await;
    let offered = inputs(&consent.html, "account");
    assert_eq!(offered.len(), 3, "{}", consent.html);
    let location = submit(
        &app,
        &client,
        &consent.html,
        "consent",
        &[("account", &offered[0].0)],
    )
    .await;
    assert_eq!(
        param(&tpp_params(&location, TPP_REDIRECT), "context"),
        Some("PRIVATE")
    );
    let mut expected: Vec<String> = offered[1..].iter().map(|(id, _)| id.clone()).collect();
    expected.sort();
    assert_eq!(granted(&app).await, expected, "the ones left unticked");
    // Only the consent form counted: the page views before it neither matched nor fired.
    let (_, plan) = call(&app, Method::GET, "/faults", None).await;
    assert_eq!(plan["rules"][0]["matched"], 1, "{plan}");
    assert_eq!(plan["rules"][0]["fired"], 1, "{plan}");
}

#[tokio::test]
async fn the_psu_picks_the_other_context() {
    let app = spawn_app().await;
    set_plan(
        &app,
        rule("ctx", "/sca/*/context", json!({"kind": "scaOtherContext"})),
    )
    .await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    // The PSU is sent to choose PRIVATE and ends up acting for their first agreement.
    let consent = through_context(&app, &client, &started, "PRIVATE").await;
    assert!(consent.html.contains("Acting for"), "{}", consent.html);
    let offered = inputs(&consent.html, "account");
    let location = submit(
        &app,
        &client,
        &consent.html,
        "consent",
        &[("account", &offered[0].0)],
    )
    .await;
    let params = tpp_params(&location, TPP_REDIRECT);
    assert_eq!(param(&params, "context"), Some("CORPORATE"));
    assert!(param(&params, "psu-corporate-id").is_some());
}

#[tokio::test]
async fn the_sca_pages_answer_late_and_say_it_was_injected() {
    let app = spawn_app().await;
    set_plan(
        &app,
        rule(
            "slow-pages",
            "/sca/*",
            json!({"kind": "latency", "fixedMs": 300}),
        ),
    )
    .await;
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let client = browser();
    let began = Instant::now();
    let response = client.get(&started.page).send().await.unwrap();
    assert!(began.elapsed() >= Duration::from_millis(300));
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["sandbox-injected"],
        "injected: latency 300 ms (rule slow-pages)"
    );
    // The bank interface is not under this rule: its answer is not delayed (no injection marked on it;
    // a time would say nothing on a loaded machine).
    let plain = app.get("/v1/sandbox/customers").send().await;
    plain.assert_ok();
    assert!(
        plain.headers.get("sandbox-injected").is_none(),
        "{:?}",
        plain.headers
    );
}
