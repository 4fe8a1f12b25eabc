//! The composer as a new user meets it (issue 18): its forms come from the OpenAPI document and send as
//! they are filled for the bundled persona (the instant payment without a persona switch, a payment's
//! status with the path filled from the payment it follows), and "Copy as curl / as script" gives text
//! that runs from any directory, signs at every run, and never sends an unsigned request.

use crate::helpers::{spawn_app, workbench_api as call, TestApp};
use reqwest::Method;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

const PERSONA: &str = "bundled-aisp-pisp";

async fn form(app: &TestApp, id: &str) -> Value {
    let (status, operations) = call(app, Method::GET, "/operations", None).await;
    assert_eq!(status, 200);
    operations
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == id)
        .unwrap_or_else(|| panic!("no form {id}"))
        .clone()
}

/// The draft the composer makes from a form for a persona, path parameters filled from `values`.
fn draft_of(form: &Value, values: &[(&str, &str)]) -> Value {
    let mut path = form["path"].as_str().unwrap().to_owned();
    for (name, value) in values {
        path = path.replace(&format!("{{{name}}}"), value);
    }
    let query: Vec<String> = form["query"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| !q["value"].as_str().unwrap().is_empty())
        .map(|q| {
            format!(
                "{}={}",
                q["name"].as_str().unwrap(),
                q["value"].as_str().unwrap()
            )
        })
        .collect();
    json!({
        "personaId": PERSONA,
        "method": form["method"],
        "path": path,
        "query": query.join("&"),
        "headers": form["headers"],
        "body": form["body"],
    })
}

async fn send(app: &TestApp, draft: &Value) -> Value {
    let (status, sent) = call(app, Method::POST, "/compose/send", Some(draft.clone())).await;
    assert_eq!(status, 200, "{sent}");
    sent
}

#[tokio::test]
async fn the_instant_payment_form_sends_as_filled_for_the_bundled_persona_and_its_status_follows_it(
) {
    let app = spawn_app().await;
    let straks = form(&app, "straks").await;
    let sent = send(&app, &draft_of(&straks, &[])).await;
    let body: Value = serde_json::from_str(sent["response"]["body"].as_str().unwrap()).unwrap();
    assert_eq!(sent["response"]["status"], 201, "{body}");
    assert!(body["_links"]["scaRedirect"]["href"].is_string(), "{body}");
    // The persona was not switched: the composer sent as the bundled aisp-pisp persona.
    assert_eq!(sent["draft"]["personaId"], PERSONA);
    let payment_id = body["paymentId"].as_str().unwrap();

    let status_form = form(&app, "payment-status").await;
    let params = status_form["pathParams"].as_array().unwrap();
    assert!(
        params.iter().all(|p| p["follows"] == "payment"),
        "{params:?}"
    );
    // The service and product come from the payment the form follows (its self link names them).
    let own = body["_links"]["self"]["href"].as_str().unwrap();
    let parts: Vec<&str> = own.split('/').collect();
    let (service, product) = (parts[parts.len() - 3], parts[parts.len() - 2]);
    assert!(params[0]["values"]
        .as_array()
        .unwrap()
        .contains(&json!(service)));
    assert!(params[1]["values"]
        .as_array()
        .unwrap()
        .contains(&json!(product)));
    let sent = send(
        &app,
        &draft_of(
            &status_form,
            &[
                ("service", service),
                ("product", product),
                ("paymentId", payment_id),
            ],
        ),
    )
    .await;
    assert_eq!(
        sent["response"]["status"], 200,
        "{}",
        sent["response"]["body"]
    );
}

#[tokio::test]
async fn a_draft_with_an_unknown_placeholder_is_refused_at_its_field_never_sent_literally() {
    let app = spawn_app().await;
    let draft = json!({"personaId": PERSONA, "method": "GET", "path": "/v1/accounts",
        "headers": [["PSU-IP-Address", "192.0.2.10"], ["PSU-ID", "{{persona.psuid}}"]]});
    for (path, body, at) in [
        ("/compose/send", draft.clone(), "headers[1]"),
        (
            "/compose/export",
            json!({"draft": draft, "format": "curl"}),
            "draft.headers[1]",
        ),
        (
            "/compose/export",
            json!({"draft": {"personaId": PERSONA, "method": "GET", "path": "/v1/x/{{persona.psuId}}"}, "format": "script"}),
            "draft.path",
        ),
    ] {
        let (status, answer) = call(&app, Method::POST, path, Some(body)).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["tppMessages"][0]["code"], "FORMAT_ERROR");
        assert_eq!(answer["tppMessages"][0]["path"], at, "{answer}");
    }
}

async fn exported(app: &TestApp, draft: &Value, format: &str) -> Value {
    let (status, answer) = call(
        app,
        Method::POST,
        "/compose/export",
        Some(json!({"draft": draft, "format": format})),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    answer
}

/// Runs `text` with bash in an empty temporary directory, the xs2a-sandbox binary on PATH (and, first,
/// `extra_path`); exit code and output. Off the test's runtime, which serves the sandbox meanwhile.
async fn run_in_bash(text: &str, extra_path: Option<&Path>) -> (i32, String) {
    let (text, extra_path) = (text.to_owned(), extra_path.map(Path::to_owned));
    tokio::task::spawn_blocking(move || run_in_bash_now(&text, extra_path.as_deref()))
        .await
        .unwrap()
}

fn run_in_bash_now(text: &str, extra_path: Option<&Path>) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("copied.sh");
    std::fs::write(&script, text).unwrap();
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
        .parent()
        .unwrap()
        .to_owned();
    let mut path =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect::<Vec<_>>();
    path.insert(0, binary_dir);
    if let Some(extra) = extra_path {
        path.insert(0, extra.to_owned());
    }
    let output = Command::new("bash")
        .arg(&script)
        .current_dir(dir.path())
        .env("PATH", std::env::join_paths(path).unwrap())
        .output()
        .expect("bash runs");
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// The newest exchanges of the traffic log.
async fn exchanges(app: &TestApp) -> Vec<Value> {
    app.traffic_settled().await;
    let (_, page) = call(app, Method::GET, "/traffic?kind=exchange&limit=1000", None).await;
    page["entries"].as_array().unwrap().clone()
}

#[tokio::test]
async fn copy_as_curl_and_as_script_run_as_copied_from_any_directory_and_sign_afresh() {
    let app = spawn_app().await;
    let straks = form(&app, "straks").await;
    let mut draft = draft_of(&straks, &[]);
    // Run four times: the same payment again is a logical duplicate unless allowed.
    draft["query"] = json!("allowLogicalDuplicate=true");
    for format in ["curl", "script"] {
        let answer = exported(&app, &draft, format).await;
        let text = answer["text"].as_str().unwrap();
        assert!(!text.contains("{{"), "every placeholder is filled: {text}");
        assert!(!text.contains("fixtures/certs"), "{text}");
        // The fresh persona has no PSU-ID yet: the header is left out, and said so.
        assert_eq!(answer["omitted"][0]["header"], "PSU-ID", "{answer}");
        assert!(text.contains("# PSU-ID left out"), "{text}");
        for run in 0..2 {
            let (code, output) = run_in_bash(text, None).await;
            assert_eq!(code, 0, "{format} run {run}: {output}");
            assert!(
                output.contains("\"transactionStatus\":\"RCVD\""),
                "{format}: {output}"
            );
            let newest = &exchanges(&app).await[0];
            assert_eq!(newest["status"], 201, "{format}: {newest}");
            assert_eq!(newest["failedStep"], Value::Null);
        }
    }
    // Every run had its own X-Request-ID (and signed its own Date).
    let ids: std::collections::BTreeSet<String> = {
        let mut ids = std::collections::BTreeSet::new();
        for entry in exchanges(&app).await.iter().take(4) {
            let (_, whole) = call(
                &app,
                Method::GET,
                &format!("/traffic/{}", entry["id"]),
                None,
            )
            .await;
            let request_id = whole["request"]["headers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|h| h[0] == "x-request-id")
                .map(|h| h[1].as_str().unwrap().to_owned())
                .unwrap();
            ids.insert(request_id);
        }
        ids
    };
    assert_eq!(ids.len(), 4, "{ids:?}");
}

#[tokio::test]
async fn a_failed_signing_stops_the_copied_text_and_nothing_reaches_the_sandbox() {
    let app = spawn_app().await;
    let draft = draft_of(&form(&app, "straks").await, &[]);
    // A signing tool that fails, first on PATH.
    let tools = tempfile::tempdir().unwrap();
    let fake = tools.path().join("xs2a-sandbox");
    std::fs::write(&fake, "#!/bin/sh\necho 'sign: cannot sign' >&2\nexit 3\n").unwrap();
    let mut permissions = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&fake, permissions).unwrap();
    for format in ["curl", "script"] {
        let text = exported(&app, &draft, format).await["text"]
            .as_str()
            .unwrap()
            .to_owned();
        let before = exchanges(&app).await.len();
        let (code, output) = run_in_bash(&text, Some(tools.path())).await;
        assert_ne!(code, 0, "{format}: {output}");
        assert!(output.contains("cannot sign"), "{output}");
        // The real tool with a broken key fails too.
        let marker = "cat > \"$dir/key.pem\" <<'PEM'\n";
        let start = text.find(marker).expect("the key") + marker.len();
        let end = start + text[start..].find("\nPEM").unwrap();
        let broken = format!("{}not a key{}", &text[..start], &text[end..]);
        let (code, output) = run_in_bash(&broken, None).await;
        assert_ne!(code, 0, "{format}: {output}");
        assert_eq!(
            exchanges(&app).await.len(),
            before,
            "no request reached the sandbox"
        );
    }
}
