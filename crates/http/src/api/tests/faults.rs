//! The fault plan's routes and its answers on the bank interface: a rule's id is unique, an unknown one
//! is 404 (`xs2a_core::bank::rehearsal::rule_edits`); a fired rule answers in the bank's place
//! (`xs2a_core::bank::fault_effects::answers`); under the production profile `/v1/sandbox` is an unknown
//! path but to the operator (`xs2a_core::bank::rehearsal::tolerance::no_mock_data_api`).

use super::harness::{Service, TEST_NOW};
use axum::http::Method;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;

const RULES: &str = "/workbench/api/faults/rules";
const CUSTOMERS: &str = "/v1/sandbox/customers";

fn rule(id: &str, effect: Value) -> Value {
    json!({"id": id, "match": {"path": CUSTOMERS}, "effect": effect})
}

#[tokio::test]
async fn a_rule_is_added_once_and_an_unknown_one_is_404() {
    let service = Service::start();
    let body = rule("slow", json!({"kind": "serverError"}));
    let added = service
        .workbench(Method::POST, RULES)
        .json(body.clone())
        .send()
        .await;
    assert_eq!(added.status, 201);
    let again = service
        .workbench(Method::POST, RULES)
        .json(body)
        .send()
        .await;
    assert_eq!(again.refusal(), (409, "CONFLICT", "id"));
    assert_eq!(again.text(), "the plan already has a rule 'slow'");
    let switched = service
        .workbench(Method::PATCH, &format!("{RULES}/nope"))
        .json(json!({"enabled": false}))
        .send()
        .await;
    assert_eq!(switched.refusal(), (404, "RESOURCE_UNKNOWN", "id"));
    let removed = service
        .workbench(Method::DELETE, &format!("{RULES}/nope"))
        .send()
        .await;
    assert_eq!(removed.refusal(), (404, "RESOURCE_UNKNOWN", "id"));
    let removed = service
        .workbench(Method::DELETE, &format!("{RULES}/slow"))
        .send()
        .await;
    assert_eq!(removed.status, 200);
    assert_eq!(removed.json["rules"], json!([]));
}

#[tokio::test]
async fn a_fired_rule_answers_in_the_banks_place_with_retry_after() {
    let service = Service::start();
    let until = (TEST_NOW + time::Duration::minutes(30))
        .format(&Rfc3339)
        .unwrap();
    for (effect, status, code, retry_after) in [
        (
            json!({"kind": "rateLimited", "retryAfterSeconds": 30}),
            429,
            "ACCESS_EXCEEDED",
            "30",
        ),
        (json!({"kind": "serverError"}), 500, "SYSTEM_ERROR", ""),
        (
            json!({"kind": "maintenance", "until": until}),
            503,
            "SYSTEM_ERROR",
            "1800",
        ),
    ] {
        let plan = json!({"rules": [rule("r1", effect)]});
        let put = service
            .workbench(Method::PUT, "/workbench/api/faults")
            .json(plan)
            .send()
            .await;
        assert_eq!(put.status, 200);
        let answer = service.tpp(Method::GET, CUSTOMERS).send().await;
        assert_eq!(answer.refusal(), (status, code, ""));
        assert_eq!(answer.header("retry-after"), retry_after);
        assert!(answer
            .text()
            .ends_with("(injected by the sandbox's fault plan, rule r1)"));
        assert!(answer.header("sandbox-injected").starts_with("injected: "));
    }
}

#[tokio::test]
async fn under_the_production_profile_the_mock_data_api_is_an_unknown_path_but_to_the_operator() {
    let service = Service::start();
    let switched = service
        .workbench(Method::PUT, "/workbench/api/profile")
        .json(json!({"profile": "production"}))
        .send()
        .await;
    assert_eq!(switched.status, 200);
    let hidden = service.tpp(Method::GET, CUSTOMERS).send().await;
    assert_eq!(hidden.refusal(), (404, "NOT_FOUND", ""));
    assert!(hidden.text().starts_with(
        "There is no endpoint GET /v1/sandbox/customers in production (mock-data-api: "
    ));
    let token = format!("Bearer {}", service.state().settings.operator_token);
    let operator = service
        .tpp(Method::GET, CUSTOMERS)
        .header("authorization", &token)
        .send()
        .await;
    assert_eq!(operator.status, 200);
}
