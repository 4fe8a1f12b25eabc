//! "Paste what your app sent": a curl command or a raw HTTP request through the gate's checks, by the
//! workbench's `POST /workbench/api/verify` and by `xs2a-sandbox verify` — one function, one verdict. The
//! usual Digest problem, a body that lost its line ends on the way (`curl -d @file`), is named.

use crate::cli::binary;
use crate::helpers::{spawn_app, tpp, workbench_api as call, TEST_NOW};
use axum::http::HeaderMap;
use reqwest::Method;
use serde_json::{json, Value};
use xs2a_core::signing::signer::SignOptions;

const PAYMENT: &str = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";

/// A payment body as a developer saves it: pretty-printed, six line ends.
const BODY: &str = "{\n  \"instructedAmount\": {\"currency\": \"NOK\", \"amount\": \"250.00\"},\n  \"debtorAccount\": {\"bban\": \"12051000003\"},\n  \"creditorName\": \"Ola Nordmann\",\n  \"creditorAccount\": {\"bban\": \"12051001018\"},\n  \"remittanceInformationUnstructured\": \"Middag\"\n}\n";

/// The headers the aisp-pisp fixture signs for a POST of `body` at the test clock.
fn signed_headers(body: &[u8]) -> Vec<(String, String)> {
    let mut headers = HeaderMap::new();
    headers.insert("content-type", "application/json".parse().unwrap());
    tpp("aisp-pisp").sign(
        "POST",
        PAYMENT,
        &mut headers,
        body,
        TEST_NOW,
        &SignOptions::default(),
    );
    headers
        .iter()
        .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap().to_owned()))
        .collect()
}

fn raw_request(headers: &[(String, String)], body: &str) -> String {
    let head: String = headers.iter().map(|(n, v)| format!("{n}: {v}\n")).collect();
    format!("POST {PAYMENT} HTTP/1.1\n{head}\n{body}")
}

fn curl(headers: &[(String, String)], data: &str) -> String {
    let options: String = headers
        .iter()
        .map(|(n, v)| format!("  -H '{n}: {v}' \\\n"))
        .collect();
    format!("curl -sS -X POST 'http://127.0.0.1:8080{PAYMENT}' \\\n{options}  {data}\n")
}

fn step<'v>(answer: &'v Value, name: &str) -> &'v Value {
    answer["verdict"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == name)
        .unwrap_or_else(|| panic!("no step {name} in {answer}"))
}

#[tokio::test]
async fn a_pasted_curl_command_or_raw_request_gets_the_gates_verdict_step_by_step() {
    let app = spawn_app().await;
    let headers = signed_headers(BODY.as_bytes());
    // As curl sends it with --data-binary: the bytes signed, accepted.
    let quoted = format!("--data-binary '{BODY}'");
    let (status, answer) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": curl(&headers, &quoted)})),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["form"], "curl");
    assert_eq!(
        (answer["method"].as_str(), answer["target"].as_str()),
        (Some("POST"), Some(PAYMENT))
    );
    assert_eq!(answer["accepted"], true, "{answer}");
    assert_eq!(answer["tpp"]["name"], "Sandbox AISP PISP AS");
    assert_eq!(answer["request"]["bodyBytes"], BODY.len());
    assert_eq!(step(&answer, "signature")["outcome"], "passed");
    assert!(answer["verdict"]["signingString"]
        .as_str()
        .unwrap()
        .starts_with("(request-target): post /v1/payments/"));

    // The same bytes without their line ends, as `curl -d @file` sends a file: refused at the Digest,
    // and the body shows what arrived.
    let flattened = BODY.replace('\n', "");
    assert_eq!(BODY.len() - flattened.len(), BODY.matches('\n').count());
    let (status, answer) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": raw_request(&headers, &flattened)})),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["form"], "raw");
    assert_eq!(answer["accepted"], false);
    assert_eq!(answer["failedStep"], "digest");
    assert_eq!(step(&answer, "digest")["outcome"], "failed");
    assert_eq!(answer["request"]["bodyBytes"], flattened.len());
    assert_eq!(answer["request"]["body"], flattened);
}

#[tokio::test]
async fn what_a_paste_cannot_carry_is_refused_at_the_request_saying_why() {
    let app = spawn_app().await;
    let headers = signed_headers(BODY.as_bytes());
    for (data, says) in [
        ("-d @payment.json", "drops the file's line ends"),
        ("--data-binary @payment.json", "not in the paste"),
        ("--data-binary \"$BODY\"", "$BODY"),
    ] {
        let (status, answer) = call(
            &app,
            Method::POST,
            "/verify",
            Some(json!({"request": curl(&headers, data)})),
        )
        .await;
        assert_eq!(status, 400, "{data}: {answer}");
        let message = &answer["tppMessages"][0];
        assert_eq!(
            (message["code"].as_str(), message["path"].as_str()),
            (Some("FORMAT_ERROR"), Some("request")),
            "{data}"
        );
        assert!(
            message["text"].as_str().unwrap().contains(says),
            "{data}: {message}"
        );
    }
    let (status, answer) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": "hello"})),
    )
    .await;
    assert_eq!(
        (status.as_u16(), answer["tppMessages"][0]["path"].as_str()),
        (400, Some("request"))
    );
    let (status, answer) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": raw_request(&headers, BODY), "at": "soon"})),
    )
    .await;
    assert_eq!(
        (status.as_u16(), answer["tppMessages"][0]["path"].as_str()),
        (400, Some("at"))
    );
    let (status, _) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": "x", "extra": 1})),
    )
    .await;
    assert_eq!(status, 400, "unknown fields are refused");
}

/// A request captured an hour ago fails the Date against now; checked as of its own Date, only what is
/// wrong with it besides the time shows.
#[tokio::test]
async fn a_request_captured_earlier_is_checked_as_of_its_own_date_when_asked() {
    let app = spawn_app().await;
    app.state.clock.advance(time::Duration::hours(1));
    let text = raw_request(&signed_headers(BODY.as_bytes()), BODY);
    let (_, now) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": text})),
    )
    .await;
    assert_eq!(now["failedStep"], "date", "{now}");
    let (_, then) = call(
        &app,
        Method::POST,
        "/verify",
        Some(json!({"request": text, "at": "date"})),
    )
    .await;
    assert_eq!(then["accepted"], true, "{then}");
    assert_eq!(then["at"], "2026-06-01T12:00:00Z");
}

/// The command line and the workbench say the same of the same text: one function behind both.
#[tokio::test]
async fn verify_on_the_command_line_reads_a_curl_command_and_agrees_with_the_workbench() {
    let app = spawn_app().await;
    let headers = signed_headers(BODY.as_bytes());
    let flattened = BODY.replace('\n', "");
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        (
            "good.sh",
            curl(&headers, &format!("--data-binary '{BODY}'")),
        ),
        (
            "flat.sh",
            curl(&headers, &format!("--data-raw '{flattened}'")),
        ),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, &text).unwrap();
        let output = binary()
            .args(["verify", "--at", "2026-06-01T12:00:00Z", "--request"])
            .arg(&file)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&output.stdout);
        let (_, answer) = call(
            &app,
            Method::POST,
            "/verify",
            Some(json!({"request": text})),
        )
        .await;
        assert_eq!(
            output.status.success(),
            answer["accepted"] == true,
            "{name}: {printed} / {answer}"
        );
        if let Some(failed) = answer["failedStep"].as_str() {
            assert!(printed.contains(&format!("FAIL  {failed}")), "{printed}");
        }
    }
}
