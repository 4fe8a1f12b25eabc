//! The signed-request gate as axum middleware: every `/v1` request (its body already read within the
//! limits by `api::limits`) is verified by [`Verifier`](xs2a_core::signing::verifier::Verifier) against the one clock, its typed headers
//! checked, and the identified TPP handed to the handler as an extension. Warnings gathered on the way are
//! added to the response's `tppMessages` (JSON objects) or to `Sandbox-Warning` headers (other bodies).

use super::headers::validate_typed_headers;
use crate::api::error::ApiError;
use crate::api::traffic::verdict::GateSlot;
use axum::body::{to_bytes, Body};
use axum::extract::{OriginalUri, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::signing::verifier::{RequestToVerify, VerifiedTpp};
use xs2a_workbench::app_state::AppState;

/// The middleware.
pub async fn gate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    // The body was read, within the size and time limits, by `api::limits` before routing.
    let body = match to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(error) => return super::json::unreadable_body(error).into_response(),
    };
    // Requests are JSON (docs/interface.md#where-it-answers). Checked for every body, not only where a handler reads
    // one.
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
    let request = RequestToVerify {
        method: parts.method.as_str(),
        path_and_query,
        headers: &parts.headers,
        body: &body,
    };
    // When the traffic log records this request, the gate explains each step in the same single pass.
    let slot = parts.extensions.get::<GateSlot>().cloned();
    // Under the sandbox profile a refusal names every step that failed, so that a client fixes them in
    // one round trip; production answers with the first only, as the bank does (docs/rehearsal.md).
    let every_failure = state.rehearsal.profile() == xs2a_core::bank::rehearsal::Profile::Sandbox;
    let verified = match &slot {
        Some(slot) => {
            let report = state
                .verifier
                .verify_explained(&request, &state.clock, every_failure);
            let (outcome, findings) = crate::api::traffic::verdict::findings(report);
            *slot.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(findings);
            outcome
        }
        None => state.verifier.verify(&request, &state.clock, every_failure),
    };
    let verified = match verified {
        Ok(verified) => verified,
        Err(error) => {
            tracing::info!(method = %parts.method, path = %parts.uri.path(), %error, "request refused at the gate");
            return ApiError::from(error).into_response();
        }
    };
    // Each tolerance is a WARNING under the sandbox profile and production's refusal under production.
    let warnings = match xs2a_core::bank::rehearsal::tolerance::judge_all(
        state.rehearsal.profile(),
        &verified.tolerated,
    ) {
        Ok(warnings) => warnings,
        Err(refusal) => return ApiError::from(refusal).into_response(),
    };
    if let Err(error) = validate_typed_headers(&parts.headers) {
        return error.with_messages(warnings).into_response();
    }
    if let Err(refusal) = super::rehearsal::consult_register(&state, &verified, uri.path()) {
        return ApiError::from(refusal).into_response();
    }
    parts.extensions.insert::<VerifiedTpp>(verified);
    let response = next.run(Request::from_parts(parts, Body::from(body))).await;
    super::warnings::attach(response, &warnings).await
}
