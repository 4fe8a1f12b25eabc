//! `replay --junit` as a tester's CI reads it (issue 18): the suite and classname are the flow file's
//! name, the cases are the steps (`<n> <METHOD> <path template>` or the step's name), a failure's message
//! shows the first differences with a refusal's text whole; and a recorded flow's `state` names the state
//! file as it was really saved.

use crate::helpers::{spawn_app, workbench_api as call};
use crate::pis_support::{transfer, KARI, OLA_CURRENT, STRAKS};
use reqwest::Method;
use serde_json::{json, Value};
use xs2a_http::api::openapi::template_for;
use xs2a_workbench::flow::junit::path_template;

/// Replays `flow` against `base` with a JUnit report; exit code, printed report, JUnit XML.
async fn replay(base: &str, flow: &std::path::Path) -> (Option<i32>, String, String) {
    let report = flow.with_file_name("report.xml");
    let (base, flow) = (base.to_owned(), flow.to_owned());
    let (report_path, output) = tokio::task::spawn_blocking(move || {
        let output = crate::cli::binary()
            .arg("replay")
            .arg(&flow)
            .args(["--url", &base, "--cert-dir"])
            .arg(crate::helpers::fixture_dir("aisp-pisp"))
            .arg("--junit")
            .arg(&report)
            .output()
            .unwrap();
        (report, output)
    })
    .await
    .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        std::fs::read_to_string(report_path).unwrap(),
    )
}

#[tokio::test]
async fn the_junit_report_names_the_suite_and_cases_and_shows_the_first_differences_whole() {
    // Recorded: a read and an instant payment, from a snapshot on.
    let recording = spawn_app().await;
    let (status, _) = call(&recording, Method::PUT, "/snapshots/start", None).await;
    assert_eq!(status, 201);
    recording
        .get("/v1/sandbox/customers")
        .send()
        .await
        .assert_ok();
    let payment = transfer(
        "42.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Twice"}),
    );
    let created = recording
        .post(STRAKS, &payment)
        .header("x-accept-fix", "amount-as-string")
        .header("PSU-IP-Address", "192.0.2.10")
        .header("TPP-Session-ID", "junit-1")
        .header("TPP-Redirect-URI", "https://tpp.example/cb")
        .header("X-PSU-IDENTITY", KARI)
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let (_, mut flow) = call(&recording, Method::GET, "/snapshots/start/flow", None).await;
    assert_eq!(flow["steps"].as_array().unwrap().len(), 2, "{flow}");
    flow["steps"][1]["name"] = json!("pay Ola twice");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pay-twice.flow.json");
    std::fs::write(&file, flow.to_string()).unwrap();

    // Played on a fresh sandbox: green; played again, the payment is a logical duplicate (409).
    let fresh = spawn_app().await;
    let (code, printed, xml) = replay(&fresh.base, &file).await;
    assert_eq!(code, Some(0), "{printed}");
    assert!(xml.contains("failures=\"0\""), "{xml}");
    let (code, printed, xml) = replay(&fresh.base, &file).await;
    assert_eq!(code, Some(1), "{printed}");
    assert!(printed.contains("2 steps, 1 passed, 1 failed"), "{printed}");
    assert!(xml.contains("<testsuite name=\"pay-twice\""), "{xml}");
    assert!(
        xml.contains("classname=\"pay-twice\" name=\"01 GET /v1/sandbox/customers\""),
        "{xml}"
    );
    assert!(
        xml.contains("classname=\"pay-twice\" name=\"02 pay Ola twice\""),
        "{xml}"
    );
    let message = xml
        .split("<failure message=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a failure message")
        .replace("&quot;", "\"");
    let (count, shown) = message
        .split_once(" differences from the recording: ")
        .unwrap_or_else(|| panic!("{message}"));
    let count: usize = count.parse().unwrap();
    assert!(count > 3, "{message}");
    assert!(shown.starts_with("status 201 → status 409; "), "{message}");
    assert!(
        message.ends_with(&format!("; and {} more", count - 3)),
        "{message}"
    );
    // The 409's text keeps its hint, however long the line.
    assert!(
        message.contains("Send allowLogicalDuplicate=true to create it anyway."),
        "{message}"
    );
}

#[tokio::test]
async fn a_snapshots_flow_names_the_state_file_as_saved() {
    let app = spawn_app().await;
    let (status, _) = call(&app, Method::PUT, "/snapshots/ci-start", None).await;
    assert_eq!(status, 201);
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    let (_, flow) = call(&app, Method::GET, "/snapshots/ci-start/flow", None).await;
    assert_eq!(
        flow["state"], "ci-start.state.json",
        "the snapshot's download name by default"
    );
    let (_, flow) = call(
        &app,
        Method::GET,
        "/snapshots/ci-start/flow?state=state.json",
        None,
    )
    .await;
    assert_eq!(flow["state"], "state.json");
    let download = app
        .client
        .get(format!("{}/workbench/api/snapshots/ci-start", app.base))
        .bearer_auth(app.app.operator_token())
        .send()
        .await
        .unwrap();
    assert!(download.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("filename=\"ci-start.state.json\""));
}

#[test]
fn serve_record_names_the_fixture_it_started_from() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("start-state.json");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/state/initial.json"),
        &state,
    )
    .unwrap();
    let recording = dir.path().join("recorded.json");
    let (mut child, base) = crate::fixtures::serve(&[
        "--fixture",
        state.to_str().unwrap(),
        "--record",
        recording.to_str().unwrap(),
    ]);
    let health = reqwest::blocking::get(format!("{base}/health")).unwrap();
    assert_eq!(health.status(), 200);
    // SIGTERM: a clean stop writes the recording.
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let _ = child.wait();
    let flow: Value = serde_json::from_slice(&std::fs::read(&recording).unwrap()).unwrap();
    assert_eq!(flow["state"], "start-state.json", "{flow}");
}

use std::process::Command;

/// The cases are named after the path templates of the service's own document (the HTTP crate's).
#[test]
fn cases_are_named_after_the_documented_path_template() {
    assert_eq!(
        path_template("/v1/payments/norwegian-domestic-credit-transfers/3f2a1b4c-0000-4000-8000-000000000001/status", template_for),
        "/v1/{service}/{product}/{paymentId}/status"
    );
    assert_eq!(
        path_template("/api-sandbox/v1/accounts?withBalance=true", template_for),
        "/v1/accounts"
    );
    assert_eq!(
        path_template("/v1/signing-baskets", template_for),
        "/v1/signing-baskets"
    );
    assert_eq!(
        path_template(
            "/nowhere/3f2a1b4c-0000-4000-8000-000000000001",
            template_for
        ),
        "/nowhere/{id}"
    );
}
