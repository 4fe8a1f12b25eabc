//! `PUT /v1/sandbox/clock` (and the workbench's copy): exactly one of now, advance or mode; each refusal
//! with its status, code and field (`xs2a_core::bank::clock_control::ClockChange::asked`).

use super::harness::{Service, TEST_NOW};
use axum::http::Method;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;

const CLOCK: &str = "/workbench/api/sandbox/clock";

async fn refused(service: &Service, body: Value) -> (u16, String, String) {
    let answer = service
        .workbench(Method::PUT, CLOCK)
        .json(body)
        .send()
        .await;
    let (status, code, path) = answer.refusal();
    (status, code.to_owned(), path.to_owned())
}

fn format_error(at: &str) -> (u16, String, String) {
    (400, "FORMAT_ERROR".to_owned(), at.to_owned())
}

#[tokio::test]
async fn a_move_names_exactly_one_of_now_advance_or_mode() {
    let service = Service::start();
    assert_eq!(refused(&service, json!({})).await, format_error("(body)"));
    assert_eq!(
        refused(&service, json!({"advance": "PT1H", "mode": "real"})).await,
        format_error("(body)")
    );
    assert_eq!(
        refused(&service, json!({"advance": "1H"})).await,
        format_error("advance")
    );
    assert_eq!(
        refused(&service, json!({"mode": "paused"})).await,
        format_error("mode")
    );
    // Nothing moved.
    assert_eq!(service.state().clock.now(), TEST_NOW);
}

#[tokio::test]
async fn an_advance_moves_the_clock_and_answers_the_reading() {
    let service = Service::start();
    let answer = service
        .workbench(Method::PUT, CLOCK)
        .json(json!({"advance": "PT1H30M"}))
        .send()
        .await;
    assert_eq!(answer.status, 200);
    let expected = TEST_NOW + time::Duration::minutes(90);
    assert_eq!(service.state().clock.now(), expected);
    let read = service.workbench(Method::GET, CLOCK).send().await;
    assert_eq!(read.json, answer.json);
    assert!(answer
        .json
        .to_string()
        .contains(&expected.format(&Rfc3339).unwrap()));
}

#[tokio::test]
async fn the_signed_route_refuses_the_same_way() {
    let service = Service::start();
    let answer = service
        .tpp(Method::PUT, "/v1/sandbox/clock")
        .json(json!({"mode": "paused"}))
        .send()
        .await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "mode"));
    assert_eq!(
        answer.text(),
        "mode must be 'real' or 'frozen'; got 'paused'"
    );
}
