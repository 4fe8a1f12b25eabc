//! A journey recorded under a fault plan replays green with its plan (docs/rehearsal.md): the state file
//! carries the plan with its seed, `serve --fixture` starts from it, and `replay` gets the same answers,
//! the injected ones included; without the plan the same flow is red.

use crate::fixtures::serve;
use crate::helpers::{spawn_app, workbench_api as call};
use reqwest::{Method, StatusCode};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

const CUSTOMERS: &str = "/v1/sandbox/customers";

fn replay(flow: &Path, base: &str) -> (i32, String) {
    let output = crate::cli::binary()
        .arg("replay")
        .arg(flow)
        .args(["--url", base, "--cert-dir"])
        .arg(crate::helpers::fixture_dir("aisp-pisp"))
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

#[tokio::test]
async fn a_flow_recorded_under_a_plan_replays_green_with_it() {
    let recording = spawn_app().await;
    let plan = json!({"seed": 11, "rules": [{"id": "coin", "match": {"path": CUSTOMERS, "probability": 0.5}, "effect": {"kind": "serverError"}}]});
    let (status, body) = call(&recording, Method::PUT, "/faults", Some(plan)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, state) = call(&recording, Method::GET, "/state", None).await;

    let traffic = &recording.state.traffic;
    let after = traffic.last_given();
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(recording.get(CUSTOMERS).send().await.status);
    }
    assert!(
        statuses.contains(&200) && statuses.contains(&500),
        "the seed gives both answers: {statuses:?}"
    );
    // However long the writer takes on a loaded machine: a barrier through its queue, no deadline.
    assert!(traffic.settle(Duration::MAX));
    let mut flow = xs2a_workbench::flow::from_traffic::since(traffic, after).unwrap();
    assert_eq!(flow.steps.len(), 10);
    flow.state = Some("state.json".into());

    let dir = tempfile::tempdir().unwrap();
    let state_file = dir.path().join("state.json");
    std::fs::write(&state_file, serde_json::to_vec(&state).unwrap()).unwrap();
    let flow_file = dir.path().join("coin.flow.json");
    std::fs::write(&flow_file, flow.to_bytes()).unwrap();

    let (flow_path, state_path) = (flow_file.clone(), state_file.clone());
    let (green, red) = tokio::task::spawn_blocking(move || {
        let (mut child, base) = serve(&["--fixture", state_path.to_str().unwrap()]);
        let green = replay(&flow_path, &base);
        let _ = child.kill();
        let _ = child.wait();
        // The same flow against a sandbox without the plan: the injected answers are missing.
        let (mut child, base) = serve(&["--ephemeral"]);
        let red = replay(&flow_path, &base);
        let _ = child.kill();
        let _ = child.wait();
        (green, red)
    })
    .await
    .unwrap();
    assert_eq!(green.0, 0, "{}", green.1);
    assert!(green.1.contains("10 passed, 0 failed"), "{}", green.1);
    assert_eq!(red.0, 1, "{}", red.1);
}
