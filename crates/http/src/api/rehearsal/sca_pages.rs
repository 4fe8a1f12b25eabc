//! The fault plan on the SCA pages (docs/rehearsal.md): middleware in front of `/sca/{id}…` that asks the
//! plan about each page request and plays what fired — latency, the PSU cancelling, the authorisation
//! expiring on the page, other accounts ticked, the other context picked. It changes what the PSU did
//! (the authorisation, or the form they sent) and lets the pages answer, so the page handlers know
//! nothing of the plan. Injected answers carry `Sandbox-Injected` as on the bank interface.

use super::inject::INJECTED;
use super::request_facts::ascii;
use crate::api::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use xs2a_core::bank::fault_effects::sca_page;
use xs2a_core::bank::rehearsal::evaluate::{Call, Decision};
use xs2a_core::bank::rehearsal::plan::{Effect, Interface};
use xs2a_core::bank::sca::engine;
use xs2a_core::bank::sca::Context;
use xs2a_workbench::app_state::AppState;

/// The most of a page form read when a rule rewrites it (the pages' forms are a few fields).
const MAX_FORM: usize = 64 * 1024;

/// The middleware.
pub async fn inject(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !state.rehearsal.plan_active() {
        return next.run(request).await;
    }
    let path = request.uri().path().to_owned();
    let Some(id) = path
        .strip_prefix("/sca/")
        .map(|rest| rest.split('/').next().unwrap_or_default().to_owned())
    else {
        return next.run(request).await;
    };
    // The TPP whose authorisation this is, so that a rule can name it.
    let tpp = engine::load(&state.store, &id).ok().map(|a| a.tpp_id);
    let call = Call {
        interface: Interface::ScaPages,
        method: request.method().as_str(),
        path: &path,
        operation: None,
        tpp: tpp.as_deref(),
        psu: None,
        now: state.clock.now(),
    };
    let decision = match state.rehearsal.decide(&state.store, &call) {
        Ok(Some(decision)) => decision,
        Ok(None) => return next.run(request).await,
        Err(refusal) => return ApiError::from(refusal).into_response(),
    };
    let mut response = apply(&state, &decision, &id, request, next).await;
    if let Ok(marker) = HeaderValue::from_str(&ascii(&decision.marker())) {
        response.headers_mut().insert(INJECTED, marker);
    }
    tracing::info!(rule = %decision.rule, marker = %decision.marker(), "fault injected on an SCA page");
    response
}

async fn apply(
    state: &AppState,
    decision: &Decision,
    id: &str,
    request: Request,
    next: Next,
) -> Response {
    let now = state.clock.now();
    let store = &state.store;
    match &decision.effect {
        Effect::Latency { .. } => {
            tokio::time::sleep(Duration::from_millis(decision.delay_ms)).await;
            next.run(request).await
        }
        Effect::ScaCancelled => match sca_page::cancel(store, id, now) {
            Ok(auth) => match auth.redirect {
                Some(redirect) => crate::api::sca_pages::see_other(&redirect),
                None => next.run(request).await,
            },
            // Unknown or ended already: the page says so.
            Err(_) => next.run(request).await,
        },
        Effect::ScaExpired => {
            // Unknown: the page says so; a storage failure shows as the page's own.
            let _ = sca_page::expire(store, id, now);
            next.run(request).await
        }
        Effect::ScaOtherAccounts | Effect::ScaOtherContext => {
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, MAX_FORM).await else {
                return StatusCode::PAYLOAD_TOO_LARGE.into_response();
            };
            let form: Vec<(String, String)> =
                serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
            let form = match rewrite(state, id, &decision.effect, form) {
                Ok(form) => form,
                Err(refusal) => return ApiError::from(refusal).into_response(),
            };
            let body = serde_urlencoded::to_string(&form).unwrap_or_default();
            let mut request = Request::from_parts(parts, Body::from(body.clone()));
            request
                .headers_mut()
                .insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
            next.run(request).await
        }
        // Effects of the bank interface never fire here (`Effect::acts_on`).
        _ => next.run(request).await,
    }
}

/// The form as the PSU sends it under the effect: other accounts ticked, or the other context.
fn rewrite(
    state: &AppState,
    id: &str,
    effect: &Effect,
    form: Vec<(String, String)>,
) -> xs2a_core::domain::refusal::CoreResult<Vec<(String, String)>> {
    let Ok(auth) = engine::load(&state.store, id) else {
        return Ok(form); // unknown: the page says so
    };
    Ok(match effect {
        Effect::ScaOtherAccounts => {
            let ticked: Vec<String> = form
                .iter()
                .filter(|(k, _)| k == "account")
                .map(|(_, v)| v.clone())
                .collect();
            let other = sca_page::other_accounts(&state.store, &auth, &ticked)?;
            let mut form: Vec<(String, String)> =
                form.into_iter().filter(|(k, _)| k != "account").collect();
            form.extend(other.into_iter().map(|a| ("account".to_owned(), a)));
            form
        }
        Effect::ScaOtherContext => {
            let sent = form
                .iter()
                .find(|(k, _)| k == "context")
                .map(|(_, v)| v.as_str())
                .unwrap_or_default();
            let agreement_sent = form
                .iter()
                .any(|(k, v)| k == "agreementId" && !v.is_empty());
            let kind = sent.split(':').next().unwrap_or_default();
            let chosen = match Context::parse(kind) {
                Some(context) => context,
                None if agreement_sent => Context::Corporate,
                None => return Ok(form), // nothing chosen: the page asks again
            };
            let (context, agreement) = sca_page::other_context(&state.store, &auth, chosen)?;
            let value = match agreement {
                Some(agreement) => format!("{}:{agreement}", context.as_str()),
                None => context.as_str().to_owned(),
            };
            vec![("context".to_owned(), value)]
        }
        _ => form,
    })
}
