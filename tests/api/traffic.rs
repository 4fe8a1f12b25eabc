//! The traffic log as the inspector and the flow view read it: every request on the port is one exchange
//! with the gate's verdict step by step; a refusal names its step, the signing string and the likely
//! cause; journeys gather a payment's exchanges, its SCA pages and batch events; filters; the stream
//! resumes after the last entry seen; retention keeps the newest; the workbench's own calls are not logged.

use crate::helpers::{complete_sca, sca_redirect, spawn_app, workbench_api as call, TestApp};
use crate::pis_support::{kari, pay, transfer, OLA_CURRENT, STRAKS};
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use xs2a_core::signing::signer::SignOptions;

/// The newest entries for `query` once the writer has stored at least `count` of them (read again each
/// time the log stores something, never after a set time).
async fn entries(app: &TestApp, query: &str, count: usize) -> Vec<Value> {
    app.when_logged(|| async move {
        let (_, page) = call(app, Method::GET, &format!("/traffic?{query}"), None).await;
        let found = page["entries"].as_array().cloned().unwrap_or_default();
        (found.len() >= count).then_some(found)
    })
    .await
}

async fn whole(app: &TestApp, id: &Value) -> Value {
    let (status, exchange) = call(app, Method::GET, &format!("/traffic/{id}"), None).await;
    assert_eq!(status, 200, "{exchange}");
    exchange
}

#[tokio::test]
async fn every_request_on_the_port_is_an_exchange_with_the_gates_verdict() {
    let app = spawn_app().await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    let found = entries(&app, "kind=exchange", 1).await;
    let summary = &found[0];
    assert_eq!(summary["path"], "/v1/sandbox/customers");
    assert_eq!(
        (summary["status"].as_u64(), summary["area"].as_str()),
        (Some(200), Some("sandbox"))
    );
    assert_eq!(summary["tpp"]["name"], "Sandbox AISP PISP AS");
    let exchange = whole(&app, &summary["id"]).await;
    let steps = exchange["gate"]["steps"].as_array().unwrap();
    assert!(
        steps.iter().take(9).all(|s| s["outcome"] == "passed"),
        "{steps:?}"
    );
    assert!(exchange["gate"]["signingString"]
        .as_str()
        .unwrap()
        .contains("(request-target): get /v1/sandbox/customers"));
    assert!(exchange["response"]["body"]
        .as_str()
        .unwrap()
        .contains("Kari Nordmann"));
    assert!(exchange["request"]["headers"]
        .to_string()
        .contains("tpp-signature-certificate"));
    // The workbench's own calls are not exchanges.
    let (_, page) = call(&app, Method::GET, "/traffic?q=workbench", None).await;
    assert!(page["entries"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_wrong_digest_and_an_unsigned_date_name_their_step_and_likely_cause() {
    let app = spawn_app().await;
    app.put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
        .with_body_after_signing(br#"{"email":"evil@tpp.no"}"#)
        .send()
        .await
        .assert_refused(400, "BAD_REQUEST", Some("Digest"));
    app.get("/v1/sandbox/customers")
        .options(SignOptions {
            signed_headers: Some(vec!["x-request-id".into()]),
            ..Default::default()
        })
        .send()
        .await;
    let failed = entries(&app, "failed=true", 2).await;
    assert_eq!(failed[0]["failedStep"], "signed headers");
    assert_eq!(failed[1]["failedStep"], "digest");
    let digest = whole(&app, &failed[1]["id"]).await;
    let step = digest["gate"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == "digest")
        .unwrap()
        .clone();
    assert_eq!(step["outcome"], "failed");
    assert!(step["rule"].as_str().unwrap().contains("hash"));
    assert!(digest["gate"]["likelyCause"]
        .as_str()
        .unwrap()
        .contains("different body"));
    assert_eq!(digest["tppMessages"][0]["code"], "BAD_REQUEST");
    let unsigned = whole(&app, &failed[0]["id"]).await;
    assert!(unsigned["gate"]["likelyCause"]
        .as_str()
        .unwrap()
        .contains("signed list"));
    // The list is refused, yet the string the sandbox would have verified is there to compare with.
    assert!(
        unsigned["gate"]["signingString"]
            .as_str()
            .is_some_and(|s| s.starts_with("x-request-id: ")),
        "{}",
        unsigned["gate"]
    );
    // A refused list does not stop the signature from being checked over what was listed (issue 38).
    let signature = unsigned["gate"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == "signature")
        .unwrap()
        .clone();
    assert_eq!(signature["outcome"], "passed", "{signature}");
}

#[tokio::test]
async fn the_composers_requests_carry_its_signing_string_and_their_exchange_number() {
    let app = spawn_app().await;
    let (_, sent) = call(
        &app,
        Method::POST,
        "/compose/send",
        Some(
            json!({"personaId": "bundled-aisp", "method": "GET", "path": "/v1/sandbox/customers",
                    "headers": [["PSU-ID", "not-signed-by-the-composer-is-fine"]]}),
        ),
    )
    .await;
    let id = sent["exchangeId"]
        .as_str()
        .expect("the composer learns the exchange's number");
    let exchange = whole(&app, &json!(id.parse::<u64>().unwrap())).await;
    assert_eq!(exchange["kind"], "exchange", "the contract's tag");
    assert_eq!(exchange["source"], "composer");
    assert_eq!(exchange["composerSigningString"], sent["signingString"]);
}

#[tokio::test]
async fn a_payment_journey_gathers_its_exchanges_sca_pages_and_status_changes() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let created = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer(
            "125.50",
            OLA_CURRENT,
            json!({"remittanceInformationUnstructured": "Middag"}),
        ),
    )
    .send()
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let payment = created.body["paymentId"].as_str().unwrap().to_owned();
    let href = created.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    // The PSU's page, then the automation completes it (as the pages would).
    app.client.get(&href).send().await.unwrap();
    complete_sca(&app, &href, json!({"nationalId": "14838510036"})).await;
    let journey_id = format!("payment:{payment}");
    // The SCA steps are events of the journey too, and they arrive before the payment's status change
    // does: wait for the settlement itself.
    let path = format!("/journeys/{journey_id}");
    let journey = app
        .when_logged(|| {
            let path = path.clone();
            let app = &app;
            async move {
                let (status, found) = call(app, Method::GET, &path, None).await;
                (status == 200 && found["journey"]["status"] == "ACSC").then_some(found)
            }
        })
        .await;
    assert_eq!(journey["journey"]["kind"], "payment", "{journey}");
    assert!(journey["journey"]["title"]
        .as_str()
        .unwrap()
        .contains("125.50 NOK to Ola Nordmann"));
    let entries = journey["entries"].as_array().unwrap();
    assert_eq!(entries[0]["method"], "POST", "the creation first");
    assert!(
        entries.iter().any(|e| e["area"] == "sca-page"),
        "the PSU's page belongs to it"
    );
    assert!(
        entries.iter().any(|e| e["event"] == "payment.status"),
        "the status change belongs to it"
    );
    assert_eq!(journey["journey"]["status"], "ACSC");
    let (_, all) = call(&app, Method::GET, "/journeys", None).await;
    assert!(all
        .as_array()
        .unwrap()
        .iter()
        .any(|j| j["id"] == journey_id));
    let by_resource = entries_for(&app, &format!("resource=payment:{payment}")).await;
    assert!(by_resource.len() >= 2);
    let _ = sca_redirect;
}

async fn entries_for(app: &TestApp, query: &str) -> Vec<Value> {
    entries(app, query, 1).await
}

#[tokio::test]
async fn filters_and_the_har_form_answer_what_the_inspector_asks() {
    let app = spawn_app().await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    app.get("/v1/sandbox/nothing-here").send().await;
    let four = entries(&app, "status=4xx", 1).await;
    assert!(four
        .iter()
        .all(|e| e["status"].as_u64().unwrap() / 100 == 4));
    let text = entries(&app, "q=nothing-here", 1).await;
    assert_eq!(text[0]["path"], "/v1/sandbox/nothing-here");
    let (status, refused) = call(&app, Method::GET, "/traffic?status=6xx", None).await;
    assert_eq!(status, 400);
    assert_eq!(refused["tppMessages"][0]["path"], "status");
    let ok = entries(&app, "status=2xx", 1).await;
    let (_, har) = call(
        &app,
        Method::GET,
        &format!("/traffic/{}/har", ok[0]["id"]),
        None,
    )
    .await;
    assert_eq!(har["request"]["method"], "GET");
    assert!(har["request"]["url"]
        .as_str()
        .unwrap()
        .ends_with("/v1/sandbox/customers"));
    assert_eq!(har["response"]["status"], 200);
}

#[tokio::test]
async fn the_stream_resumes_after_the_last_entry_seen() {
    let app = spawn_app().await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    let first = entries(&app, "kind=exchange", 1).await[0]["id"]
        .as_u64()
        .unwrap();
    app.get("/v1/sandbox/agreements").send().await.assert_ok();
    entries(&app, "kind=exchange", 2).await;
    let mut stream = app
        .client
        .get(format!("{}/workbench/api/traffic/stream", app.base))
        .bearer_auth(app.app.operator_token())
        .header("Last-Event-ID", first.to_string())
        .send()
        .await
        .unwrap();
    let mut text = String::new();
    while !text.contains("/v1/sandbox/agreements") {
        let chunk = stream.chunk().await.unwrap().unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(
        !text.contains("\"path\":\"/v1/sandbox/customers\""),
        "nothing seen before is sent again: {text}"
    );
}

#[tokio::test]
async fn retention_keeps_the_newest_entries_within_the_caps() {
    let app = spawn_app().await;
    let (status, _) = call(
        &app,
        Method::PUT,
        "/traffic/settings",
        Some(json!({"enabled": true, "maxEntries": 100, "maxBytes": 1048576})),
    )
    .await;
    assert_eq!(status, 200);
    for _ in 0..130 {
        app.get("/v1/sandbox/customers").send().await;
    }
    app.get("/v1/sandbox/agreements").send().await.assert_ok();
    let newest = entries(&app, "q=agreements", 1).await;
    let (_, page) = call(&app, Method::GET, "/traffic?limit=1000", None).await;
    let kept = page["entries"].as_array().unwrap();
    assert!(kept.len() <= 100, "{} kept", kept.len());
    assert_eq!(kept[0]["id"], newest[0]["id"], "the newest is kept");
    let (status, refused) = call(
        &app,
        Method::PUT,
        "/traffic/settings",
        Some(json!({"enabled": true, "maxEntries": 1, "maxBytes": 1048576})),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
}

#[tokio::test]
async fn the_log_is_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = || xs2a_http::app::AppConfig {
        data: xs2a_http::app::DataDir::At(dir.path().to_owned()),
        ..crate::helpers::test_config()
    };
    {
        let app = crate::helpers::spawn_app_with(config()).await;
        app.get("/v1/sandbox/customers").send().await.assert_ok();
        entries(&app, "kind=exchange", 1).await;
        app.app.close().unwrap();
    }
    let app = crate::helpers::build_when_free(config).await;
    let kept = app.state().traffic.page(None, 10, |_| true).unwrap();
    assert!(kept.iter().any(|e| matches!(e, xs2a_workbench::traffic::model::Entry::Exchange(x) if x.path == "/v1/sandbox/customers")));
}

#[tokio::test]
async fn the_search_finds_text_that_is_only_in_a_request_or_response_body() {
    let app = spawn_app().await;
    // A remittance text only the request body holds (and the response echoes), and a customer number
    // only a response body holds.
    let account = crate::pis_support::KARI_CURRENT;
    let id = crate::pis_support::customers(&app)
        .await
        .iter()
        .flat_map(|c| c["accounts"].as_array().unwrap().clone())
        .find(|a| a["bban"] == account)
        .and_then(|a| a["id"].as_str().map(str::to_owned))
        .expect("Kari's current account");
    app.post(
        &format!("/v1/sandbox/accounts/{id}/transactions"),
        &json!([{"amount": "-12.00", "currency": "NOK", "bookingDate": "2026-05-30",
                 "remittanceInformationUnstructured": "Sommerhytte Lofoten 8842"}]),
    )
    .send()
    .await
    .assert_ok();
    app.get("/v1/sandbox/customers").send().await.assert_ok();

    let found = entries(&app, "q=sommerhytte%20LOFOTEN", 1).await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["method"], "POST");
    assert!(found[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("/transactions"));
    // Kari's national id is in the customer list's answer only (the request names no one).
    let by_answer = entries(&app, &format!("q={}", crate::pis_support::KARI), 1).await;
    assert!(
        by_answer
            .iter()
            .any(|e| e["path"] == "/v1/sandbox/customers" && e["method"] == "GET"),
        "{by_answer:?}"
    );
    // Text in no entry finds nothing, and the other filters still apply with it.
    let (_, none) = call(&app, Method::GET, "/traffic?q=finnes-ikke-7731", None).await;
    assert_eq!(none["entries"].as_array().unwrap().len(), 0);
    let (_, events_only) = call(&app, Method::GET, "/traffic?q=Sommerhytte&kind=event", None).await;
    assert_eq!(events_only["entries"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn failed_only_leaves_out_the_401_that_starts_a_consent_journey() {
    let app = spawn_app().await;
    let asked = app
        .get("/v1/accounts")
        .header("TPP-Session-ID", &uuid::Uuid::new_v4().to_string())
        .header("TPP-Redirect-URI", "https://tpp.example/callback")
        .send()
        .await;
    asked.assert_refused(401, "CONSENT_INVALID", None);
    // A refusal of the same status beside it: an unsigned request.
    let unsigned = app.get("/v1/accounts").unsigned().send().await;
    assert_eq!(unsigned.status, 400, "{}", unsigned.body);
    let both = entries(&app, "kind=exchange", 2).await;
    assert_eq!(both.len(), 2, "{both:?}");
    let failed = entries(&app, "failed=true&kind=exchange", 1).await;
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["status"], 400);
    // The SCA start is still found by its status.
    let started = entries(&app, "status=4xx&kind=exchange", 2).await;
    assert!(started.iter().any(|e| e["status"] == 401), "{started:?}");
}

/// "Clear traffic": every entry and journey goes, on disk before the answer (a restart finds none), the
/// numbers go on, `traffic.cleared` tells the views; the sandbox's data stays.
#[tokio::test]
async fn clearing_the_traffic_removes_every_entry_and_journey_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let config = || xs2a_http::app::AppConfig {
        data: xs2a_http::app::DataDir::At(dir.path().to_owned()),
        ..crate::helpers::test_config()
    };
    let (after, gone);
    {
        let app = crate::helpers::spawn_app_with(config()).await;
        let tpp = kari(&app).await;
        let created = pay(
            &app,
            &tpp,
            STRAKS,
            &transfer("10.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await;
        assert_eq!(created.status, 201, "{}", created.body);
        let payment = created.body["paymentId"].as_str().unwrap().to_owned();
        // The creation and its payment.status event, both stored: nothing of before is still on its way.
        let before = entries(&app, &format!("resource=payment:{payment}"), 2).await;
        gone = before
            .iter()
            .filter_map(|e| e["id"].as_u64())
            .collect::<Vec<u64>>();
        let (_, journeys) = call(&app, Method::GET, "/journeys", None).await;
        assert!(!journeys.as_array().unwrap().is_empty());
        let chunks = || {
            std::fs::read_dir(dir.path().join("traffic-log"))
                .unwrap()
                .count()
        };
        assert!(chunks() > 0);

        let (status, cleared) = call(&app, Method::DELETE, "/traffic", None).await;
        assert_eq!(status, 200, "{cleared}");
        assert!(cleared["removed"].as_u64().unwrap() >= before.len() as u64);
        let through = cleared["through"].as_u64().unwrap();
        assert!(through >= before[0]["id"].as_u64().unwrap());
        assert_eq!(chunks(), 0, "the log's files go with it");
        let (_, page) = call(&app, Method::GET, "/traffic", None).await;
        assert_eq!(page["entries"], json!([]));
        let (_, journeys) = call(&app, Method::GET, "/journeys", None).await;
        assert_eq!(journeys, json!([]));
        let (status, _) = call(
            &app,
            Method::GET,
            &format!("/journeys/payment:{payment}"),
            None,
        )
        .await;
        assert_eq!(status, 404, "the flow of a cleared journey is gone");
        let (events, _, _) = app.state.events.resume(0);
        let told = events
            .iter()
            .find(|e| e.kind.name() == "traffic.cleared")
            .expect("the views are told");
        assert_eq!(told.data, cleared);
        // The sandbox's data stays: the payment is still there.
        let (_, payments) = call(&app, Method::GET, "/sandbox/payments", None).await;
        assert!(payments.to_string().contains(&payment));

        app.get("/v1/sandbox/customers").send().await.assert_ok();
        let new = entries(&app, "kind=exchange", 1).await;
        after = new[0]["id"].as_u64().unwrap();
        assert!(after > through, "numbers are never reused");
        app.app.close().unwrap();
    }
    // The stopped service lets go of the directory as its tasks end: opened again within a bounded
    // number of tries.
    let mut reopened = None;
    for _ in 0..200 {
        match xs2a_http::app::App::build(config()) {
            Ok(app) => {
                reopened = Some(app);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(25)).await,
        }
    }
    let app = reopened.expect("the data directory opens again");
    let kept = app.state().traffic.page(None, 10, |_| true).unwrap();
    let ids: Vec<u64> = kept.iter().map(|e| e.id()).collect();
    assert!(ids.contains(&after), "{ids:?}");
    assert!(
        ids.iter().all(|id| !gone.contains(id)),
        "nothing of before the clear: {ids:?}"
    );
}

#[tokio::test]
async fn the_search_finds_an_exchange_by_the_ids_a_tpp_developer_pastes() {
    let app = spawn_app().await;
    let mut watch = app.watch_traffic();
    let request_id = "7d1f0c52-3b7e-4f9a-9d55-0a1b2c3d4e5f";
    let session = "tpp-session-search-4471";
    let asked = app
        .get("/v1/accounts")
        .header("X-Request-ID", request_id)
        .header("TPP-Session-ID", session)
        .header("TPP-Redirect-URI", "https://tpp.example/callback")
        .send()
        .await;
    asked.assert_refused(401, "CONSENT_INVALID", None);
    let authorisation = crate::helpers::authorisation_id(&sca_redirect(&asked)).to_owned();
    // Another exchange beside it, which none of the ids names.
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    watch
        .summary(&app, |s| s.path == "/v1/sandbox/customers")
        .await;

    // By X-Request-ID (in any case), by TPP-Session-ID and by the authorisation id: the one exchange.
    for q in [
        request_id.to_owned(),
        request_id.to_uppercase(),
        session.to_owned(),
        authorisation.clone(),
    ] {
        let (_, page) = call(&app, Method::GET, &format!("/traffic?q={q}"), None).await;
        let found = page["entries"].as_array().unwrap();
        assert_eq!(found.len(), 1, "q={q}: {found:?}");
        assert_eq!(found[0]["path"], "/v1/accounts", "q={q}");
    }
    // By PSU-ID, once the PSU is known: a request that carries it.
    let done = complete_sca(
        &app,
        &sca_redirect(&asked),
        json!({"nationalId": crate::pis_support::KARI}),
    )
    .await;
    let psu_id = done["psuId"].as_str().unwrap().to_owned();
    app.get("/v1/accounts")
        .header("PSU-ID", &psu_id)
        .header("TPP-Session-ID", session)
        .header("TPP-Redirect-URI", "https://tpp.example/callback")
        .send()
        .await
        .assert_ok();
    watch
        .summary(&app, |s| s.psu_id.as_deref() == Some(psu_id.as_str()))
        .await;
    let (_, page) = call(&app, Method::GET, &format!("/traffic?q={psu_id}"), None).await;
    assert!(
        page["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["path"] == "/v1/accounts" && e["psuId"] == psu_id.as_str()),
        "{page}"
    );
}
