//! The account information routes in process, without the gate (each request carries the verified TPP the
//! gate would have added): how the handlers read the query and answer the core's pages and refusals.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::Value;
use time::macros::datetime;
use tower::ServiceExt;
use xs2a_core::bank::consent::{self, Consent};
use xs2a_core::bank::mock::customers;
use xs2a_core::bank::sca::psu;
use xs2a_core::signing::verifier::VerifiedTpp;

/// The bundled AISP's certificate, as the gate would have verified it.
fn aisp() -> VerifiedTpp {
    VerifiedTpp::bundled("aisp").expect("bundled")
}

/// The seeded sandbox with Kari's first account granted to the AISP and read online with SCA today.
struct Sandbox {
    router: Router,
    psu_id: String,
    account_id: String,
}

fn sandbox() -> Sandbox {
    let app = crate::app::App::build(crate::app::AppConfig {
        clock: crate::app::ClockStart::FrozenAt(datetime!(2026-03-15 10:00 UTC)),
        ..Default::default()
    })
    .unwrap();
    let state = app.state().clone();
    let kari = customers::list(&state.store)
        .unwrap()
        .into_iter()
        .find(|c| c.customer.name == "Kari Nordmann")
        .expect("seeded");
    let tpp_id = aisp().tpp_id();
    let customer_id = kari.customer.id.clone();
    let account_id = kari.accounts[0].id.clone();
    let now = state.clock.now();
    consent::record_choice(
        &state.store,
        Consent {
            tpp_id: tpp_id.clone(),
            tpp_name: "Sandbox AISP AS".into(),
            customer_id: customer_id.clone(),
            agreement_id: None,
            accounts: vec![account_id.clone()],
            card_accounts: Vec::new(),
            granted_at: now,
            sca_at: now,
        },
    )
    .unwrap();
    consent::record_online_access(&state.store, &tpp_id, [&account_id], now).unwrap();
    let psu_id = psu::psu_id_for(&state.store, &tpp_id, &customer_id).unwrap();
    let router = Router::new()
        .nest("/v1", super::routes().into_router(&state))
        .with_state(state);
    Sandbox {
        router,
        psu_id,
        account_id,
    }
}

impl Sandbox {
    /// A read without the PSU present (no PSU-IP-Address: no TPP session needed).
    async fn get(&self, uri: &str) -> (StatusCode, Value) {
        let mut request = Request::builder()
            .uri(uri)
            .header("psu-id", &self.psu_id)
            .body(Body::empty())
            .unwrap();
        request.extensions_mut().insert(aisp());
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    fn transactions(&self, query: &str) -> String {
        format!("/v1/accounts/{}/transactions{query}", self.account_id)
    }
}

fn first_message(body: &Value) -> (&str, &str) {
    let m = &body["tppMessages"][0];
    (
        m["code"].as_str().unwrap_or(""),
        m["path"].as_str().unwrap_or(""),
    )
}

#[tokio::test]
async fn query_rules_answer_400_naming_the_parameter() {
    let s = sandbox();
    let cases = [
        ("", "QUERY_PARAMETER_REQUIRED", "bookingStatus"),
        (
            "?bookingStatus=information",
            "FORMAT_ERROR",
            "bookingStatus",
        ),
        (
            "?bookingStatus=booked&dateFrom=2026-03-02&dateTo=2026-03-01",
            "FORMAT_ERROR",
            "dateFrom",
        ),
        ("?bookingStatus=booked&limit=0", "FORMAT_ERROR", "limit"),
    ];
    for (query, code, path) in cases {
        let (status, body) = s.get(&s.transactions(query)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(first_message(&body), (code, path), "{query}");
    }
}

#[tokio::test]
async fn without_the_psu_the_page_and_its_links_start_at_the_floor_with_a_warning() {
    let s = sandbox();
    let (status, body) = s.get(&s.transactions("?bookingStatus=booked")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(first_message(&body), ("ACCESS_EXCEEDED", "dateFrom"));
    assert_eq!(body["tppMessages"][0]["category"], "WARNING");
    let own = s.transactions("");
    assert_eq!(
        body["transactions"]["_links"]["self"]["href"],
        format!("{own}?bookingStatus=booked&dateFrom=2025-12-15&limit=200&offset=0")
    );
    assert!(body["transactions"].get("pending").is_none());
    let booked = body["transactions"]["booked"].as_array().unwrap();
    assert!(!booked.is_empty(), "the seed books inside the 90 days");
    for item in booked {
        assert!(item["bookingDate"].as_str().unwrap() >= "2025-12-15");
    }
    for item in booked.iter().take(3) {
        let details = item["_links"]["transactionDetails"]["href"]
            .as_str()
            .unwrap();
        let (status, one) = s.get(details).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            one["transactionsDetails"]["transactionId"],
            item["transactionId"]
        );
    }
}

#[tokio::test]
async fn an_unknown_transaction_and_an_ungranted_account_are_404() {
    let s = sandbox();
    let (status, body) = s.get(&s.transactions("/no-such-id")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(first_message(&body), ("RESOURCE_UNKNOWN", "transactionId"));
    let (status, body) = s
        .get("/v1/accounts/not-granted/transactions?bookingStatus=booked")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(first_message(&body), ("RESOURCE_UNKNOWN", "accountId"));
}
