//! The tester's recorded flow without curl (issue 36): a journey's flow names the TPP that recorded it (its
//! organisation and certificate fingerprint) and keeps the corporate id the PSU's SCA gave; `replay
//! --fixture` replays it on the state the journey started from in one command; a replay with another
//! certificate says that the certificate differs from the recording's, in the report and in every JUnit
//! failure; a bundled persona's certificate and key come as a `--cert-dir` archive (an imported one's key
//! is refused); exported files are named for what they hold; a version 1 flow still replays.

use crate::helpers::{fixture_dir, spawn_app, workbench_api as call, TestApp};
use crate::sca_pages::{browser, get_page, inputs, kari, param, start_sca, submit, tpp_params};
use reqwest::Method;
use serde_json::{json, Value};
use std::path::Path;

const REDIRECT: &str = "https://tpp.example/cb";

/// Kari consents in a corporate context on the bank's pages, then the TPP reads the accounts with the ids
/// the redirect gave; answers the psu-id and the corporate id.
async fn corporate_consent(app: &TestApp) -> (String, String) {
    let client = browser();
    let started = start_sca(app, "/v1/accounts", REDIRECT, &[]).await;
    let page = get_page(app, &client, &started.page, None).await;
    let next = submit(
        app,
        &client,
        &page.html,
        "identify",
        &[("nationalId", &kari())],
    )
    .await;
    let page = get_page(app, &client, &next, None).await;
    let next = submit(app, &client, &page.html, "method", &[("method", "BANK_ID")]).await;
    let page = get_page(app, &client, &next, None).await;
    let corporate = inputs(&page.html, "context")
        .into_iter()
        .map(|(v, _)| v)
        .find(|v| v.starts_with("CORPORATE:"))
        .expect("Kari acts for a company");
    let next = submit(
        app,
        &client,
        &page.html,
        "context",
        &[("context", &corporate)],
    )
    .await;
    let consent = get_page(app, &client, &next, None).await;
    let account = inputs(&consent.html, "account").remove(0).0;
    let back = submit(
        app,
        &client,
        &consent.html,
        "consent",
        &[("account", &account)],
    )
    .await;
    let params = tpp_params(&back, REDIRECT);
    let psu = param(&params, "psu-id").unwrap().to_owned();
    let corporate_id = param(&params, "psu-corporate-id").unwrap().to_owned();
    app.get("/v1/accounts")
        .header("TPP-Redirect-URI", REDIRECT)
        .header("TPP-Session-ID", "s-1")
        .header("PSU-IP-Address", "192.0.2.1")
        .header("PSU-ID", &psu)
        .header("PSU-Corporate-ID", &corporate_id)
        .send()
        .await
        .assert_ok();
    (psu, corporate_id)
}

/// The newest journey's flow and the state before its first entry, both as the workbench exports them.
async fn export_newest_journey(
    app: &TestApp,
    dir: &Path,
) -> (Value, std::path::PathBuf, std::path::PathBuf) {
    app.traffic_settled().await;
    let (_, journeys) = call(app, Method::GET, "/journeys?limit=5", None).await;
    let id = journeys[0]["id"].as_str().unwrap().to_owned();
    let (_, journey) = call(app, Method::GET, &format!("/journeys/{id}"), None).await;
    let first = journey["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_u64().unwrap())
        .min()
        .unwrap();
    let (status, state) = call(
        app,
        Method::GET,
        &format!("/state/at/{first}?position=before"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let (status, flow) = call(
        app,
        Method::GET,
        &format!("/journeys/{id}/flow?state=journey.state.json"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{flow}");
    let (state_path, flow_path) = (
        dir.join("journey.state.json"),
        dir.join("journey.flow.json"),
    );
    std::fs::write(&state_path, serde_json::to_vec(&state).unwrap()).unwrap();
    std::fs::write(&flow_path, serde_json::to_vec(&flow).unwrap()).unwrap();
    (flow, state_path, flow_path)
}

/// `replay FLOW --fixture STATE --cert-dir DIR --junit`: exit code, printed report, JUnit XML.
fn replay_on_own_sandbox(
    flow: &Path,
    state: &Path,
    cert_dir: &Path,
) -> (Option<i32>, String, String) {
    let junit = flow.with_extension("junit.xml");
    let output = crate::cli::binary()
        .arg("replay")
        .arg(flow)
        .arg("--fixture")
        .arg(state)
        .arg("--cert-dir")
        .arg(cert_dir)
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    (
        output.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
        std::fs::read_to_string(&junit).unwrap_or_default(),
    )
}

#[tokio::test]
async fn a_journeys_flow_names_its_tpp_keeps_the_corporate_id_and_replays_on_its_own_sandbox() {
    let app = spawn_app().await;
    let (psu, corporate_id) = corporate_consent(&app).await;
    let dir = tempfile::tempdir().unwrap();
    let (flow, state, flow_path) = export_newest_journey(&app, dir.path()).await;

    assert_eq!(flow["version"], 2);
    let recorded_by = flow["recordedBy"].as_array().unwrap();
    assert_eq!(recorded_by.len(), 1, "{flow}");
    assert_eq!(recorded_by[0]["name"], "Sandbox AISP PISP AS");
    assert!(recorded_by[0]["organisationId"]
        .as_str()
        .unwrap()
        .starts_with("PSDNO-FSA-"));
    let fingerprint = std::process::Command::new("openssl")
        .args(["x509", "-noout", "-fingerprint", "-sha256", "-in"])
        .arg(fixture_dir("aisp-pisp").join("cert.pem"))
        .output()
        .unwrap();
    assert_eq!(
        format!(
            "sha256 Fingerprint={}\n",
            recorded_by[0]["certificateSha256"].as_str().unwrap()
        ),
        String::from_utf8_lossy(&fingerprint.stdout)
    );
    let sca = flow["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "sca")
        .expect("an SCA step");
    assert_eq!(sca["psuId"], psu.as_str());
    assert_eq!(sca["psuCorporateId"], corporate_id.as_str());
    assert_eq!(flow["state"], "journey.state.json");

    // One command: a sandbox of its own from the state, the replay, the JUnit report; the recording's
    // certificate, so no note.
    let (code, out, junit) = tokio::task::spawn_blocking(move || {
        replay_on_own_sandbox(&flow_path, &state, &fixture_dir("aisp-pisp"))
    })
    .await
    .unwrap();
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("note:"), "{out}");
    assert!(
        junit.contains("failures=\"0\"")
            && junit.contains("SCA POST /v1/sandbox/sca/{authorisationId}"),
        "{junit}"
    );
}

#[tokio::test]
async fn a_replay_with_another_certificate_says_it_differs_from_the_recordings() {
    let app = spawn_app().await;
    corporate_consent(&app).await;
    let dir = tempfile::tempdir().unwrap();
    let (_, state, flow) = export_newest_journey(&app, dir.path()).await;

    // An account information TPP of its own: its psu-id and corporate id differ from the recording's, and
    // both are carried from its SCA into the reads, so the replay answers as recorded, with the note.
    let (state_a, flow_a) = (state.clone(), flow.clone());
    let (code, out, _) = tokio::task::spawn_blocking(move || {
        replay_on_own_sandbox(&flow_a, &state_a, &fixture_dir("aisp"))
    })
    .await
    .unwrap();
    assert!(
        out.starts_with("note: the certificate differs from the recording's: the flow was recorded by Sandbox AISP PISP AS"),
        "{out}"
    );
    assert!(out.contains("the replay signs as Sandbox AISP AS"), "{out}");
    assert!(
        !out.contains("is not known to this TPP"),
        "the corporate id is carried: {out}"
    );
    assert_eq!(code, Some(0), "{out}");

    // A payment initiation TPP cannot read accounts: every failure says first that the certificate is not
    // the recording's.
    let (code, out, junit) = tokio::task::spawn_blocking(move || {
        replay_on_own_sandbox(&flow, &state, &fixture_dir("pisp"))
    })
    .await
    .unwrap();
    assert_eq!(code, Some(1), "{out}");
    let failures: Vec<&str> = junit.split("<failure message=\"").skip(1).collect();
    assert!(!failures.is_empty(), "{junit}");
    for failure in failures {
        assert!(
            failure.starts_with("the certificate differs from the recording's"),
            "{failure}"
        );
    }
}

#[tokio::test]
async fn a_version_1_flow_still_replays() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut flow: Value = serde_json::from_slice(
        &std::fs::read(root.join("fixtures/flows/straks-payment.json")).unwrap(),
    )
    .unwrap();
    // As version 1 wrote it: no recordedBy, no corporate ids on SCA steps.
    flow["version"] = json!(1);
    flow.as_object_mut().unwrap().remove("recordedBy");
    for step in flow["steps"].as_array_mut().unwrap() {
        step.as_object_mut().unwrap().remove("psuCorporateId");
    }
    let path = dir.path().join("old.flow.json");
    std::fs::write(&path, serde_json::to_vec(&flow).unwrap()).unwrap();
    let state = root.join("fixtures/state/initial.json");
    let (code, out, junit) = tokio::task::spawn_blocking(move || {
        replay_on_own_sandbox(&path, &state, &fixture_dir("aisp-pisp"))
    })
    .await
    .unwrap();
    assert_eq!(code, Some(0), "{out}");
    assert!(
        !out.contains("note:"),
        "a version 1 flow names no recorder: {out}"
    );
    assert!(junit.contains("failures=\"0\""), "{junit}");
}

#[tokio::test]
async fn a_bundled_personas_key_comes_as_a_cert_dir_with_the_warning_and_an_imported_ones_is_refused(
) {
    let app = spawn_app().await;
    let response = app
        .client
        .get(format!(
            "{}/workbench/api/personas/bundled-aisp-pisp/cert-dir",
            app.base
        ))
        .bearer_auth(app.app.operator_token())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/x-tar");
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("filename=\"bundled-aisp-pisp.cert-dir.tar\""));
    let archive = response.bytes().await.unwrap();

    // Unpacked by the system's tar, it is a --cert-dir `sign` signs with.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.tar"), &archive).unwrap();
    let unpacked = std::process::Command::new("tar")
        .arg("-xf")
        .arg("x.tar")
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unpacked.success());
    let folder = dir.path().join("bundled-aisp-pisp");
    let readme = std::fs::read_to_string(folder.join("README.txt")).unwrap();
    assert!(readme.contains("THIS PRIVATE KEY IS PUBLIC"), "{readme}");
    assert_eq!(
        std::fs::read(folder.join("key.pem")).unwrap(),
        std::fs::read(fixture_dir("aisp-pisp").join("key.pem")).unwrap()
    );
    let signed = crate::cli::binary()
        .args([
            "sign",
            "--url",
            "http://127.0.0.1:1/v1/accounts",
            "--cert-dir",
        ])
        .arg(&folder)
        .output()
        .unwrap();
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );

    // An imported persona's key is the user's own: 409, and a persona the sandbox does not know: 404.
    let cert = std::fs::read_to_string(fixture_dir("aisp").join("cert.pem")).unwrap();
    let key = std::fs::read_to_string(fixture_dir("aisp").join("key.pem")).unwrap();
    let (status, imported) = call(
        &app,
        Method::POST,
        "/personas/import",
        Some(json!({"name": "Mine", "certificatePem": cert, "privateKeyPem": key})),
    )
    .await;
    assert_eq!(status, 201, "{imported}");
    let id = imported["id"].as_str().unwrap();
    let (status, refused) =
        call(&app, Method::GET, &format!("/personas/{id}/cert-dir"), None).await;
    assert_eq!(
        (status.as_u16(), refused["tppMessages"][0]["code"].as_str()),
        (409, Some("CONFLICT")),
        "{refused}"
    );
    let (status, unknown) = call(&app, Method::GET, "/personas/nobody/cert-dir", None).await;
    assert_eq!(
        (status.as_u16(), unknown["tppMessages"][0]["code"].as_str()),
        (404, Some("RESOURCE_UNKNOWN")),
        "{unknown}"
    );
    // Personas say their fingerprint, as recordedBy names a flow's TPP.
    let (_, personas) = call(&app, Method::GET, "/personas", None).await;
    let fingerprint = personas
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "bundled-aisp-pisp")
        .unwrap()["certificateSha256"]
        .clone();
    assert_eq!(fingerprint.as_str().map(str::len), Some(95));
}

#[tokio::test]
async fn exported_state_files_are_named_for_what_they_hold() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(format!("{}/workbench/api/state", app.base))
        .bearer_auth(app.app.operator_token())
        .send()
        .await
        .unwrap();
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    let now = app.app.state().clock.now();
    let expected = format!(
        "filename=\"sandbox-{:04}-{:02}-{:02}T{:02}",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour()
    );
    assert!(
        disposition.contains(&expected) && disposition.ends_with("Z.state.json\""),
        "{disposition}"
    );
}

#[tokio::test]
async fn the_currencies_give_each_codes_minor_units() {
    let app = spawn_app().await;
    let (status, list) = call(&app, Method::GET, "/currencies", None).await;
    assert_eq!(status, 200);
    let units = |code: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|c| c["code"] == code)
            .map(|c| c["minorUnits"].clone())
    };
    assert_eq!(units("NOK"), Some(json!(2)));
    assert_eq!(units("JPY"), Some(json!(0)));
    assert_eq!(units("KWD"), Some(json!(3)));
}
