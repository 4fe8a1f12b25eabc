//! The layer just inside the traffic capture: the answers given before routing (a request the transport
//! refused, a CORS preflight for the workbench API) and the labels on every answer (Content-Language, the
//! charset when asked).
//!
//! Why one layer for four steps: each axum `from_fn` layer clones the stack below it and boxes it and its
//! future on every request, and without LTO (the README's build) none of that is inlined; four small
//! layers cost more than their work (docs/performance.md, "The levers, each measured").

use crate::api::layers::Language;
use crate::api::limits;
use crate::api::workbench::access;
use axum::extract::Request;
use axum::http::header::{ACCEPT_CHARSET, ACCEPT_LANGUAGE, CONTENT_LANGUAGE, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

/// A refused request gets its refusal as the transport made it (no labels: it goes no further, not to
/// the gate, not to a handler); a preflight gets its answer without routing; every other request goes on.
/// Everything but a refusal is then labelled.
pub async fn framing(request: Request, next: Next) -> Response {
    if let Some(refusal) = limits::take_refusal(&request) {
        return refusal;
    }
    let asked_language = request.headers().get(ACCEPT_LANGUAGE).cloned();
    let asked_charset = request.headers().contains_key(ACCEPT_CHARSET);
    let mut response = match access::preflight_answer(&request) {
        Some(answer) => answer,
        None => next.run(request).await,
    };
    label_language(asked_language.as_ref(), &mut response);
    if asked_charset {
        label_charset(&mut response);
    }
    response
}

/// Sets Content-Language on an answer that lacks it. API texts exist in English only, so JSON answers say
/// `en` whatever was asked; pages that speak Norwegian set their own header.
fn label_language(asked: Option<&HeaderValue>, response: &mut Response) {
    if !response.headers().contains_key(CONTENT_LANGUAGE) {
        let language =
            Language::negotiate(asked.and_then(|v| v.to_str().ok()), &[Language::English]);
        response
            .headers_mut()
            .insert(CONTENT_LANGUAGE, HeaderValue::from_static(language.tag()));
    }
}

/// Names the charset in a JSON answer's Content-Type, for a request that asked with Accept-Charset
/// (docs/reference/errors.md: a JSON answer's Content-Type names its charset). Answers are always UTF-8
/// (docs/interface.md#where-it-answers), whatever was asked.
fn label_charset(response: &mut Response) {
    let is_bare_json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") && !v.contains("charset"));
    if is_bare_json {
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
    }
}
