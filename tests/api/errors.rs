//! The one error shape: `{"tppMessages":[{category, code, path, text}]}` with the documented statuses.

use crate::helpers::spawn_app;
use serde_json::json;

#[tokio::test]
async fn an_unknown_path_is_404_not_found() {
    let app = spawn_app().await;
    let response = app.get("/v1/no-such-thing").send().await;
    response.assert_refused(404, "NOT_FOUND", None);
    let response = app.get("/nothing-here").unsigned().send().await;
    response.assert_refused(404, "NOT_FOUND", None);
}

#[tokio::test]
async fn a_known_path_with_an_unsupported_method_is_405() {
    let app = spawn_app().await;
    let response = app
        .request(axum::http::Method::PATCH, "/v1/tpp-dialogue/contact")
        .send()
        .await;
    assert_eq!(response.status, 405, "{}", response.body);
    assert_eq!(response.code(), "BAD_REQUEST");
}

#[tokio::test]
async fn an_unsigned_request_to_an_unknown_v1_path_is_refused_by_the_gate_first() {
    let app = spawn_app().await;
    let response = app.get("/v1/no-such-thing").unsigned().send().await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", None);
}

#[tokio::test]
async fn a_non_json_body_is_415_even_where_the_body_is_ignored() {
    let app = spawn_app().await;
    let response = app
        .request(axum::http::Method::POST, "/v1/sandbox/initialize")
        .raw_body(b"<initialize/>", "application/xml")
        .send()
        .await;
    response.assert_refused(415, "FORMAT_ERROR", Some("Content-Type"));
}

#[tokio::test]
async fn an_unknown_field_is_400_format_error() {
    let app = spawn_app().await;
    let response = app
        .put(
            "/v1/tpp-dialogue/contact",
            &json!({"email": "ops@tpp.no", "phone": "1"}),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", None);
    assert!(response.text().contains("phone"), "{}", response.text());
}

#[tokio::test]
async fn a_body_that_is_not_utf8_is_400_format_error() {
    let app = spawn_app().await;
    let response = app
        .request(axum::http::Method::PUT, "/v1/tpp-dialogue/contact")
        .raw_body(b"{\"email\": \"\xff\"}", "application/json")
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", None);
    assert!(response.text().contains("UTF-8"), "{}", response.text());
}

#[tokio::test]
async fn an_oversized_body_is_413() {
    let app = spawn_app().await;
    let big = json!({ "email": "x".repeat(2 * 1024 * 1024) });
    let response = app.put("/v1/tpp-dialogue/contact", &big).send().await;
    assert_eq!(response.status, 413, "{}", response.body);
    assert_eq!(response.code(), "BAD_REQUEST");
}

#[tokio::test]
async fn an_xml_body_is_415_with_a_clear_message() {
    let app = spawn_app().await;
    let response = app
        .request(axum::http::Method::PUT, "/v1/tpp-dialogue/contact")
        .raw_body(
            b"<contact><email>ops@tpp.no</email></contact>",
            "application/xml",
        )
        .send()
        .await;
    response.assert_refused(415, "FORMAT_ERROR", Some("Content-Type"));
    assert!(response.text().contains("XML is not supported"));
}

#[tokio::test]
async fn malformed_json_is_400_format_error() {
    let app = spawn_app().await;
    let response = app
        .request(axum::http::Method::PUT, "/v1/tpp-dialogue/contact")
        .raw_body(b"{\"email\": ", "application/json")
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", None);
    assert!(
        response.text().contains("not valid JSON"),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn a_wrong_type_is_400_format_error_with_the_json_path() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/tpp-dialogue/contact", &json!({"email": 42}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("email"));
}

#[tokio::test]
async fn a_missing_field_is_400_format_error() {
    let app = spawn_app().await;
    let response = app.put("/v1/tpp-dialogue/contact", &json!({})).send().await;
    response.assert_refused(400, "FORMAT_ERROR", Some("email"));
    assert!(response.text().contains("email"), "{}", response.text());
}

#[tokio::test]
async fn typed_headers_are_validated() {
    let app = spawn_app().await;
    let cases = [
        ("PSU-ID", "kari", "PSU-ID"),
        ("PSU-Device-ID", "my-phone", "PSU-Device-ID"),
        ("PSU-HTTP-Method", "FETCH", "PSU-HTTP-Method"),
        ("PSU-Context", "BUSINESS", "PSU-Context"),
        ("TPP-Redirect-Preferred", "maybe", "TPP-Redirect-Preferred"),
        ("PSU-IP-Address", "my-laptop", "PSU-IP-Address"),
        ("PSU-IP-Port", "http", "PSU-IP-Port"),
        ("TPP-Redirect-URI", "/callback", "TPP-Redirect-URI"),
    ];
    for (name, value, path) in cases {
        let response = app
            .get("/v1/sandbox/customers")
            .header(name, value)
            .send()
            .await;
        response.assert_refused(400, "FORMAT_ERROR", Some(path));
    }
}

#[tokio::test]
async fn error_texts_never_exceed_512_characters() {
    let app = spawn_app().await;
    let response = app
        .get("/v1/sandbox/customers")
        .tamper(|h| drop(h.insert("x-request-id", "y".repeat(900).parse().unwrap())))
        .send()
        .await;
    assert_eq!(response.status, 400);
    for message in response.body["tppMessages"].as_array().unwrap() {
        assert!(message["text"].as_str().unwrap().chars().count() <= 512);
    }
}

#[tokio::test]
async fn an_undecodable_path_parameter_is_400_format_error() {
    let app = spawn_app().await;
    let response = app.get("/v1/sandbox/accounts/%FF").send().await;
    response.assert_refused(400, "FORMAT_ERROR", Some("(path)"));
}

#[tokio::test]
async fn deleting_a_contact_that_was_never_registered_is_404() {
    let app = spawn_app().await;
    app.delete("/v1/tpp-dialogue/contact")
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", None);
}

/// The status table of docs/reference/errors.md is the one the sandbox answers with: every code a row
/// of the codes' own statuses names has that status (the rows for 405, 408, 413, … name codes that
/// transport refusals carry with another status).
#[test]
fn the_errors_pages_status_table_is_the_one_answered() {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference/errors.md"),
    )
    .unwrap();
    let mut checked = 0;
    for line in page.lines() {
        let Some((status, codes)) = line
            .strip_prefix("| ")
            .and_then(|rest| rest.split_once(" | "))
        else {
            continue;
        };
        let Ok(status) = status.parse::<u16>() else {
            continue;
        };
        if ![400, 401, 403, 404, 409, 429, 500].contains(&status) {
            continue;
        }
        for word in codes.split(|c: char| !(c.is_ascii_uppercase() || c == '_')) {
            let Ok(code) = serde_json::from_value::<xs2a_core::domain::refusal::Code>(
                serde_json::Value::String(word.to_owned()),
            ) else {
                continue;
            };
            assert_eq!(code.status(), status, "{word} in the row of {status}");
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} codes found in the table");
}
