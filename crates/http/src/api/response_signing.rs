//! Signing response bodies as the bank may do (docs/reference/clock-and-service.md), when `--sign-responses`
//! is on: the response gets Digest (SHA-256 of the body as the handler wrote it, before any gzip), Date,
//! X-Request-ID (echoed), Signature over `digest x-request-id date` with the bank's test key, and the
//! bank's certificate in ASPSP-Signature-Certificate, so a TPP can test its verification code.

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::signing::{digest, http_date, signature_header, signing_string};
use xs2a_workbench::app_state::AppState;

/// The header carrying the bank's certificate (Berlin Group names none for responses; documented).
pub const CERTIFICATE_HEADER: &str = "aspsp-signature-certificate";

/// The middleware.
pub async fn sign_responses(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let bank = match (&state.bank, state.settings.sign_responses) {
        (Some(bank), true) => bank.clone(),
        _ => return next.run(request).await,
    };
    let request_id = request.headers().get("x-request-id").cloned();
    let response = next.run(request).await;
    // An event stream never ends, so it cannot be digested; it is sent unsigned.
    let is_stream = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if is_stream {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, usize::MAX).await else {
        return crate::api::error::ApiError::internal(
            "response body could not be buffered for signing",
        )
        .into_response();
    };
    let mut set = |name: &'static str, value: String| {
        if let Ok(value) = HeaderValue::from_str(&value) {
            parts.headers.insert(HeaderName::from_static(name), value);
        }
    };
    set("digest", digest::sha256(&bytes));
    set("date", http_date::format(state.clock.now()));
    set(CERTIFICATE_HEADER, bank.certificate_header());
    let mut names = vec!["digest".to_owned(), "date".to_owned()];
    if let Some(id) = request_id {
        parts.headers.insert("x-request-id", id);
        names.insert(1, "x-request-id".to_owned());
    }
    let text = signing_string::build(&names, "", "", &parts.headers).expect("headers set above");
    let signature = bank.sign_bytes(text.as_bytes());
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let value = signature_header::format(bank.key_id(), "rsa-sha256", &names, &signature);
    parts.headers.insert(
        "signature",
        HeaderValue::from_str(&value).expect("signature header is ASCII"),
    );
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}
