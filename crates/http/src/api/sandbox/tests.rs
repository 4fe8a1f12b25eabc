//! The sandbox routes through the whole service (signed, through the gate): status codes, bodies and error
//! paths as a client sees them.

use crate::api::tests::harness::Service;
use crate::app::{AppConfig, ClockStart};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use time::macros::datetime;

/// The service with its clock frozen on the day these tests' seed is made for.
fn app() -> Service {
    Service::start_with(AppConfig {
        clock: ClockStart::FrozenAt(datetime!(2026-03-15 10:00 UTC)),
        ..Default::default()
    })
}

/// A signed TPP's request: the status and the JSON body (`Null` when empty).
async fn call(app: &Service, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let method = Method::from_bytes(method.as_bytes()).expect("a method");
    let request = app.tpp(method, uri);
    let request = match body {
        Some(body) => request.json(body),
        None => request,
    };
    let answer = request.send().await;
    (answer.status, answer.json)
}

fn first_error(body: &Value) -> (&str, &str) {
    let m = &body["tppMessages"][0];
    (
        m["code"].as_str().unwrap_or(""),
        m["path"].as_str().unwrap_or(""),
    )
}

async fn kari(app: &Service) -> Value {
    let (_, customers) = call(app, "GET", "/v1/sandbox/customers", None).await;
    customers
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Kari Nordmann")
        .unwrap()
        .clone()
}

#[tokio::test]
async fn initialize_then_list_customers() {
    let app = app();
    let (status, summary) = call(&app, "POST", "/v1/sandbox/initialize", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(summary["customers"], 5);
    assert_eq!(summary["referenceDate"], "2026-03-15");
    let kari = kari(&app).await;
    assert_eq!(kari["type"], "private");
    assert_eq!(kari["accounts"].as_array().unwrap().len(), 2);
    assert_eq!(kari["cardAccounts"][0]["maskedPan"], "5555 55** **** 1234");
}

#[tokio::test]
async fn account_transactions_round_trip_with_paths_on_errors() {
    let app = app();
    call(&app, "POST", "/v1/sandbox/initialize", None).await;
    let account = kari(&app).await["accounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let uri = format!("/v1/sandbox/accounts/{account}/transactions");
    let bad = json!([
        {"amount": "1", "currency": "NOK", "bookingDate": "2026-03-10"},
        {"amount": 5, "currency": "NOK", "bookingDate": "2026-03-10"},
        {"amount": "1", "currency": "NOK", "bookingDate": "2026-03-10"},
        {"amount": {"value": 1}, "currency": "NOK", "bookingDate": "2026-03-10"}
    ]);
    let (status, body) = call(&app, "POST", &uri, Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(first_error(&body), ("FORMAT_ERROR", "[3].amount"));
    let wrong_type = json!([{"amount": "1", "currency": 7, "bookingDate": "2026-03-10"}]);
    let (_, body) = call(&app, "POST", &uri, Some(wrong_type)).await;
    assert_eq!(first_error(&body), ("FORMAT_ERROR", "[0].currency"));

    let good = json!([{"amount": "-99.90", "currency": "NOK", "bookingDate": "2026-03-14", "creditorName": "Kiosk AS"}]);
    let (status, created) = call(&app, "POST", &uri, Some(good)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(created[0]["amount"], -9990);
    let (status, listed) = call(
        &app,
        "GET",
        &format!("{uri}?fromDate=2026-03-14&limit=10"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed, created);
    let self_href = listed[0]["_links"]["self"]["href"].as_str().unwrap();
    let (status, one) = call(&app, "GET", self_href, None).await;
    assert_eq!((status, &one), (StatusCode::OK, &listed[0]));
}

#[tokio::test]
async fn listing_parameters_are_checked() {
    let app = app();
    call(&app, "POST", "/v1/sandbox/initialize", None).await;
    let account = kari(&app).await["accounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = call(
        &app,
        "GET",
        &format!("/v1/sandbox/accounts/{account}/transactions?limit=0"),
        None,
    )
    .await;
    assert_eq!(
        (status, first_error(&body)),
        (StatusCode::BAD_REQUEST, ("FORMAT_ERROR", "limit"))
    );
    let (_, body) = call(
        &app,
        "GET",
        &format!("/v1/sandbox/accounts/{account}/transactions?fromDate=14.03.2026"),
        None,
    )
    .await;
    assert_eq!(first_error(&body), ("FORMAT_ERROR", "fromDate"));
    let (status, body) = call(
        &app,
        "GET",
        "/v1/sandbox/accounts/unknown/transactions",
        None,
    )
    .await;
    assert_eq!(
        (status, first_error(&body)),
        (StatusCode::NOT_FOUND, ("RESOURCE_UNKNOWN", "mockAccountId"))
    );
}

#[tokio::test]
async fn card_transactions_need_a_booking_status() {
    let app = app();
    call(&app, "POST", "/v1/sandbox/initialize", None).await;
    let card = kari(&app).await["cardAccounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let uri = format!("/v1/sandbox/card-accounts/{card}/transactions");
    let (status, body) = call(&app, "GET", &uri, None).await;
    assert_eq!(
        (status, first_error(&body)),
        (
            StatusCode::BAD_REQUEST,
            ("QUERY_PARAMETER_REQUIRED", "bookingStatus")
        )
    );
    let (_, body) = call(&app, "GET", &format!("{uri}?bookingStatus=all"), None).await;
    assert_eq!(first_error(&body), ("FORMAT_ERROR", "bookingStatus"));
    let (status, body) = call(
        &app,
        "GET",
        &format!("{uri}?bookingStatus=both&limit=2"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["cardAccount"]["maskedPan"], "5555 55** **** 1234");
    assert_eq!(
        body["cardTransactions"]["booked"].as_array().unwrap().len(),
        2
    );
    assert_eq!(body["cardTransactions"]["pending"], json!([]));
}

#[tokio::test]
async fn creations_answer_201_and_duplicates_409() {
    let app = app();
    call(&app, "POST", "/v1/sandbox/initialize", None).await;
    let customer = json!({"customerNumber": "974760673", "name": "Test AS", "type": "corporate"});
    let (status, created) = call(
        &app,
        "POST",
        "/v1/sandbox/customers",
        Some(customer.clone()),
    )
    .await;
    assert_eq!(
        (status, &created["type"]),
        (StatusCode::CREATED, &json!("corporate"))
    );
    let (status, body) = call(&app, "POST", "/v1/sandbox/customers", Some(customer)).await;
    assert_eq!(
        (status, first_error(&body)),
        (StatusCode::CONFLICT, ("CONFLICT", "customerNumber"))
    );

    let account = json!({"customerNumber": "974760673", "accountName": "Drift", "bban": "12345678903",
        "balances": [{"balanceType": "closingBooked", "balanceAmount": {"amount": "10", "currency": "NOK"}}]});
    let (status, created) = call(&app, "POST", "/v1/sandbox/accounts", Some(account)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(created["iban"], "NO7112345678903");
    assert_eq!(created["resourceId"], created["id"]);

    let agreement = json!({"owner": "974760673", "name": "Avtale",
        "engagements": [{"customer": kari(&app).await["customerNumber"], "account": {"iban": "NO7112345678903"}, "roles": ["VIEW"]}]});
    let (status, created) = call(&app, "POST", "/v1/sandbox/agreements", Some(agreement)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(created["id"].as_str().is_some());
    let (_, all) = call(&app, "GET", "/v1/sandbox/agreements", None).await;
    assert_eq!(all.as_array().unwrap().len(), 3);
}
