//! The signed-request gate as axum middleware: every `/v1` request is buffered (up to the body limit),
//! verified by [`Verifier`](crate::signing::verifier::Verifier) against the one clock, its typed headers
//! checked, and the identified TPP handed to the handler as an extension. Warnings gathered on the way are
//! added to the response's `tppMessages` (JSON objects) or to `Sandbox-Warning` headers (other bodies).

use super::headers::validate_typed_headers;
use crate::api::error::ApiError;
use crate::signing::verifier::{RequestToVerify, VerifiedTpp};
use crate::state::AppState;
use axum::body::{to_bytes, Body};
use axum::extract::{OriginalUri, Request, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Request bodies above this size are refused with 413.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The middleware.
pub async fn gate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > MAX_BODY_BYTES) {
        return ApiError::payload_too_large(MAX_BODY_BYTES).into_response();
    }
    let body = match to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        Err(error) if is_length_limit(&error) => {
            return ApiError::payload_too_large(MAX_BODY_BYTES).into_response()
        }
        Err(error) => {
            return ApiError::format(
                "(body)",
                format!("the request body could not be read: {error}"),
            )
            .into_response()
        }
    };
    // SPEC.md: requests are JSON. Checked for every body, not only where a handler reads one.
    if !body.is_empty() {
        let content_type = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        if let Err(error) = super::json::check_media_type(content_type) {
            return error.into_response();
        }
    }
    // Inside `nest("/v1", ..)` the URI lacks its prefix; the signature covers the URI as sent.
    let original = parts.extensions.get::<OriginalUri>().map(|o| o.0.clone());
    let uri = original.as_ref().unwrap_or(&parts.uri);
    let path_and_query = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let verified = state.verifier.verify(
        &RequestToVerify {
            method: parts.method.as_str(),
            path_and_query,
            headers: &parts.headers,
            body: &body,
        },
        &state.clock,
    );
    let verified = match verified {
        Ok(verified) => verified,
        Err(error) => {
            tracing::info!(method = %parts.method, path = %parts.uri.path(), %error, "request refused at the gate");
            return ApiError::from(error).into_response();
        }
    };
    if let Err(error) = validate_typed_headers(&parts.headers) {
        return error
            .with_messages(verified.warnings.clone())
            .into_response();
    }
    let warnings = verified.warnings.clone();
    parts.extensions.insert::<VerifiedTpp>(verified);
    let response = next.run(Request::from_parts(parts, Body::from(body))).await;
    super::warnings::attach(response, &warnings).await
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
