//! The mock-data and bank-side control routes' refusals, each with its status, code and field: the batch
//! monitor's lists (`xs2a_core::bank::batch::monitor`), forced outcomes, bulk generation
//! (`xs2a_core::bank::mock::generate`).

use super::harness::{Answer, Service};
use axum::http::Method;
use serde_json::json;

async fn get(service: &Service, path: &str) -> Answer {
    service.workbench(Method::GET, path).send().await
}

#[tokio::test]
async fn the_batch_runs_limit_is_from_1_to_500() {
    let service = Service::start();
    for bad in ["0", "501", "ten", "-1"] {
        let answer = get(
            &service,
            &format!("/workbench/api/sandbox/batch-runs?limit={bad}"),
        )
        .await;
        assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "limit"), "{bad}");
        assert_eq!(
            answer.text(),
            format!("limit '{bad}' must be a whole number from 1 to 500")
        );
    }
    let run = service
        .workbench(Method::POST, "/workbench/api/sandbox/batch-runs")
        .send()
        .await;
    assert_eq!(run.status, 201);
    let listed = get(&service, "/workbench/api/sandbox/batch-runs?limit=500").await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.json["runs"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn the_payments_list_reads_its_status_then_its_limit() {
    let service = Service::start();
    let answer = get(
        &service,
        "/workbench/api/sandbox/payments?status=DONE&limit=0",
    )
    .await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "status"));
    assert_eq!(answer.text(), "status 'DONE' is not a payment status");
    let answer = get(&service, "/workbench/api/sandbox/payments?limit=5001").await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "limit"));
    let answer = get(
        &service,
        "/workbench/api/sandbox/payments?status=ACTC&limit=5000",
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json, json!([]));
    // Signed, the same control answers the same.
    let signed = service
        .tpp(Method::GET, "/v1/sandbox/payments?status=DONE")
        .send()
        .await;
    assert_eq!(signed.refusal(), (400, "FORMAT_ERROR", "status"));
}

#[tokio::test]
async fn a_forced_outcome_is_a_known_code_for_a_known_payment() {
    let service = Service::start();
    let path = "/workbench/api/sandbox/payments/no-such-payment/forced-outcome";
    let bad_code = service
        .workbench(Method::PUT, path)
        .json(json!({"outcome": "rjct"}))
        .send()
        .await;
    assert_eq!(bad_code.refusal(), (400, "FORMAT_ERROR", "outcome"));
    assert_eq!(
        bad_code.text(),
        "outcome must be RJCT, ACCP, PDNG, PART or null; got 'rjct'"
    );
    let unknown = service
        .workbench(Method::PUT, path)
        .json(json!({"outcome": "RJCT"}))
        .send()
        .await;
    assert_eq!(unknown.refusal(), (404, "RESOURCE_UNKNOWN", "paymentId"));
    assert_eq!(
        unknown.text(),
        "No payment with id 'no-such-payment' exists in this sandbox."
    );
}

#[tokio::test]
async fn generated_transactions_need_two_dates_and_a_known_account() {
    let service = Service::start();
    let customers = get(&service, "/workbench/api/sandbox/customers").await;
    let account = customers.json[0]["accounts"][0]["id"]
        .as_str()
        .expect("a seeded customer with an account")
        .to_owned();
    let generate = format!("/workbench/api/sandbox/accounts/{account}/transactions/generate");
    let ask = |from: &str, to: &str| {
        service
            .workbench(Method::POST, &generate)
            .json(json!({"count": 3, "fromDate": from, "toDate": to}))
    };
    let answer = ask("2026-1-1", "2026-02-01").send().await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "fromDate"));
    assert_eq!(
        answer.text(),
        "fromDate '2026-1-1' is not a date (YYYY-MM-DD)"
    );
    let answer = ask("2026-01-01", "tomorrow").send().await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "toDate"));
    let answer = ask("2026-02-01", "2026-01-01").send().await;
    assert_eq!(answer.refusal(), (400, "FORMAT_ERROR", "toDate"));
    let answer = ask("2026-01-01", "2026-02-01").send().await;
    assert_eq!(answer.status, 201);
    assert_eq!(answer.json, json!({"created": 3}));
    let unknown = service
        .workbench(
            Method::POST,
            "/workbench/api/sandbox/accounts/no-such-account/transactions/generate",
        )
        .json(json!({"count": 3, "fromDate": "2026-01-01", "toDate": "2026-02-01"}))
        .send()
        .await;
    assert_eq!(
        unknown.refusal(),
        (404, "RESOURCE_UNKNOWN", "mockAccountId")
    );
}
