//! `xs2a-sandbox conformance` as a TPP developer runs it: the README walkthrough's requests, sent by the
//! walkthrough itself to a real `serve`, graded through the running sandbox (`--url`) and again from its
//! stopped data directory (`--data`), each time only PASSED and NOT EXERCISED, with JSON that validates
//! against fixtures/schema/conformance-report.schema.json, JUnit and HTML; and a flow file graded with no
//! sandbox at all, exit code 1 when a rule fails.

use crate::cli::{binary, start_server};
use crate::conformance::{findings, verdicts};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const TOKEN: &str = "conformance-test-token";

fn schema_errors(report: &Value) -> Vec<String> {
    let schema: Value = serde_json::from_str(include_str!(
        "../../fixtures/schema/conformance-report.schema.json"
    ))
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    validator
        .iter_errors(report)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Runs `xs2a-sandbox conformance ARGS`; its exit code and stdout.
fn conformance(args: &[&str]) -> (i32, String) {
    let output = binary()
        .arg("conformance")
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{stdout}{}",
            if stderr.is_empty() {
                String::new()
            } else {
                format!("\nstderr: {stderr}")
            }
        ),
    )
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The organisation identifier of the walkthrough's certificate.
fn organisation(cert_pem: &Path) -> String {
    let pem = std::fs::read_to_string(cert_pem).unwrap();
    let der = xs2a_core::signing::signer::pem_to_der(&pem).unwrap();
    xs2a_core::signing::certificate::TppCertificate::from_der(&der)
        .unwrap()
        .organization_identifier
        .unwrap()
}

/// Stops a server the way a person does (SIGTERM), so that its traffic log is complete on disk.
fn stop(mut server: std::process::Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
}

#[test]
fn the_readme_walkthrough_gets_only_passed_and_not_exercised_through_the_service_and_its_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = crate::readme::walkthrough_blocks(&readme);
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("data");
    let (server, base) = start_server(&dir, &["--operator-token", TOKEN]);
    let scratch = tempfile::tempdir().unwrap();
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
        .parent()
        .unwrap();
    let script = format!("set -euo pipefail\n{}", blocks.join("\n"))
        .replace("127.0.0.1:8080", base.trim_start_matches("http://"));
    let ran = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(scratch.path())
        .env(
            "PATH",
            format!(
                "{}:{}",
                binary_dir.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let tpp = organisation(&scratch.path().join("acme/cert.pem"));
    let out = scratch.path();
    let (json, junit, html) = (
        out.join("url.json"),
        out.join("report.xml"),
        out.join("report.html"),
    );

    let (code, printed) = conformance(&[
        "--url",
        &base,
        "--token",
        TOKEN,
        "--tpp",
        &tpp,
        "--json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{printed}");
    let through_service = read(&json);
    assert_eq!(schema_errors(&through_service), Vec::<String>::new());
    assert_eq!(findings(&through_service), BTreeMap::new(), "{printed}");
    assert_eq!(through_service["selection"]["tpp"]["name"], "Acme TPP");
    // 401 and the accounts read after SCA, the payment, its status; the rest is /v1/sandbox.
    assert_eq!(
        through_service["selection"]["bankExchanges"], 4,
        "{printed}"
    );
    for id in [
        "NO-SIG-001",
        "NO-SIG-005",
        "NO-HDR-002",
        "NO-HDR-005",
        "NO-SCA-001",
        "NO-PAY-006",
    ] {
        assert_eq!(verdicts(&through_service)[id], "PASSED", "{id}: {printed}");
    }
    println!(
        "walkthrough: {}",
        serde_json::to_string(&through_service["counts"]).unwrap()
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(
        xml.matches("<testcase ").count(),
        verdicts(&through_service).len()
    );
    assert_eq!(xml.matches("<failure ").count(), 0);
    assert_eq!(
        xml.matches("<skipped ").count() as u64,
        through_service["counts"]["notExercised"].as_u64().unwrap()
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.starts_with("<!DOCTYPE html>")
            && page.contains("Acme TPP")
            && !page.contains("<script")
    );

    // The same traffic, read from the data directory once the sandbox has stopped.
    stop(server);
    let from_data = out.join("data.json");
    let (code, printed) = conformance(&[
        "--data",
        dir.to_str().unwrap(),
        "--tpp",
        &tpp,
        "--json",
        from_data.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{printed}");
    let from_data = read(&from_data);
    assert_eq!(verdicts(&from_data), verdicts(&through_service));
    assert_eq!(
        from_data["selection"]["exchanges"],
        through_service["selection"]["exchanges"]
    );
}

#[test]
fn a_flow_file_is_graded_without_a_sandbox_and_a_failed_rule_exits_with_1() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("flow.json");
    let flow = root.join("fixtures/flows/straks-payment.json");
    let (code, printed) = conformance(&[
        "--flow",
        flow.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{printed}");
    let report = read(&json);
    assert_eq!(schema_errors(&report), Vec::<String>::new());
    assert_eq!(report["selection"]["source"], "flow-file");
    assert_eq!(report["selection"]["flowFile"], "straks-payment.json");
    assert_eq!(verdicts(&report)["NO-SIG-001"], "NOT_EXERCISED");
    assert_eq!(verdicts(&report)["NO-SCA-001"], "PASSED", "{printed}");

    // The same flow with its amount as a number: NO-PAY-006 fails, and so does the command.
    let mut broken = read(&flow);
    for step in broken["steps"].as_array_mut().unwrap() {
        if let Some(body) = step["request"]["body"].as_str() {
            if body.contains("instructedAmount") {
                let mut parsed: Value = serde_json::from_str(body).unwrap();
                parsed["instructedAmount"]["amount"] = serde_json::json!(125.5);
                step["request"]["body"] = Value::String(parsed.to_string());
            }
        }
    }
    let broken_path = out.path().join("broken.json");
    std::fs::write(&broken_path, broken.to_string()).unwrap();
    let junit = out.path().join("broken.xml");
    let (code, printed) = conformance(&[
        "--flow",
        broken_path.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{printed}");
    assert!(printed.contains("FAILED        NO-PAY-006"), "{printed}");
    let xml = std::fs::read_to_string(junit).unwrap();
    assert!(
        xml.contains("name=\"NO-PAY-006 Amounts are strings\" time=\"0\">\n      <failure"),
        "{xml}"
    );

    let (code, printed) =
        conformance(&["--flow", out.path().join("missing.json").to_str().unwrap()]);
    assert_eq!(code, 2, "{printed}");
}
