//! The fault plan on the bank interface: middleware inside the gate (so a rule can name the TPP) that
//! asks the plan about each request and applies what fired. With no active plan it costs one atomic
//! load. Every injected answer carries `Sandbox-Injected: injected: ...`, which the traffic log records
//! with the exchange, so the inspector and the flow view show it and nobody mistakes it for a bug.

use super::request_facts::{ascii, psu_id, sent_path};
use crate::api::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use xs2a_core::bank::fault_effects::answers;
use xs2a_core::bank::rehearsal::evaluate::{Call, Decision};
use xs2a_core::bank::rehearsal::plan::{Effect, Interface};
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// The response header that marks an injected effect.
pub const INJECTED: &str = "sandbox-injected";

/// Marks a response whose connection is to break: the traffic log passes its body on unread.
#[derive(Debug, Clone, Copy)]
pub struct BreaksConnection;

/// The middleware.
pub async fn inject(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !state.rehearsal.plan_active() {
        return next.run(request).await;
    }
    let path = sent_path(&request);
    let tpp = request
        .extensions()
        .get::<VerifiedTpp>()
        .and_then(|v| v.tpp().organization_identifier.clone());
    let psu = psu_id(&request);
    let call = Call {
        interface: Interface::Bank,
        method: request.method().as_str(),
        path: &path,
        operation: super::operations::operation_id(request.method().as_str(), &path),
        tpp: tpp.as_deref(),
        psu: psu.as_deref(),
        now: state.clock.now(),
    };
    let decision = match state.rehearsal.decide(&state.store, &call) {
        Ok(Some(decision)) => decision,
        Ok(None) => return next.run(request).await,
        Err(refusal) => return ApiError::from(refusal).into_response(),
    };
    let mut response = apply(&state, &decision, request, next).await;
    if let Ok(marker) = HeaderValue::from_str(&ascii(&decision.marker())) {
        response.headers_mut().insert(INJECTED, marker);
    }
    tracing::info!(rule = %decision.rule, marker = %decision.marker(), "fault injected");
    response
}

async fn apply(state: &AppState, decision: &Decision, request: Request, next: Next) -> Response {
    let now = state.clock.now();
    if let Some(answer) = answers::injected_answer(&decision.rule, &decision.effect, now) {
        let status =
            StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let response = ApiError::from(answer.refusal)
            .with_status(status)
            .into_response();
        return match answer.retry_after_seconds {
            Some(seconds) => with_retry_after(response, seconds),
            None => response,
        };
    }
    match &decision.effect {
        Effect::Latency { .. } => {
            tokio::time::sleep(Duration::from_millis(decision.delay_ms)).await;
            next.run(request).await
        }
        Effect::ConnectionReset => broken(),
        Effect::NoAnswer { hold_seconds } => {
            tokio::time::sleep(Duration::from_secs(*hold_seconds)).await;
            broken()
        }
        Effect::ConsentRevoked
        | Effect::ConsentExpired
        | Effect::PaymentRejected
        | Effect::BasketPartlyRejected { .. } => {
            super::resources::apply(state, &decision.effect, request, next).await
        }
        // Answered above (`answers`); effects of the SCA pages never fire on the bank interface
        // (`Effect::acts_on`).
        Effect::RateLimited { .. }
        | Effect::ServerError
        | Effect::Maintenance { .. }
        | Effect::ScaCancelled
        | Effect::ScaExpired
        | Effect::ScaOtherAccounts
        | Effect::ScaOtherContext => next.run(request).await,
    }
}

fn with_retry_after(mut response: Response, seconds: u64) -> Response {
    response
        .headers_mut()
        .insert("retry-after", HeaderValue::from(seconds));
    response
}

/// A response whose body fails at once: the server closes the connection without a complete answer.
fn broken() -> Response {
    let mut response = Response::new(Body::new(Broken));
    response.extensions_mut().insert(BreaksConnection);
    response
}

/// A body that fails on its first read.
struct Broken;

impl http_body::Body for Broken {
    type Data = bytes::Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<bytes::Bytes>, std::io::Error>>> {
        Poll::Ready(Some(Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset by the fault plan",
        ))))
    }
}
