//! Fixtures in the workbench API (docs/workbench-api.md, Fixtures): export and import with a preview,
//! every refused file answered with its status, code and JSON pointer and nothing written, a journey's
//! flow, and named snapshots taken and restored in one call each.

use crate::helpers::{spawn_app, workbench_api_raw as call, TestApp};
use crate::pis_support::{created, kari, pay, transfer, OLA_CURRENT, STRAKS};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn state(app: &TestApp) -> Value {
    let (status, body) = call(app, Method::GET, "/state", None).await;
    assert_eq!(status, StatusCode::OK);
    body
}

/// The state, with the batch scheduler's first marker in it (written when the service starts serving,
/// before it answers anything), so that later comparisons see only what the test did.
async fn settled_state(app: &TestApp) -> Value {
    let now = state(app).await;
    assert!(
        now["trees"]["batch-schedule"]
            .as_array()
            .is_some_and(|m| !m.is_empty()),
        "the batch scheduler wrote no marker before serving"
    );
    now
}

/// The trees in which two state files differ (a short message instead of two whole states).
fn differing_trees(a: &Value, b: &Value) -> Vec<String> {
    let trees = a["trees"].as_object().unwrap();
    trees
        .keys()
        .filter(|k| a["trees"][k.as_str()] != b["trees"][k.as_str()])
        .cloned()
        .collect()
}

fn refusal(body: &Value) -> (&str, &str) {
    let message = &body["tppMessages"][0];
    (
        message["code"].as_str().unwrap_or(""),
        message["path"].as_str().unwrap_or(""),
    )
}

#[tokio::test]
async fn the_state_is_exported_and_imported_with_a_preview_first() {
    let app = spawn_app().await;
    let mut file = settled_state(&app).await;
    assert_eq!(file["format"], "xs2a-sandbox/state");
    file["trees"]["sandbox-customers"][0]["name"] = json!("Renamed Person");
    let bytes = file.to_string().into_bytes();

    let (status, body) = call(
        &app,
        Method::POST,
        "/state?preview=true",
        Some(bytes.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["applied"], false);
    assert_eq!(
        body["preview"]["trees"]["sandbox-customers"]["changed"], 1,
        "{body}"
    );
    assert!(state(&app).await != file, "a preview wrote");

    let (status, body) = call(&app, Method::POST, "/state", Some(bytes)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["applied"], true);
    let now = state(&app).await;
    assert!(
        now == file,
        "not imported: {:?}",
        differing_trees(&file, &now)
    );
}

#[tokio::test]
async fn a_refused_import_names_the_pointer_and_writes_nothing() {
    let app = spawn_app().await;
    let good = settled_state(&app).await;
    let mut schema = good.clone();
    schema["trees"]["sandbox-accounts"][0]["currency"] = json!(12);
    let mut missing = good.clone();
    missing["trees"]["sandbox-transactions"][2]["accountId"] = json!("gone");
    let mut twin = good.clone();
    let first = twin["trees"]["sandbox-agreements"][0].clone();
    twin["trees"]["sandbox-agreements"]
        .as_array_mut()
        .unwrap()
        .push(first);
    let text = good.to_string();
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str, &str)> = vec![
        (
            "malformed",
            b"{\"format\": ".to_vec(),
            StatusCode::BAD_REQUEST,
            "FORMAT_ERROR",
            "",
        ),
        (
            "truncated",
            text.as_bytes()[..text.len() / 2].to_vec(),
            StatusCode::BAD_REQUEST,
            "FORMAT_ERROR",
            "/trees/",
        ),
        (
            "version",
            br#"{"format":"xs2a-sandbox/state","version":3,"trees":{}}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "FORMAT_ERROR",
            "/version",
        ),
        (
            "schema",
            schema.to_string().into_bytes(),
            StatusCode::BAD_REQUEST,
            "FORMAT_ERROR",
            "/trees/sandbox-accounts/0/currency",
        ),
        (
            "missing",
            missing.to_string().into_bytes(),
            StatusCode::BAD_REQUEST,
            "FORMAT_ERROR",
            "/trees/sandbox-transactions/2/accountId",
        ),
        (
            "collision",
            twin.to_string().into_bytes(),
            StatusCode::CONFLICT,
            "CONFLICT",
            "/trees/sandbox-agreements/2",
        ),
    ];
    for (name, bytes, want_status, want_code, want_path) in cases {
        let (status, body) = call(&app, Method::POST, "/state", Some(bytes)).await;
        assert_eq!(status, want_status, "{name}: {body}");
        let (code, path) = refusal(&body);
        assert_eq!(code, want_code, "{name}: {body}");
        assert!(
            path.starts_with(want_path),
            "{name}: path {path}, wanted {want_path}: {body}"
        );
        let now = state(&app).await;
        assert!(
            now == good,
            "{name}: the state changed in {:?}",
            differing_trees(&good, &now)
        );
    }
    let (status, body) = call(
        &app,
        Method::POST,
        "/state?mode=overwrite",
        Some(text.into_bytes()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refusal(&body), ("FORMAT_ERROR", "mode"));
}

#[tokio::test]
async fn a_journey_is_exported_as_a_flow() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = created(
        &pay(
            &app,
            &tpp,
            STRAKS,
            &transfer("12.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let journey = format!("payment:{id}");
    // The journey's exchanges reach the log as their answers leave: wait for the writer, not a time.
    app.traffic_settled().await;
    let (status, flow) = call(
        &app,
        Method::GET,
        &format!("/journeys/{journey}/flow"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{flow}");
    assert_eq!(flow["format"], "xs2a-sandbox/flow", "{flow}");
    assert_eq!(flow["steps"][0]["request"]["method"], "POST", "{flow}");
    let (status, body) = call(&app, Method::GET, "/journeys/payment:nothing/flow", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(refusal(&body), ("RESOURCE_UNKNOWN", "id"));
}

#[tokio::test]
async fn a_snapshot_is_taken_and_restored_in_one_call_each() {
    let app = spawn_app().await;
    let start = settled_state(&app).await;
    let (status, body) = call(&app, Method::PUT, "/snapshots/start%20of%20demo", None).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["name"], "start of demo");

    // The demo changes things: a payment, and the clock moves.
    let tpp = kari(&app).await;
    created(
        &pay(
            &app,
            &tpp,
            STRAKS,
            &transfer("99.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    app.put("/v1/sandbox/clock", &json!({"advance": "PT3H"}))
        .send()
        .await
        .assert_ok();
    assert!(state(&app).await != start);

    let (status, body) = call(
        &app,
        Method::POST,
        "/snapshots/start%20of%20demo/restore",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let restored = state(&app).await;
    assert!(
        restored == start,
        "not restored: {:?} {} {}",
        differing_trees(&start, &restored),
        start["trees"]["batch-schedule"],
        restored["trees"]["batch-schedule"]
    );
    assert_eq!(
        app.state.clock.now(),
        crate::helpers::TEST_NOW,
        "the clock is back too"
    );

    let (_, list) = call(&app, Method::GET, "/snapshots", None).await;
    assert_eq!(list[0]["name"], "start of demo", "{list}");
    let (status, file) = call(&app, Method::GET, "/snapshots/start%20of%20demo", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(file == start);
    let (status, _) = call(&app, Method::DELETE, "/snapshots/start%20of%20demo", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = call(
        &app,
        Method::POST,
        "/snapshots/start%20of%20demo/restore",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(refusal(&body), ("RESOURCE_UNKNOWN", "name"));
    let (status, body) = call(&app, Method::PUT, "/snapshots/bad%0Aname", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refusal(&body), ("FORMAT_ERROR", "name"));
}

/// The issue's "done means": a tester takes a snapshot in the workbench, plays a basket journey, saves the
/// snapshot (state.json) and what was served since (flow.json); another project's CI runs `serve --fixture
/// state.json` and `replay flow.json --junit report.xml`, green.
#[tokio::test]
async fn a_basket_journey_saved_from_the_workbench_replays_green_in_two_commands() {
    let app = spawn_app().await;
    settled_state(&app).await;
    let (status, body) = call(&app, Method::PUT, "/snapshots/ci-start", None).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    crate::fixture_flows::basket(&app).await;
    let (status, state) = call(&app, Method::GET, "/snapshots/ci-start", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, flow) = call(&app, Method::GET, "/snapshots/ci-start/flow", None).await;
    assert_eq!(status, StatusCode::OK, "{flow}");
    assert!(flow["steps"].as_array().unwrap().len() >= 8, "{flow}");
    let dir = tempfile::tempdir().unwrap();
    let (state_file, flow_file) = (dir.path().join("state.json"), dir.path().join("flow.json"));
    std::fs::write(&state_file, state.to_string()).unwrap();
    std::fs::write(&flow_file, flow.to_string()).unwrap();
    let report = dir.path().join("report.xml");
    let (code, out) = tokio::task::spawn_blocking(move || {
        let (mut child, base) =
            crate::fixtures::serve(&["--fixture", state_file.to_str().unwrap()]);
        let output = crate::cli::binary()
            .arg("replay")
            .arg(&flow_file)
            .args(["--url", &base, "--cert-dir"])
            .arg(crate::helpers::fixture_dir("aisp-pisp"))
            .arg("--junit")
            .arg(&report)
            .output()
            .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    })
    .await
    .unwrap();
    assert_eq!(code, Some(0), "{out}");
    let xml = std::fs::read_to_string(dir.path().join("report.xml")).unwrap();
    assert!(xml.contains("failures=\"0\""), "{xml}");
}
