//! The one query extractor (`api::query`): a query string that does not parse is 400 FORMAT_ERROR at
//! `(query)`, worded for a query taken as text or for one of typed values.

use super::harness::Service;
use axum::http::Method;

#[tokio::test]
async fn a_query_taken_as_text_that_cannot_be_split_is_format_error() {
    let service = Service::start();
    for path in [
        "/workbench/api/sandbox/batch-runs?limit=1&limit=2",
        "/workbench/api/sandbox/payments?status=ACTC&status=RJCT",
        "/workbench/api/sandbox/generate/bban?bankCode=1205&bankCode=1206",
    ] {
        let answer = service.workbench(Method::GET, path).send().await;
        assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "(query)"), "{path}");
        assert!(
            answer
                .text()
                .starts_with("the query string could not be read: Failed to deserialize query string: duplicate field"),
            "{path}: {}",
            answer.text()
        );
    }
    // The same through the gate, on the account information listing of a mock account.
    let answer = service
        .tpp(
            Method::GET,
            "/v1/sandbox/accounts/any/transactions?limit=1&limit=2",
        )
        .send()
        .await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "(query)"));
}

#[tokio::test]
async fn a_typed_query_value_that_does_not_parse_is_format_error() {
    let service = Service::start();
    let answer = service
        .workbench(Method::GET, "/workbench/api/traffic?before=null")
        .send()
        .await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "(query)"));
    assert!(
        answer
            .text()
            .starts_with("a query parameter is not valid: Failed to deserialize query string: "),
        "{}",
        answer.text()
    );
}

#[tokio::test]
async fn a_query_that_parses_is_read() {
    let service = Service::start();
    let answer = service
        .workbench(Method::GET, "/workbench/api/sandbox/batch-runs?limit=3")
        .send()
        .await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json["scheduled"].as_array().map(Vec::len), Some(5));
}
