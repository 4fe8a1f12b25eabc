//! Strict input, clear errors: what used to be accepted and stored (trailing JSON, positional arrays,
//! control and bidi characters, an endless TPP-Redirect-URI, a second Signature) is 400 with a code that
//! names the problem, and nothing is stored; unknown paths are 404 in the usual body, named as sent.

use crate::helpers::{spawn_app, TestApp, TestResponse, AIS_REDIRECT};
use axum::http::{HeaderValue, Method};
use xs2a_core::bank::sca::authorisation::Authorisation;

const CUSTOMERS: &str = "/v1/sandbox/customers";
const NEW_NUMBER: &str = "914000009";

/// Posts raw body bytes to the customers endpoint, signed over exactly those bytes.
async fn post_customer(app: &TestApp, body: &[u8]) -> TestResponse {
    app.request(Method::POST, CUSTOMERS)
        .raw_body(body, "application/json")
        .send()
        .await
}

async fn customer_was_stored(app: &TestApp) -> bool {
    let list = app.get(CUSTOMERS).send().await.body;
    list.as_array()
        .unwrap()
        .iter()
        .any(|c| c["customerNumber"] == NEW_NUMBER)
}

const CUSTOMER: &str = r#"{"customerNumber":"914000009","name":"Manuell AS","type":"corporate"}"#;

#[tokio::test]
async fn trailing_data_after_a_json_body_is_400_format_error_and_nothing_is_stored() {
    let app = spawn_app().await;
    for trailing in [CUSTOMER, "garbage", " {}"] {
        let body = format!("{CUSTOMER}{trailing}");
        let response = post_customer(&app, body.as_bytes()).await;
        response.assert_refused(400, "FORMAT_ERROR", Some("(body)"));
        assert!(
            response.text().contains("more after its JSON value"),
            "{}",
            response.text()
        );
    }
    assert!(!customer_was_stored(&app).await);
    // The same body alone is accepted, so the refusal was the trailing data.
    post_customer(&app, CUSTOMER.as_bytes()).await.assert_ok();
}

#[tokio::test]
async fn a_positional_array_where_an_object_is_required_is_400_format_error() {
    let app = spawn_app().await;
    let response = post_customer(&app, br#"["914000009", "Manuell AS", "corporate"]"#).await;
    response.assert_refused(400, "FORMAT_ERROR", Some("(body)"));
    assert!(
        response.text().contains("got an array"),
        "{}",
        response.text()
    );
    assert!(!customer_was_stored(&app).await);
}

#[tokio::test]
async fn nul_and_bidi_controls_in_text_fields_are_400_format_error_at_the_field() {
    let app = spawn_app().await;
    for (escaped, named) in [
        ("\\u0000", "U+0000"),
        ("\\u202e", "U+202E"),
        ("\\u2066", "U+2066"),
        ("\\u001b", "U+001B"),
    ] {
        let body = format!(
            r#"{{"customerNumber":"914000009","name":"Manuell{escaped}AS","type":"corporate"}}"#
        );
        let response = post_customer(&app, body.as_bytes()).await;
        response.assert_refused(400, "FORMAT_ERROR", Some("name"));
        assert!(response.text().contains(named), "{}", response.text());
    }
    assert!(!customer_was_stored(&app).await);
}

#[tokio::test]
async fn a_json_syntax_error_names_the_body_and_its_line_not_a_question_mark() {
    let app = spawn_app().await;
    let response = post_customer(&app, b"{\"customerNumber\": \"914000009\",\n \"name\": }").await;
    response.assert_refused(400, "FORMAT_ERROR", Some("(body)"));
    assert!(response.text().contains("line 2"), "{}", response.text());
}

async fn accounts_with_redirect(app: &TestApp, redirect: &str) -> TestResponse {
    app.get("/v1/accounts")
        .header("TPP-Session-ID", "s")
        .header("TPP-Redirect-URI", redirect)
        .header("PSU-IP-Address", "192.0.2.10")
        .send()
        .await
}

fn authorisations(app: &TestApp) -> usize {
    app.state.store.table::<Authorisation>().unwrap().len()
}

#[tokio::test]
async fn a_tpp_redirect_uri_over_2_kb_is_400_format_error_and_starts_no_sca() {
    let app = spawn_app().await;
    for length in [2049, 64 * 1024] {
        let long = format!(
            "{AIS_REDIRECT}?{}",
            "a".repeat(length - AIS_REDIRECT.len() - 1)
        );
        let response = accounts_with_redirect(&app, &long).await;
        response.assert_refused(400, "FORMAT_ERROR", Some("TPP-Redirect-URI"));
        assert!(response.text().contains("2048"), "{}", response.text());
    }
    assert_eq!(authorisations(&app), 0);
    let longest = format!(
        "{AIS_REDIRECT}?{}",
        "a".repeat(2048 - AIS_REDIRECT.len() - 1)
    );
    let response = accounts_with_redirect(&app, &longest).await;
    assert_eq!(response.status, 401, "{}", response.body);
    assert_eq!(authorisations(&app), 1);
}

#[tokio::test]
async fn a_second_signature_or_other_singleton_header_is_400_format_error_naming_it() {
    let app = spawn_app().await;
    for (header, path) in [
        ("signature", "Signature"),
        ("date", "Date"),
        ("x-request-id", "X-Request-ID"),
        ("tpp-signature-certificate", "TPP-Signature-Certificate"),
        ("digest", "Digest"),
    ] {
        let response = app
            .put(
                "/v1/tpp-dialogue/contact",
                &serde_json::json!({"email": "ops@tpp.no"}),
            )
            .tamper(move |headers| {
                let copy = headers.get(header).unwrap().clone();
                headers.append(header, copy);
            })
            .send()
            .await;
        response.assert_refused(400, "FORMAT_ERROR", Some(path));
        assert!(response.text().contains("2 times"), "{}", response.text());
    }
    // Nothing was registered.
    app.get("/v1/tpp-dialogue/contact")
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", None);
}

#[tokio::test]
async fn a_request_without_signature_headers_gets_one_answer_naming_all_and_how_to_sign() {
    let app = spawn_app().await;
    let response = app.get(CUSTOMERS).unsigned().send().await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("X-Request-ID"));
    let paths: Vec<&str> = response.body["tppMessages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["path"].as_str())
        .collect();
    assert_eq!(
        paths,
        [
            "X-Request-ID",
            "Date",
            "TPP-Signature-Certificate",
            "Signature"
        ]
    );
    assert!(
        response.text().contains("xs2a-sandbox sign"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn unknown_paths_are_404_not_found_named_as_sent_everywhere() {
    let app = spawn_app().await;
    for (method, path) in [
        (Method::GET, "/v1/sandbox/foo"),
        (Method::GET, "/v1/sandbox/foo/bar"),
        (Method::DELETE, "/v1/sandbox/foo/bar"),
        (Method::POST, "/v1/sandbox/foo"),
        (Method::GET, "/v1/no-such-thing"),
        (Method::PATCH, "/v1/sandbox/foo/bar/baz"),
    ] {
        let response = app.request(method.clone(), path).send().await;
        response.assert_refused(404, "NOT_FOUND", None);
        let text = response.text();
        assert!(text.contains(&format!("{method} {path} ")), "{text}");
        // Never another endpoint: the text names the method and path as sent, and nothing else.
        for other in ["/v1/sandbox ", "/v1/accounts", "/v1/payments"] {
            assert!(!text.contains(other), "{text}");
        }
    }
}

#[tokio::test]
async fn a_path_without_v1_is_404_with_a_hint_at_v1() {
    let app = spawn_app().await;
    let response = app.get("/sandbox/customers").unsigned().send().await;
    response.assert_refused(404, "NOT_FOUND", None);
    assert!(
        response
            .text()
            .contains("did you mean /v1/sandbox/customers?"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn an_unknown_method_on_a_known_path_is_405_naming_only_that_path() {
    let app = spawn_app().await;
    for path in [
        "/v1/tpp-dialogue/contact",
        "/v1/payments/sepa-credit-transfers",
    ] {
        let response = app.request(Method::PATCH, path).send().await;
        assert_eq!(response.status, 405, "{}", response.body);
        assert_eq!(response.code(), "BAD_REQUEST");
        assert_eq!(response.text(), format!("{path} does not accept PATCH."));
    }
}

#[tokio::test]
async fn accept_charset_is_answered_in_content_type() {
    let app = spawn_app().await;
    let asked = app
        .get(CUSTOMERS)
        .header("Accept-Charset", "utf-8, iso-8859-1;q=0.5")
        .send()
        .await;
    asked.assert_ok();
    assert_eq!(
        asked.headers["content-type"],
        HeaderValue::from_static("application/json; charset=utf-8")
    );
    let refused = app
        .get("/v1/no-such-thing")
        .header("Accept-Charset", "utf-8")
        .send()
        .await;
    assert_eq!(
        refused.headers["content-type"],
        "application/json; charset=utf-8"
    );
    let not_asked = app.get(CUSTOMERS).send().await;
    assert_eq!(not_asked.headers["content-type"], "application/json");
}
