//! The fault plan (docs/rehearsal.md): each effect on the bank interface gives the answer the plan names,
//! marked `Sandbox-Injected` in the answer and the traffic log; rules count how often they fired; a
//! probability is reproducible from its seed; the plan is set over the workbench API and travels in a
//! state file with its counters.

use crate::helpers::{spawn_app, tpp, workbench_api as call, TestApp, TEST_NOW};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use xs2a_core::signing::signer::SignOptions;

const CUSTOMERS: &str = "/v1/sandbox/customers";

async fn with_plan(plan: Value) -> TestApp {
    let app = spawn_app().await;
    let (status, body) = call(&app, Method::PUT, "/faults", Some(plan)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    app
}

fn one_rule(effect: Value) -> Value {
    json!({"seed": 1, "rules": [{"id": "r1", "match": {"path": "/v1/sandbox/*"}, "effect": effect}]})
}

fn injected(response: &crate::helpers::TestResponse) -> String {
    response.headers["sandbox-injected"]
        .to_str()
        .unwrap()
        .to_owned()
}

async fn fired(app: &TestApp, id: &str) -> u64 {
    let (_, plan) = call(app, Method::GET, "/faults", None).await;
    plan["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap()["fired"]
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn a_rate_limit_answers_429_access_exceeded_with_retry_after() {
    let app = with_plan(one_rule(
        json!({"kind": "rateLimited", "retryAfterSeconds": 30}),
    ))
    .await;
    let response = app.get(CUSTOMERS).send().await;
    response.assert_refused(429, "ACCESS_EXCEEDED", None);
    assert_eq!(response.headers["retry-after"], "30");
    assert_eq!(
        injected(&response),
        "injected: 429 rate limited, retry after 30 s (rule r1)"
    );
    assert_eq!(fired(&app, "r1").await, 1);
}

#[tokio::test]
async fn a_server_error_answers_500_system_error() {
    let app = with_plan(one_rule(json!({"kind": "serverError"}))).await;
    let response = app.get(CUSTOMERS).send().await;
    response.assert_refused(500, "SYSTEM_ERROR", None);
    assert!(
        response.text().contains("fault plan"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn maintenance_answers_503_with_its_end() {
    let until = TEST_NOW + time::Duration::minutes(90);
    let until_text = until
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let app = with_plan(one_rule(
        json!({"kind": "maintenance", "until": until_text}),
    ))
    .await;
    let response = app.get(CUSTOMERS).send().await;
    response.assert_refused(503, "SYSTEM_ERROR", None);
    assert_eq!(response.headers["retry-after"], "5400");
    assert!(response.text().contains(&until_text), "{}", response.text());
    assert_eq!(
        injected(&response),
        format!(
            "injected: 503 maintenance until {:02}:{:02} (rule r1)",
            until.hour(),
            until.minute()
        )
    );
}

#[tokio::test]
async fn latency_delays_the_answer() {
    let app = with_plan(one_rule(
        json!({"kind": "latency", "fixedMs": 400, "jitterMs": 100}),
    ))
    .await;
    let started = Instant::now();
    let response = app.get(CUSTOMERS).send().await;
    response.assert_ok();
    assert!(started.elapsed() >= Duration::from_millis(400));
    assert!(injected(&response).starts_with("injected: latency "));
}

#[tokio::test]
async fn a_connection_reset_gives_no_answer() {
    let app = with_plan(one_rule(json!({"kind": "connectionReset"}))).await;
    assert!(app.get(CUSTOMERS).try_send().await.is_err());
    assert_eq!(fired(&app, "r1").await, 1);
    // The next request, on a new connection, is served as the plan says again: the service is fine.
    assert!(app.get(CUSTOMERS).try_send().await.is_err());
    assert_eq!(fired(&app, "r1").await, 2);
}

#[tokio::test]
async fn a_request_never_answered_makes_the_clients_timeout_fire() {
    let app = with_plan(one_rule(json!({"kind": "noAnswer", "holdSeconds": 5}))).await;
    let mut headers = reqwest::header::HeaderMap::new();
    tpp("aisp-pisp").sign(
        "GET",
        CUSTOMERS,
        &mut headers,
        b"",
        app.state.clock.now(),
        &SignOptions::default(),
    );
    let client = reqwest::Client::builder()
        .timeout(Duration::from_millis(500))
        .build()
        .unwrap();
    let error = client
        .get(format!("{}{CUSTOMERS}", app.base))
        .headers(headers)
        .send()
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
}

#[tokio::test]
async fn every_nth_call_and_other_paths() {
    let app = with_plan(json!({"rules": [{"id": "third", "match": {"path": "/v1/sandbox/customers", "every": 3}, "effect": {"kind": "serverError"}}]})).await;
    let statuses: Vec<u16> = {
        let mut out = Vec::new();
        for _ in 0..6 {
            out.push(app.get(CUSTOMERS).send().await.status);
        }
        out
    };
    assert_eq!(statuses, [200, 200, 500, 200, 200, 500]);
    app.get("/v1/sandbox/generate/bban")
        .send()
        .await
        .assert_ok();
    assert_eq!(fired(&app, "third").await, 2);
}

#[tokio::test]
async fn a_rule_with_a_probability_is_reproducible_from_its_seed() {
    let plan = json!({"seed": 7, "rules": [{"id": "coin", "match": {"probability": 0.5}, "effect": {"kind": "serverError"}}]});
    let mut runs = Vec::new();
    for _ in 0..2 {
        let app = with_plan(plan.clone()).await;
        let mut statuses = Vec::new();
        for _ in 0..24 {
            statuses.push(app.get(CUSTOMERS).send().await.status);
        }
        runs.push(statuses);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(
        runs[0].contains(&200) && runs[0].contains(&500),
        "{:?}",
        runs[0]
    );
}

#[tokio::test]
async fn the_traffic_log_marks_the_injected_answer() {
    let app = with_plan(one_rule(json!({"kind": "serverError"}))).await;
    app.get(CUSTOMERS).send().await;
    // The exchange is handed to the log before its answer leaves: wait for the writer, not a time.
    app.traffic_settled().await;
    let (_, page) = call(&app, Method::GET, "/traffic?kind=exchange", None).await;
    let entry = page["entries"][0].clone();
    let (_, exchange) = call(
        &app,
        Method::GET,
        &format!("/traffic/{}", entry["id"]),
        None,
    )
    .await;
    let marked = exchange["response"]["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0] == "sandbox-injected")
        .map(|h| h[1].clone());
    assert_eq!(marked, Some(json!("injected: 500 server error (rule r1)")));
}

#[tokio::test]
async fn rules_are_added_switched_and_removed_over_the_workbench_api() {
    let app = spawn_app().await;
    let (_, presets) = call(&app, Method::GET, "/faults/presets", None).await;
    let presets = presets.as_array().unwrap().clone();
    assert!(presets.len() >= 6);
    for preset in &presets {
        let (status, body) = call(
            &app,
            Method::POST,
            "/faults/rules",
            Some(preset["rule"].clone()),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, body) = call(
        &app,
        Method::POST,
        "/faults/rules",
        Some(presets[0]["rule"].clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    for preset in &presets {
        let id = preset["rule"]["id"].as_str().unwrap();
        let (status, plan) = call(
            &app,
            Method::PATCH,
            &format!("/faults/rules/{id}"),
            Some(json!({"enabled": false})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{plan}");
    }
    // Every rule off: the bank answers as usual.
    app.get(CUSTOMERS).send().await.assert_ok();

    let (status, _) = call(
        &app,
        Method::PATCH,
        "/faults/rules/nope",
        Some(json!({"enabled": true})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, plan) = call(&app, Method::DELETE, "/faults/rules/slow-bank", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plan["rules"].as_array().unwrap().len(), presets.len() - 1);
    let (_, plan) = call(&app, Method::DELETE, "/faults", None).await;
    assert_eq!(plan["rules"], json!([]));
}

#[tokio::test]
async fn a_bad_plan_is_refused_with_its_path_and_nothing_changes() {
    let app = with_plan(one_rule(json!({"kind": "serverError"}))).await;
    for (plan, path) in [
        (
            json!({"rules": [{"id": "a", "match": {"every": 0}, "effect": {"kind": "serverError"}}]}),
            "rules[0].match.every",
        ),
        (
            json!({"rules": [{"id": "a", "match": {"probability": 2}, "effect": {"kind": "serverError"}}]}),
            "rules[0].match.probability",
        ),
        (
            json!({"rules": [{"id": "a", "effect": {"kind": "noAnswer", "holdSeconds": 100000}}]}),
            "rules[0].effect.holdSeconds",
        ),
        (
            json!({"rules": [{"id": "a", "effect": {"kind": "serverError"}}, {"id": "a", "effect": {"kind": "serverError"}}]}),
            "rules[1].id",
        ),
        (
            json!({"rules": [{"id": "a b", "effect": {"kind": "serverError"}}]}),
            "rules[0].id",
        ),
    ] {
        let (status, body) = call(&app, Method::PUT, "/faults", Some(plan)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["tppMessages"][0]["path"], path, "{body}");
    }
    let (status, body) = call(
        &app,
        Method::PUT,
        "/faults",
        Some(json!({"rules": [{"id": "a", "effect": {"kind": "explode"}}]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (_, plan) = call(&app, Method::GET, "/faults", None).await;
    assert_eq!(plan["rules"][0]["id"], "r1");
}

#[tokio::test]
async fn the_plan_travels_in_a_state_file_with_its_counters() {
    let app = with_plan(json!({"seed": 3, "rules": [{"id": "coin", "match": {"probability": 0.5}, "effect": {"kind": "serverError"}}]})).await;
    for _ in 0..5 {
        app.get(CUSTOMERS).send().await;
    }
    let (_, plan_before) = call(&app, Method::GET, "/faults", None).await;
    let (_, file) = call(&app, Method::GET, "/state", None).await;
    assert_eq!(file["version"], 2);
    let carried = file["trees"]["rehearsal"].as_array().unwrap();
    assert!(carried.iter().any(|r| r["kind"] == "plan"), "{carried:?}");

    // The same requests after the import decide as they would have in the first service.
    let mut expected = Vec::new();
    for _ in 0..8 {
        expected.push(app.get(CUSTOMERS).send().await.status);
    }
    let other = spawn_app().await;
    let (status, body) = call(&other, Method::POST, "/state", Some(file)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, plan_after) = call(&other, Method::GET, "/faults", None).await;
    assert_eq!(plan_after, plan_before);
    let mut replayed = Vec::new();
    for _ in 0..8 {
        replayed.push(other.get(CUSTOMERS).send().await.status);
    }
    assert_eq!(replayed, expected);
}

/// `serve --faults FILE` refuses a bad plan before it listens, saying where.
#[test]
fn serve_refuses_a_bad_plan_file_and_says_where() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("plan.json");
    std::fs::write(
        &file,
        r#"{"rules": [{"id": "a", "match": {"every": 0}, "effect": {"kind": "serverError"}}]}"#,
    )
    .unwrap();
    let output = crate::cli::binary()
        .args(["serve", "--ephemeral", "--addr", "127.0.0.1:0", "--faults"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("rules[0].match.every"), "{err}");
}

/// `serve --profile` takes sandbox or production only.
#[test]
fn serve_refuses_an_unknown_profile() {
    let output = crate::cli::binary()
        .args([
            "serve",
            "--ephemeral",
            "--addr",
            "127.0.0.1:0",
            "--profile",
            "staging",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("unknown profile 'staging'"), "{err}");
}
