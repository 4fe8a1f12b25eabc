//! The capture: every request that reaches the port (but the workbench's own API and `/health`) becomes an
//! exchange in the traffic log — request and answer whole, the TPP, the PSU, the gate's verdict, the
//! tppMessages — handed to the log's writer without waiting. Bodies are already in memory here (the
//! limits read them before routing; answers are built whole), so the capture copies no stream; an event
//! stream's answer is recorded without its body.

use super::verdict::GateSlot;
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::traffic::model::{ExchangeSummary, TppRef};
use xs2a_workbench::traffic::raw::{HeaderBlock, RawMessage};

/// Which part of the service a path belongs to.
fn area(path: &str) -> &'static str {
    let v1 = path
        .strip_prefix(crate::api::PLATFORM_PREFIX)
        .or_else(|| path.strip_prefix("/v1"));
    match v1 {
        Some(rest) if rest.starts_with("/sandbox/") || rest == "/sandbox" => "sandbox",
        Some(rest) if rest.is_empty() || rest.starts_with('/') => "bank",
        _ if path.starts_with("/sca/") => "sca-page",
        _ => "other",
    }
}

/// The header lines copied out of the request or answer, in one buffer: nothing of the server's read
/// buffer stays borrowed until the writer runs.
fn header_block(map: &HeaderMap) -> HeaderBlock {
    let bytes: usize = map
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len() + 4)
        .sum();
    let mut block = HeaderBlock::with_capacity(bytes);
    for (name, value) in map {
        block.push(name.as_str(), value.as_bytes());
    }
    block
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The TPP a refused request's certificate names (a verified one comes from the gate).
fn tpp_of_certificate(headers: &HeaderBlock) -> Option<TppRef> {
    let value = headers.text("tpp-signature-certificate")?;
    let decoded = xs2a_core::signing::certificate::decode_certificate_header(value).ok()?;
    let certificate =
        xs2a_core::signing::certificate::TppCertificate::from_der(&decoded.der).ok()?;
    Some(TppRef {
        organisation_id: certificate
            .organization_identifier
            .clone()
            .unwrap_or_default(),
        name: certificate
            .organization
            .clone()
            .or(certificate.common_name.clone())
            .unwrap_or_default(),
        subject: certificate.subject_rfc2253.clone(),
    })
}

/// The middleware.
pub async fn capture(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let log = &state.traffic;
    if !log.enabled() || path.starts_with("/workbench") || path == "/health" {
        return next.run(request).await;
    }
    let id = log.next_id();
    let mut at = state.clock.now();
    let mut started = Instant::now();
    let (mut parts, body) = request.into_parts();
    let mut request_body = to_bytes(body, usize::MAX).await.unwrap_or_default();
    // A request the transport refused (a 408: its body did not arrive in time) is recorded from when it
    // began, with the bytes that did arrive; the handlers never see them.
    let transport_refused = parts
        .extensions
        .get::<crate::api::limits::TransportRefusal>()
        .map(|refusal| (refusal.refused().started, refusal.refused().arrived.clone()));
    let mut kept_arrived = None;
    if let Some((began, arrived)) = transport_refused {
        at -= began.elapsed();
        started = began;
        kept_arrived = (!arrived.is_empty()).then_some(arrived);
        request_body = Bytes::new();
    }
    let slot = GateSlot::default();
    parts.extensions.insert(slot.clone());
    let request_headers = header_block(&parts.headers);
    let (method, path, query) = (
        parts.method.to_string(),
        parts.uri.path().to_owned(),
        parts.uri.query().map(str::to_owned),
    );
    let composer_signing_string = header(&parts.headers, "x-request-id")
        .and_then(|request_id| log.claim_composer_request(request_id, id));
    // The handlers get the body as it came; the log keeps its own copy, so that it holds nothing of
    // the server's buffers either.
    let kept_request_body = kept_arrived
        .or_else(|| (!request_body.is_empty()).then(|| Bytes::copy_from_slice(&request_body)));
    // The exchange is the cause of what the request writes (the change journal's, docs/rewind.md).
    let cause = xs2a_core::domain::cause::Cause::Entry(id);
    let response = xs2a_core::domain::cause::within(
        cause,
        next.run(Request::from_parts(parts, Body::from(request_body))),
    )
    .await;
    let (parts, body) = response.into_parts();
    let streaming = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
        || parts
            .extensions
            .get::<crate::api::rehearsal::inject::BreaksConnection>()
            .is_some();
    let (body, response_body) = if streaming {
        (body, None)
    } else {
        let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
        (Body::from(bytes.clone()), Some(bytes))
    };
    let status = parts.status.as_u16();
    let findings = slot.0.lock().unwrap_or_else(|p| p.into_inner()).take();
    let response_headers = header_block(&parts.headers);
    let duration_ms = started.elapsed().as_millis() as u64;
    // Everything else — turning headers into text, parsing the answer, reading a refused request's
    // certificate — happens on the log's writer thread.
    log.record_exchange(Box::new(move || {
        let record = findings.map(super::verdict::record);
        let answer: Option<serde_json::Value> = response_body
            .as_ref()
            .filter(|b| xs2a_workbench::traffic::journeys::worth_parsing(b))
            .and_then(|b| serde_json::from_slice(b).ok());
        let tpp_messages: Vec<serde_json::Value> = answer
            .as_ref()
            .and_then(|a| a["tppMessages"].as_array().cloned())
            .unwrap_or_default();
        let code = (status >= 400)
            .then(|| {
                tpp_messages
                    .first()
                    .and_then(|m| m["code"].as_str().map(str::to_owned))
            })
            .flatten();
        let tpp = record
            .as_ref()
            .and_then(|r| r.tpp.clone())
            .or_else(|| tpp_of_certificate(&request_headers));
        let text = |name: &str| request_headers.text(name).map(str::to_owned);
        let failed_step = record.as_ref().and_then(|r| r.failed_step.clone());
        let mut gate = record.map(|r| r.verdict);
        if let Some(verdict) = gate.as_mut().filter(|v| v.likely_cause.is_none()) {
            verdict.likely_cause =
                super::verdict::handler_cause(status, &tpp_messages, answer.as_ref());
        }
        xs2a_workbench::traffic::Captured {
            summary: ExchangeSummary {
                id,
                at,
                duration_ms,
                area: area(&path).to_owned(),
                method,
                path,
                query,
                status,
                source: if composer_signing_string.is_some() {
                    "composer"
                } else {
                    "external"
                }
                .to_owned(),
                tpp,
                psu_id: text("psu-id"),
                tpp_session_id: text("tpp-session-id"),
                failed_step,
                code,
                resources: Vec::new(),
                journeys: Vec::new(),
            },
            request: RawMessage {
                headers: request_headers,
                body: kept_request_body,
            },
            response: RawMessage {
                headers: response_headers,
                body: response_body,
            },
            gate,
            tpp_messages,
            composer_signing_string,
            answer,
        }
    }));
    Response::from_parts(parts, body)
}
