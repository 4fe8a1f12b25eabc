//! The transport's limits: how large and how slow a request may be before the service cuts it off with a
//! clear answer, so that no client can hold memory or a connection for ever. Defaults are documented in
//! docs/reference/limits.md and settable on `serve`.

use crate::api::error::ApiError;
use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::header::{CONNECTION, CONTENT_LENGTH};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest request body (413 beyond it).
    pub max_body_bytes: usize,
    /// The largest single header value (431 beyond it).
    pub max_header_value_bytes: usize,
    /// The largest header section, all headers together (431 beyond it).
    pub max_header_bytes: usize,
    /// How long a client may take to send the request line and headers.
    pub header_read_timeout: Duration,
    /// How long a client may take to send the body it announced.
    pub body_read_timeout: Duration,
    /// How long an idle keep-alive connection stays open.
    pub idle_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 1024 * 1024,
            max_header_value_bytes: 8 * 1024,
            max_header_bytes: 64 * 1024,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(120),
        }
    }
}

/// The largest TPP-Redirect-URI accepted (400 FORMAT_ERROR beyond it). The bank keeps the URI with every
/// authorisation it starts and sends the PSU back to it, so it is kept to the length browsers and
/// servers reliably handle in a URL; a longer one is a mistake, not a redirect.
pub const MAX_REDIRECT_URI_BYTES: usize = 2048;

/// Room for the request line on top of `max_header_bytes` in the HTTP layer's own hard limit, beyond
/// which it answers a bare 431 (the JSON answer of [`enforce`] covers everything below it).
pub const REQUEST_LINE_ROOM: usize = 16 * 1024;

/// The service with these limits enforced on every request (the connection-level timeouts are the
/// server's, see `api::connection`).
pub fn apply(router: Router, limits: Limits) -> Router {
    router.layer(from_fn(move |request: Request, next: Next| {
        enforce(limits, request, next)
    }))
}

/// Refuses oversized headers, then reads the whole body within the size and time limits before the
/// request is routed, so that nothing behind it (the gate, a handler, a bank page's form) can be held
/// by a slow or endless body. A refusal (408, 413, 431, 400) still goes through the router's outer
/// layers, so that the traffic log records it like any other answer: the request travels on with no
/// body and the refusal in a [`TransportRefusal`], which [`answer_refused`] (just inside the capture)
/// answers with.
async fn enforce(limits: Limits, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    if let Err(error) = check_headers(&limits, &parts.headers) {
        return refused(parts, next, error.into_response()).await;
    }
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limits.max_body_bytes as u64) {
        let answer = closing(ApiError::payload_too_large(limits.max_body_bytes));
        return refused(parts, next, answer).await;
    }
    let read = tokio::time::timeout(
        limits.body_read_timeout,
        to_bytes(body, limits.max_body_bytes),
    )
    .await;
    let bytes = match read {
        Err(_) => closing(ApiError::body_timeout(limits.body_read_timeout)),
        Ok(Err(error)) if is_length_limit(&error) => {
            closing(ApiError::payload_too_large(limits.max_body_bytes))
        }
        Ok(Err(error)) => closing(ApiError::format(
            "(body)",
            format!("the request body could not be read: {error}"),
        )),
        Ok(Ok(bytes)) => {
            return next
                .run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    };
    refused(parts, next, bytes).await
}

/// The transport's refusal of a request, carried to [`answer_refused`] through the capture.
#[derive(Clone)]
pub struct TransportRefusal(Arc<Mutex<Option<Response>>>);

/// Sends the request on without its body (its headers as sent: the inspector shows the Content-Length that
/// announced more than arrived), to be answered with `answer` once the capture has seen it.
async fn refused(mut parts: axum::http::request::Parts, next: Next, answer: Response) -> Response {
    parts
        .extensions
        .insert(TransportRefusal(Arc::new(Mutex::new(Some(answer)))));
    next.run(Request::from_parts(parts, Body::empty())).await
}

/// The layer just inside the capture: a request the transport refused is answered with that refusal and
/// goes no further (not to the gate, not to a handler).
pub async fn answer_refused(request: Request, next: Next) -> Response {
    let refusal = request
        .extensions()
        .get::<TransportRefusal>()
        .and_then(|refusal| refusal.0.lock().unwrap_or_else(|p| p.into_inner()).take());
    match refusal {
        Some(answer) => answer,
        None => next.run(request).await,
    }
}

/// The answer, with the connection closed after it: the rest of the body is not read.
fn closing(error: ApiError) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// TPP-Redirect-URI within its own maximum (400), each header value and the whole header section within
/// theirs (431).
fn check_headers(limits: &Limits, headers: &HeaderMap) -> Result<(), ApiError> {
    for uri in headers.get_all("tpp-redirect-uri") {
        if uri.len() > MAX_REDIRECT_URI_BYTES {
            return Err(ApiError::format(
                "TPP-Redirect-URI",
                format!(
                    "TPP-Redirect-URI is {} bytes long; at most {MAX_REDIRECT_URI_BYTES} are accepted.",
                    uri.len()
                ),
            ));
        }
    }
    let mut total = 0;
    for (name, value) in headers {
        if value.len() > limits.max_header_value_bytes {
            return Err(ApiError::header_fields_too_large(
                Some(name.as_str()),
                format!(
                    "The header {name} is {} bytes long; at most {} are accepted per header value.",
                    value.len(),
                    limits.max_header_value_bytes
                ),
            ));
        }
        // As on the wire: "name: value" and CRLF.
        total += name.as_str().len() + value.len() + 4;
    }
    if total > limits.max_header_bytes {
        return Err(ApiError::header_fields_too_large(
            None,
            format!(
                "The request's headers are {total} bytes together; at most {} are accepted.",
                limits.max_header_bytes
            ),
        ));
    }
    Ok(())
}

/// True when reading the body stopped at the size limit (rather than failing otherwise).
fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if current.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = current.source();
    }
    false
}
