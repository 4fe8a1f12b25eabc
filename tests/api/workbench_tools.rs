//! The workbench's helpers for its screens (issue 18): number generators for new mock data, the SCAs not
//! finished yet, the gate's definition (tested against the refusals the gate really gives), the likely
//! cause of a refused answer the gate accepted, and the live event after a snapshot restore or an import.

use crate::helpers::{sca_redirect, spawn_app, workbench_api as call, TestApp, TppState};
use crate::pis_support::{created, kari, pay, transfer, OLA_CURRENT, STRAKS};
use crate::workbench_edits::changed_event;
use reqwest::Method;
use serde_json::{json, Value};
use xs2a_core::domain::{Bban, NationalId, OrgNumber};
use xs2a_core::signing::signer::SignOptions;

#[tokio::test]
async fn generated_numbers_are_valid_unused_and_of_the_kind_asked_for() {
    let app = spawn_app().await;
    let (status, body) = call(
        &app,
        Method::GET,
        "/sandbox/generate/national-id?kind=d-number&birthDate=1990-05-17&sex=male",
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = NationalId::parse(body["value"].as_str().unwrap()).unwrap();
    assert_eq!(id.kind(), xs2a_core::domain::IdKind::DNumber);
    assert_eq!(id.birth_date(), time::macros::date!(1990 - 05 - 17));
    assert_eq!(id.sex(), xs2a_core::domain::Sex::Male);
    let (_, body) = call(&app, Method::GET, "/sandbox/generate/national-id", None).await;
    let id = NationalId::parse(body["value"].as_str().unwrap()).unwrap();
    assert!(id.is_synthetic(), "synthetic by default");
    // A generated number makes a customer at once.
    let (status, made) = call(
        &app,
        Method::POST,
        "/sandbox/customers",
        Some(json!({"customerNumber": id.as_str(), "name": "Generert Person"})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let (_, body) = call(&app, Method::GET, "/sandbox/generate/org-number", None).await;
    OrgNumber::parse(body["value"].as_str().unwrap()).unwrap();
    let (_, body) = call(
        &app,
        Method::GET,
        "/sandbox/generate/bban?bankCode=8601",
        None,
    )
    .await;
    let bban = Bban::parse(body["value"].as_str().unwrap()).unwrap();
    assert!(bban.as_str().starts_with("8601"));
    // Also to scripts, signed, under /v1/sandbox.
    let signed = app.get("/v1/sandbox/generate/bban").send().await;
    signed.assert_ok();
    assert!(signed.body["value"].as_str().unwrap().starts_with("1205"));

    for (query, at) in [
        ("national-id?kind=h-number", "kind"),
        ("national-id?birthDate=17.05.1990", "birthDate"),
        ("national-id?birthDate=1850-01-01", "birthDate"),
        ("national-id?sex=x", "sex"),
        ("bban?bankCode=12", "bankCode"),
    ] {
        let (status, body) = call(
            &app,
            Method::GET,
            &format!("/sandbox/generate/{query}"),
            None,
        )
        .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["tppMessages"][0]["code"], "FORMAT_ERROR", "{query}");
        assert_eq!(body["tppMessages"][0]["path"], at, "{query}");
    }
}

#[tokio::test]
async fn the_national_id_is_checked_for_its_date_before_its_check_digits() {
    let app = spawn_app().await;
    // Month 34, and wrong check digits: the month is what the customer form is told.
    let (status, body) = call(
        &app,
        Method::POST,
        "/sandbox/customers",
        Some(json!({"customerNumber": "01340012300", "name": "A", "type": "private"})),
    )
    .await;
    assert_eq!(status, 400);
    let text = body["tppMessages"][0]["text"].as_str().unwrap();
    assert!(text.contains("month 34"), "{text}");
    assert!(!text.contains("check digit"), "{text}");
}

async fn pending(app: &TestApp) -> Vec<Value> {
    let (status, body) = call(app, Method::GET, "/sca/pending", None).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().clone()
}

#[tokio::test]
async fn the_sca_screen_lists_the_unfinished_authorisations_newest_first() {
    let app = spawn_app().await;
    assert!(pending(&app).await.is_empty());
    let tpp = kari(&app).await; // a finished SCA: not pending
    assert!(pending(&app).await.is_empty());
    let consent = TppState::new("consent-1")
        .post(&app, "/v1/bank-offered-consents", &json!({}))
        .send()
        .await;
    let consent_href = sca_redirect(&consent);
    app.put("/v1/sandbox/clock", &json!({"advance": "PT1M"}))
        .send()
        .await
        .assert_ok();
    let payment = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("10.00", OLA_CURRENT, json!({})),
    )
    .send()
    .await;
    let payment_id = created(&payment);
    let list = pending(&app).await;
    assert_eq!(list.len(), 2, "{list:?}");
    assert_eq!(list[0]["kind"], "payment");
    assert_eq!(list[0]["paymentIds"], json!([payment_id]));
    assert!(!list[0]["tppName"].as_str().unwrap().is_empty());
    assert_eq!(list[1]["kind"], "consent");
    assert_eq!(list[1]["scaRedirect"], consent_href.as_str());
    assert_eq!(list[1]["step"], "identify");
    assert!(list[1]["expiresAt"].as_str().unwrap() > list[1]["startedAt"].as_str().unwrap());
    // Finished: gone. Expired (30 minutes): gone.
    crate::helpers::complete_sca(
        &app,
        &consent_href,
        json!({"nationalId": crate::pis_support::KARI, "context": "PRIVATE"}),
    )
    .await;
    assert_eq!(pending(&app).await.len(), 1);
    app.put("/v1/sandbox/clock", &json!({"advance": "PT31M"}))
        .send()
        .await
        .assert_ok();
    assert!(pending(&app).await.is_empty());
}

#[tokio::test]
async fn the_gate_is_served_from_the_verifiers_definitions_and_matches_its_refusals() {
    let app = spawn_app().await;
    let (status, gate) = call(&app, Method::GET, "/gate", None).await;
    assert_eq!(status, 200, "{gate}");
    let ids: Vec<&str> = gate["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "required headers",
            "date",
            "certificate",
            "signature header",
            "keyId",
            "algorithm",
            "signed headers",
            "digest",
            "signature"
        ]
    );
    assert!(gate["signableHeaders"]
        .as_array()
        .unwrap()
        .contains(&json!("tpp-redirect-uri")));
    assert_eq!(gate["requiredHeaders"][0], "X-Request-ID");
    assert_eq!(gate["maxClockSkewSeconds"], 60);
    // Refusals at several steps: each names a step of the definition, with one of its codes.
    app.get("/v1/sandbox/customers").unsigned().send().await;
    app.get("/v1/sandbox/customers")
        .signed_at(crate::helpers::TEST_NOW - time::Duration::minutes(5))
        .send()
        .await;
    app.get("/v1/sandbox/customers")
        .signed_by("untrusted")
        .send()
        .await;
    app.get("/v1/sandbox/customers")
        .options(SignOptions {
            signed_headers: Some(vec!["x-request-id".into()]),
            ..Default::default()
        })
        .send()
        .await;
    app.put("/v1/tpp-dialogue/contact", &json!({"email": "ops@tpp.no"}))
        .with_body_after_signing(br#"{"email":"evil@tpp.no"}"#)
        .send()
        .await;
    app.get("/v1/sandbox/customers")
        .tamper(|h| {
            h.insert(
                "x-request-id",
                "3f2a1b4c-0000-4000-8000-000000000999".parse().unwrap(),
            );
        })
        .send()
        .await;
    app.traffic_settled().await;
    let (_, page) = call(
        &app,
        Method::GET,
        "/traffic?failed=true&kind=exchange",
        None,
    )
    .await;
    let mut seen = std::collections::BTreeSet::new();
    for entry in page["entries"].as_array().unwrap() {
        let step = entry["failedStep"].as_str().expect("refused at the gate");
        let definition = gate["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == step)
            .unwrap_or_else(|| panic!("{step} is not a step of the gate"));
        assert!(
            definition["refusalCodes"]
                .as_array()
                .unwrap()
                .contains(&entry["code"]),
            "{step} refused with {} not in {}",
            entry["code"],
            definition["refusalCodes"]
        );
        seen.insert(step.to_owned());
    }
    assert!(seen.len() >= 5, "{seen:?}");
}

/// The id of the newest payment creation of the status class, once the log has stored what was served.
async fn newest(app: &TestApp, class: &str) -> Value {
    app.traffic_settled().await;
    let (_, page) = call(
        app,
        Method::GET,
        &format!("/traffic?status={class}&kind=exchange"),
        None,
    )
    .await;
    page["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == STRAKS)
        .unwrap_or_else(|| panic!("no {class} payment in {page}"))["id"]
        .clone()
}

#[tokio::test]
async fn an_answer_refused_by_the_handler_says_so_in_the_gates_verdict() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let refused = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("-5.00", OLA_CURRENT, json!({})),
    )
    .send()
    .await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let id = newest(&app, "4xx").await;
    let (_, entry) = call(&app, Method::GET, &format!("/traffic/{id}"), None).await;
    assert_eq!(entry["failedStep"], Value::Null);
    let cause = entry["gate"]["likelyCause"].as_str().unwrap();
    assert!(
        cause.starts_with("The gate accepted the request; the handler refused it with "),
        "{cause}"
    );
    assert!(
        cause.contains(refused.body["tppMessages"][0]["text"].as_str().unwrap()),
        "{cause}"
    );
    // A success has none.
    created(
        &pay(
            &app,
            &tpp,
            STRAKS,
            &transfer("5.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let id = newest(&app, "2xx").await;
    let (_, entry) = call(&app, Method::GET, &format!("/traffic/{id}"), None).await;
    assert_eq!(entry["gate"]["likelyCause"], Value::Null);
}

#[tokio::test]
async fn a_restore_and_an_import_tell_every_screen_that_all_changed() {
    let app = spawn_app().await;
    let (status, snapshot) = call(&app, Method::PUT, "/snapshots/demo", None).await;
    assert_eq!(status, 201);
    assert_eq!(snapshot["name"], "demo");
    assert!(time::OffsetDateTime::parse(
        snapshot["takenAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339
    )
    .is_ok());
    let (_, file) = call(&app, Method::GET, "/snapshots/demo", None).await;
    assert!(
        snapshot["bytes"].as_u64().unwrap() > 1000,
        "the state file's size in bytes"
    );
    let before = last_event(&app).await;
    let (status, _) = call(&app, Method::POST, "/snapshots/demo/restore", None).await;
    assert_eq!(status, 200);
    changed_event(&app, before, "all").await;
    let before = last_event(&app).await;
    let (status, _) = call(
        &app,
        Method::POST,
        "/state?preview=true",
        Some(file.clone()),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = call(&app, Method::POST, "/state", Some(file)).await;
    assert_eq!(status, 200);
    let event = changed_event(&app, before, "all").await;
    assert_eq!(event["kind"], "sandbox.changed");
}

/// The number of the last event published so far.
async fn last_event(app: &TestApp) -> u64 {
    app.state.events.resume(0).0.last().map_or(0, |e| e.id)
}

/// The live events the workbench receives, as the OpenAPI document's `WorkbenchEvent` describes them: a
/// client generated from the document reads each kind's data with the right type.
#[tokio::test]
async fn every_live_event_matches_the_documents_workbench_event() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = created(
        &pay(
            &app,
            &tpp,
            STRAKS,
            &transfer("7.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    call(&app, Method::POST, "/sandbox/batch-runs", None).await;
    app.put("/v1/sandbox/clock", &json!({"advance": "PT1H"}))
        .send()
        .await
        .assert_ok();
    call(
        &app,
        Method::PATCH,
        "/personas/bundled-aisp-pisp",
        Some(json!({"psuId": "5b1e0c7d-1111-4c1f-9a71-2c9e4f3b1d21"})),
    )
    .await;
    let (_, generated) = call(&app, Method::GET, "/sandbox/generate/org-number", None).await;
    call(
        &app,
        Method::POST,
        "/sandbox/customers",
        Some(json!({"customerNumber": generated["value"], "name": "Event AS"})),
    )
    .await;
    let document = xs2a_http::api::openapi::document();
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": document["components"],
        "$ref": "#/components/schemas/WorkbenchEvent",
    });
    let validator = jsonschema::validator_for(&schema).unwrap();
    let events = app.state.events.resume(0).0;
    let mut kinds = std::collections::BTreeSet::new();
    for event in &events {
        let value = serde_json::to_value(event).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{value}: {errors:?}");
        kinds.insert(event.kind.name());
    }
    for kind in [
        "payment.status",
        "batch.run",
        "clock",
        "persona.changed",
        "sandbox.changed",
    ] {
        assert!(
            kinds.contains(kind),
            "no {kind} among {kinds:?} (payment {id})"
        );
    }
}
