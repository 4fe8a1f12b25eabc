//! The transport's refusals, before any handler: the JSON body, the media type, the body's size, no
//! such route, no such method (docs/reference/errors.md, docs/reference/limits.md).

use super::harness::Service;
use crate::api::limits::Limits;
use crate::app::AppConfig;
use axum::http::Method;
use serde_json::json;

const CLOCK: &str = "/workbench/api/sandbox/clock";

#[tokio::test]
async fn a_body_that_is_not_the_json_asked_for_is_format_error_at_its_path() {
    let service = Service::start();
    let wrong_type = service
        .workbench(Method::PUT, CLOCK)
        .json(json!({"advance": 5}))
        .send()
        .await;
    assert_eq!(wrong_type.refusal(), (400, "FORMAT_ERROR", "advance"));
    let unknown_field = service
        .workbench(Method::PUT, CLOCK)
        .json(json!({"advance": "PT1H", "speed": 2}))
        .send()
        .await;
    assert_eq!(unknown_field.refusal().0, 400);
    assert_eq!(unknown_field.refusal().1, "FORMAT_ERROR");
    let cut_short = service
        .workbench(Method::PUT, CLOCK)
        .body(b"{\"advance\":".to_vec(), "application/json")
        .send()
        .await;
    assert_eq!(cut_short.refusal().0, 400);
    assert_eq!(cut_short.refusal().1, "FORMAT_ERROR");
    let empty = service
        .workbench(Method::PUT, CLOCK)
        .body(Vec::new(), "application/json")
        .send()
        .await;
    assert_eq!(empty.refusal(), (400, "FORMAT_ERROR", "(body)"));
    assert_eq!(
        empty.text(),
        "the request needs a JSON body, and it is empty"
    );
}

#[tokio::test]
async fn a_body_that_is_not_json_is_415_at_content_type() {
    let service = Service::start();
    let xml = service
        .workbench(Method::PUT, CLOCK)
        .body(b"<clock/>".to_vec(), "application/xml")
        .send()
        .await;
    assert_eq!(xml.refusal(), (415, "FORMAT_ERROR", "Content-Type"));
    assert!(xml
        .text()
        .starts_with("Content-Type 'application/xml' is not supported"));
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_whether_declared_or_sent() {
    let service = Service::start_with(AppConfig {
        limits: Limits {
            max_body_bytes: 64,
            ..Limits::default()
        },
        ..AppConfig::default()
    });
    let big = json!({"advance": "PT1H", "padding": "x".repeat(100)});
    let sent = service
        .workbench(Method::PUT, CLOCK)
        .json(big.clone())
        .send()
        .await;
    assert_eq!(sent.refusal().0, 413);
    assert_eq!(sent.refusal().1, "BAD_REQUEST");
    assert_eq!(sent.header("connection"), "close");
    let declared = service
        .workbench(Method::PUT, CLOCK)
        .json(big.clone())
        .header("content-length", &big.to_string().len().to_string())
        .send()
        .await;
    assert_eq!(declared.refusal().0, 413);
    // Within the limit, the same route answers.
    let small = service
        .workbench(Method::PUT, CLOCK)
        .json(json!({"mode": "frozen"}))
        .send()
        .await;
    assert_eq!(small.status, 200);
}

#[tokio::test]
async fn no_such_path_is_404_and_no_such_method_405() {
    let service = Service::start();
    let unknown = service.bare(Method::GET, "/accounts").send().await;
    assert_eq!(unknown.refusal(), (404, "NOT_FOUND", ""));
    assert_eq!(
        unknown.text(),
        "There is no endpoint GET /accounts in this sandbox. The bank's interface is under /v1: did you mean \
         /v1/accounts?"
    );
    let method = service.bare(Method::DELETE, "/health").send().await;
    assert_eq!(method.refusal(), (405, "BAD_REQUEST", ""));
    assert_eq!(method.text(), "/health does not accept DELETE.");
    let workbench = service
        .workbench(Method::GET, "/workbench/api/no-such-thing")
        .send()
        .await;
    assert_eq!(workbench.refusal(), (404, "NOT_FOUND", ""));
}

#[tokio::test]
async fn under_v1_the_gate_answers_before_the_route_table() {
    let service = Service::start();
    // Unsigned: the gate's 400, though the path is unknown too.
    let unsigned = service.bare(Method::GET, "/v1/no-such-thing").send().await;
    assert_eq!(unsigned.status, 400);
    // Signed: the unknown path's 404.
    let signed = service.tpp(Method::GET, "/v1/no-such-thing").send().await;
    assert_eq!(signed.refusal(), (404, "NOT_FOUND", ""));
    assert_eq!(
        signed.text(),
        "There is no endpoint GET /v1/no-such-thing in this sandbox."
    );
    // And a signed request to a real route is served.
    let served = service
        .tpp(Method::GET, "/v1/sandbox/customers")
        .send()
        .await;
    assert_eq!(served.status, 200);
    assert!(served.json.as_array().is_some_and(|c| !c.is_empty()));
}
