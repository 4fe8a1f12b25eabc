//! The capture: every request that reaches the port (but the workbench's own API and `/health`) becomes an
//! exchange in the traffic log — request and answer whole, the TPP, the PSU, the gate's verdict, the
//! tppMessages — handed to the log's writer without waiting. Bodies are already in memory here (the
//! limits read them before routing; answers are built whole), so the capture copies no stream; an event
//! stream's answer is recorded without its body.

use super::verdict::GateSlot;
use crate::state::AppState;
use crate::traffic::model::{Exchange, ExchangeSummary, Message, TppRef};
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine;
use std::time::Instant;

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

fn headers_of(map: &HeaderMap) -> Vec<(String, String)> {
    map.iter()
        .map(|(n, v)| {
            let value = match std::str::from_utf8(v.as_bytes()) {
                Ok(text) => text.to_owned(),
                Err(_) => String::from_utf8_lossy(v.as_bytes()).into_owned(),
            };
            (n.as_str().to_owned(), value)
        })
        .collect()
}

fn message(headers: &HeaderMap, body: Option<&Bytes>) -> Message {
    let (text, base64) = match body {
        None => (None, false),
        Some(bytes) if bytes.is_empty() => (None, false),
        Some(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => (Some(text.to_owned()), false),
            Err(_) => (
                Some(base64::engine::general_purpose::STANDARD.encode(bytes)),
                true,
            ),
        },
    };
    Message {
        headers: headers_of(headers),
        body: text,
        body_bytes: body.map_or(0, Bytes::len),
        body_base64: base64,
    }
}

fn header_bytes(headers: &HeaderMap) -> u64 {
    headers
        .iter()
        .map(|(n, v)| (n.as_str().len() + v.len() + 4) as u64)
        .sum()
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The TPP a refused request's certificate names (a verified one comes from the gate).
fn tpp_of_certificate(headers: &HeaderMap) -> Option<TppRef> {
    let value = headers.get("tpp-signature-certificate")?.to_str().ok()?;
    let decoded = crate::signing::certificate::decode_certificate_header(value).ok()?;
    let certificate = crate::signing::certificate::TppCertificate::from_der(&decoded.der).ok()?;
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
        subject: certificate.subject.to_rfc2253(),
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
    let at = state.clock.now();
    let started = Instant::now();
    let (mut parts, body) = request.into_parts();
    let request_body = to_bytes(body, usize::MAX).await.unwrap_or_default();
    let slot = GateSlot::default();
    parts.extensions.insert(slot.clone());
    let request_headers = parts.headers.clone();
    let (method, path, query) = (
        parts.method.to_string(),
        parts.uri.path().to_owned(),
        parts.uri.query().map(str::to_owned),
    );
    let composer_signing_string = header(&request_headers, "x-request-id")
        .and_then(|request_id| log.claim_composer_request(&request_id, id));
    let response = next
        .run(Request::from_parts(parts, Body::from(request_body.clone())))
        .await;
    let (parts, body) = response.into_parts();
    let streaming = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let (body, response_body) = if streaming {
        (body, None)
    } else {
        let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
        (Body::from(bytes.clone()), Some(bytes))
    };
    let status = parts.status.as_u16();
    let findings = slot.0.lock().unwrap_or_else(|p| p.into_inner()).take();
    let response_headers = parts.headers.clone();
    let duration_ms = started.elapsed().as_millis() as u64;
    // Everything else — copying headers into strings, parsing the answer, reading a refused request's
    // certificate — happens on the log's writer thread.
    log.record_exchange(Box::new(move || {
        let record = findings.map(super::verdict::record);
        let answer: Option<serde_json::Value> = response_body
            .as_ref()
            .filter(|b| crate::traffic::journeys::worth_parsing(b))
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
        let bytes = (request_body.len() + response_body.as_ref().map_or(0, Bytes::len)) as u64
            + header_bytes(&request_headers)
            + header_bytes(&response_headers);
        let exchange = Exchange {
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
                psu_id: header(&request_headers, "psu-id"),
                tpp_session_id: header(&request_headers, "tpp-session-id"),
                failed_step: record.as_ref().and_then(|r| r.failed_step.clone()),
                code,
                resources: Vec::new(),
                journeys: Vec::new(),
            },
            request: message(&request_headers, Some(&request_body)),
            response: message(&response_headers, response_body.as_ref()),
            gate: record.map(|r| r.verdict),
            tpp_messages,
            composer_signing_string,
        };
        crate::traffic::Captured {
            exchange,
            answer,
            bytes,
        }
    }));
    Response::from_parts(parts, body)
}
