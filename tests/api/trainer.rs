//! The service's side of the trainer's demo told from presentation mode (docs/workbench.md, "The trainer's
//! demo"): the PSU's browser on the bank's pages (`POST /workbench/api/sca/page`) doing a whole SCA and
//! arriving at the workbench's callback, or stopping at a TPP app's own redirect URI; a journey's restart
//! playing the PSU's pages, the way back to the TPP and the batch run again, its plan saying first what it
//! cannot; the journeys before an initialise marked as such; and every refusal with its status and code.

use crate::helpers::{spawn_app, workbench_api as call, TestApp, TppState, AIS_REDIRECT};
use crate::pis_support::{transfer, DOMESTIC, FIX, KARI, OLA_CURRENT};
use reqwest::Method;
use serde_json::{json, Value};

/// What the PSU's browser shows after `request`, which must succeed.
async fn browse(app: &TestApp, request: Value) -> Value {
    let (status, visit) = call(app, Method::POST, "/sca/page", Some(request)).await;
    assert_eq!(status, 200, "{visit}");
    visit
}

/// The `value`s of the inputs named `name` on a page.
fn values(html: &str, name: &str) -> Vec<String> {
    let marker = format!("name=\"{name}\" value=\"");
    html.match_indices(&marker)
        .map(|(at, _)| {
            let rest = &html[at + marker.len()..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect()
}

/// The PSU (Kari) through the bank's pages of authorisation `id` in the workbench's PSU browser, from its
/// first page: identify, HA2, private, every account offered, confirm or approve. The last visit.
async fn psu_does_sca(app: &TestApp, href: &str, id: &str) -> Value {
    let mut visit = browse(app, json!({"url": href})).await;
    for _ in 0..8 {
        if visit["leftTo"].is_string() {
            return visit;
        }
        let html = visit["html"].as_str().unwrap_or_default().to_owned();
        let (step, form) = if html.contains("type=\"text\" id=\"nationalId\"") {
            ("identify", json!([["nationalId", KARI]]))
        } else if html.contains("name=\"method\" value=\"HA2\"") {
            ("method", json!([["method", "HA2"]]))
        } else if html.contains("name=\"context\"") {
            ("context", json!([["context", "PRIVATE"]]))
        } else if html.contains("name=\"account\"") {
            let accounts: Vec<Value> = values(&html, "account")
                .into_iter()
                .map(|a| json!(["account", a]))
                .collect();
            ("consent", Value::Array(accounts))
        } else if html.contains("id=\"confirm-submit\"") {
            ("confirm", json!([]))
        } else {
            panic!("a page the PSU cannot act on: {html}")
        };
        visit = browse(
            app,
            json!({"url": format!("/sca/{id}/{step}"), "method": "POST", "form": form}),
        )
        .await;
    }
    panic!("the bank's pages did not send the PSU back: {visit}")
}

/// The journey `id` once `done` holds of it, read again each time the traffic log stores something.
async fn journey_when(app: &TestApp, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let done = &done;
    app.when_logged(|| async move {
        let (status, found) = call(app, Method::GET, &format!("/journeys/{id}"), None).await;
        (status == 200 && done(&found)).then_some(found)
    })
    .await
}

/// A domestic payment of Kari's by the default (aisp-pisp) TPP, its redirect URI the workbench's callback
/// for the bundled persona of that certificate: its id and scaRedirect.
async fn payment(app: &TestApp) -> (String, String) {
    let created = app
        .post(DOMESTIC, &transfer("250.00", OLA_CURRENT, json!({})))
        .header("x-accept-fix", FIX)
        .header("TPP-Session-ID", "trainer-1")
        .header(
            "TPP-Redirect-URI",
            &format!("{}/workbench/callback?persona=bundled-aisp-pisp", app.base),
        )
        .header("PSU-IP-Address", "192.0.2.10")
        .header("PSU-Context", "PRIVATE")
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let href = created.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    (created.body["paymentId"].as_str().unwrap().to_owned(), href)
}

#[tokio::test]
async fn the_psus_browser_does_the_sca_on_the_pages_and_arrives_at_the_workbench_callback() {
    let app = spawn_app().await;
    let (paid, href) = payment(&app).await;
    let id = href.rsplit('/').next().unwrap().to_owned();
    let first = browse(&app, json!({"url": href})).await;
    assert_eq!(first["url"], format!("/sca/{id}"));
    assert_eq!(first["status"], 200);
    assert!(first["html"].as_str().unwrap().contains("nationalId"));
    let last = psu_does_sca(&app, &href, &id).await;
    let left = last["leftTo"].as_str().unwrap();
    assert!(
        left.starts_with(&format!("{}/workbench/callback?", app.base)),
        "{last}"
    );
    assert_eq!(last["callbackVisited"], true, "{last}");
    assert!(last["url"]
        .as_str()
        .unwrap()
        .starts_with("/workbench/callback?"));
    // The callback recorded the PSU-ID for the persona, as a browser's arrival there does.
    let psu_id = left
        .split("psu-id=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    let (_, personas) = call(&app, Method::GET, "/personas", None).await;
    let persona = personas
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "bundled-aisp-pisp")
        .unwrap();
    assert_eq!(persona["psuId"], psu_id, "{persona}");
    // The PSU's steps are the PSU's on the timeline: page exchanges of the payment's journey.
    let journey = journey_when(&app, &format!("payment:{paid}"), |j| {
        j["journey"]["status"] == "ACTC"
    })
    .await;
    let posted: Vec<&str> = journey["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["area"] == "sca-page" && e["method"] == "POST")
        .map(|e| e["path"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(posted, ["identify", "method", "confirm"], "{journey}");
}

#[tokio::test]
async fn the_psus_browser_stops_where_the_bank_sends_the_psu_to_a_tpp_apps_own_redirect_uri() {
    let app = spawn_app().await;
    let tpp = TppState::new("trainer-app");
    let started = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(started.status, 401, "{}", started.body);
    let href = started.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = href.rsplit('/').next().unwrap().to_owned();
    let last = psu_does_sca(&app, &href, &id).await;
    assert_eq!(last["status"], 303, "{last}");
    assert!(last["html"].is_null());
    assert_eq!(last["callbackVisited"], false);
    assert!(last["leftTo"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{AIS_REDIRECT}?")));
    // Restarting that consent's journey says first that the way back to the app is not visited again.
    let journey = journey_when(&app, &format!("consent:{id}"), |j| {
        j["journey"]["status"] == "SCA done"
    })
    .await;
    let from = journey["entries"][0]["id"].as_u64().unwrap();
    let (status, plan) = call(
        &app,
        Method::GET,
        &format!("/journeys/consent:{id}/restart?from={from}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{plan}");
    assert!(plan["rewound"].is_null(), "nothing rewound: {plan}");
    let reasons: Vec<&str> = plan["notReplayed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 1, "{plan}");
    assert!(
        reasons[0].contains(&format!("{AIS_REDIRECT}, the app's own redirect URI")),
        "{plan}"
    );
}

#[tokio::test]
async fn a_restart_plays_the_psus_pages_the_way_back_and_the_batch_run_again() {
    let app = spawn_app().await;
    crate::rewind::settle(&app).await;
    let (paid, href) = payment(&app).await;
    let id = href.rsplit('/').next().unwrap().to_owned();
    psu_does_sca(&app, &href, &id).await;
    let (status, run) = call(&app, Method::POST, "/sandbox/batch-runs", None).await;
    assert_eq!(status, 201, "{run}");
    let journey = journey_when(&app, &format!("payment:{paid}"), |j| {
        j["journey"]["status"] == "ACSC"
    })
    .await;
    let first = journey["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "exchange")
        .unwrap()["id"]
        .as_u64()
        .unwrap();

    // The plan, before anything: the TPP's request, the PSU's pages and forms, the way back, the run.
    let path = format!("/journeys/payment:{paid}/restart");
    let (status, plan) = call(&app, Method::GET, &format!("{path}?from={first}"), None).await;
    assert_eq!(status, 200, "{plan}");
    let actors: Vec<&str> = plan["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["actor"].as_str().unwrap())
        .collect();
    assert_eq!(
        actors,
        ["tpp", "psu", "psu", "psu", "psu", "psu", "psu", "psu", "batch"],
        "{plan}"
    );
    assert_eq!(
        plan["steps"][7]["label"],
        "back to the TPP with the PSU's id"
    );
    assert_eq!(
        plan["notReplayed"],
        json!([]),
        "a run asked for is played as it was"
    );

    let (status, restart) = call(
        &app,
        Method::POST,
        &path,
        Some(json!({"from": first, "paceMs": 0})),
    )
    .await;
    assert_eq!(status, 202, "{restart}");
    assert_eq!(restart["steps"], plan["steps"]);
    // The re-run: a new payment, approved on the pages by the PSU's own steps, executed by the run.
    let paid = &paid;
    let again = app
        .when_logged(|| async {
            let (_, journeys) = call(&app, Method::GET, "/journeys", None).await;
            journeys.as_array().unwrap().iter().find_map(|j| {
                let other = j["id"].as_str()?.strip_prefix("payment:")?;
                (other != paid && j["status"] == "ACSC").then(|| other.to_owned())
            })
        })
        .await;
    let rerun = journey_when(&app, &format!("payment:{again}"), |j| {
        j["entries"].as_array().is_some_and(|e| {
            e.iter()
                .any(|e| e["path"].as_str().is_some_and(|p| p.ends_with("/confirm")))
        })
    })
    .await;
    let areas: Vec<&str> = rerun["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "exchange")
        .map(|e| e["area"].as_str().unwrap())
        .collect();
    assert_eq!(
        areas,
        ["bank", "sca-page", "sca-page", "sca-page", "sca-page", "sca-page", "sca-page"],
        "the PSU's pages, no automation shortcut: {rerun}"
    );
}

#[tokio::test]
async fn an_initialise_marks_the_journeys_before_it() {
    let app = spawn_app().await;
    let (paid, _) = payment(&app).await;
    let before = journey_when(&app, &format!("payment:{paid}"), |_| true).await;
    assert!(before["journey"]["beforeReset"].is_null(), "{before}");
    let (status, _) = call(&app, Method::POST, "/sandbox/initialize", None).await;
    assert_eq!(status, 200);
    let after = journey_when(&app, &format!("payment:{paid}"), |j| {
        j["journey"]["beforeReset"].is_string()
    })
    .await;
    assert_eq!(after["journey"]["status"], "RCVD", "the last status it had");
    let (again, _) = payment(&app).await;
    let fresh = journey_when(&app, &format!("payment:{again}"), |_| true).await;
    assert!(fresh["journey"]["beforeReset"].is_null(), "{fresh}");
}

#[tokio::test]
async fn every_refusal_of_the_psus_browser_and_the_restart_plan_says_its_status_and_code() {
    let app = spawn_app().await;
    let refused = |status: reqwest::StatusCode, body: &Value, code: &str, path: Option<&str>| {
        assert_eq!(body["tppMessages"][0]["code"], code, "{body}");
        if let Some(path) = path {
            assert_eq!(body["tppMessages"][0]["path"], path, "{body}");
        }
        status.as_u16()
    };
    for url in [
        "/v1/accounts".to_owned(),
        "https://elsewhere.example/sca/a1".to_owned(),
        format!("{}/workbench/api/personas", app.base),
        "/sca/a1/../../v1/accounts".to_owned(),
    ] {
        let (status, body) = call(&app, Method::POST, "/sca/page", Some(json!({"url": url}))).await;
        assert_eq!(
            refused(status, &body, "FORMAT_ERROR", Some("url")),
            400,
            "{url}"
        );
    }
    let (status, body) = call(
        &app,
        Method::POST,
        "/sca/page",
        Some(json!({"url": "/sca/a1", "method": "PUT"})),
    )
    .await;
    assert_eq!(refused(status, &body, "FORMAT_ERROR", None), 400);
    let (status, body) = call(
        &app,
        Method::POST,
        "/sca/page",
        Some(json!({"url": "/sca/a1", "cookie": "x"})),
    )
    .await;
    assert_eq!(refused(status, &body, "FORMAT_ERROR", None), 400);
    // An unknown authorisation is the bank's own page saying so, not a refusal of the browser.
    let unknown = browse(&app, json!({"url": "/sca/no-such-authorisation"})).await;
    assert_eq!(unknown["status"], 404, "{unknown}");

    let (status, body) = call(&app, Method::GET, "/journeys/nope/restart?from=1", None).await;
    assert_eq!(refused(status, &body, "RESOURCE_UNKNOWN", Some("id")), 404);
    let (status, body) = call(&app, Method::GET, "/journeys/nope/restart", None).await;
    assert_eq!(
        refused(status, &body, "QUERY_PARAMETER_REQUIRED", None),
        400
    );
    let (status, body) = call(&app, Method::GET, "/journeys/nope/restart?from=x", None).await;
    assert_eq!(refused(status, &body, "FORMAT_ERROR", Some("from")), 400);
    let (status, body) = call(
        &app,
        Method::GET,
        "/journeys/nope/restart?from=1&to=2",
        None,
    )
    .await;
    assert_eq!(refused(status, &body, "FORMAT_ERROR", Some("to")), 400);
}
