//! Who may reach the workbench: only this machine (a loopback peer, asking for a loopback host name, so a
//! DNS-rebinding page cannot pose as one), and for the API only with the operator credential and from the
//! workbench's own origins. CORS answers exactly those origins, never any.

use super::reach::WorkbenchReach;
use crate::api::error::ApiError;
use crate::api::operator::{presented_token, same_token};
use axum::extract::{Request, State};
use axum::http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_MAX_AGE, HOST, ORIGIN, VARY,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::domain::refusal::Refusal;
use xs2a_workbench::access;
use xs2a_workbench::app_state::AppState;

/// The desktop shell's page origins (Linux/macOS, Windows).
const DESKTOP_ORIGINS: [&str; 2] = ["tauri://localhost", "http://tauri.localhost"];

/// The host names that mean this machine.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    matches!(name, "127.0.0.1" | "localhost" | "::1")
}

fn refused(refusal: Refusal) -> Response {
    ApiError::from(refusal).into_response()
}

/// 403 for a request from elsewhere, saying where `what` may be opened from.
fn not_from_here(what: &str, request: &Request) -> Response {
    refused(access::not_from_here(
        what,
        WorkbenchReach::of(request).where_from(),
    ))
}

/// True when the peer counts as this machine (`reach`: a loopback peer, or in a container the published
/// port's) and asked for this machine by name.
fn from_this_machine(request: &Request) -> bool {
    let peer_is_loopback = WorkbenchReach::of(request).admits_peer(WorkbenchReach::peer(request));
    let host_is_loopback = request
        .headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(is_loopback_host);
    peer_is_loopback && host_is_loopback
}

/// `/workbench/*`: this machine only.
pub async fn this_machine_only(request: Request, next: Next) -> Response {
    if !from_this_machine(&request) {
        return not_from_here("The workbench", &request);
    }
    next.run(request).await
}

/// The request's origin when it is one the workbench serves: the service's own (same host and port as
/// asked for) or the desktop shell's.
fn allowed_origin(headers: &HeaderMap) -> Result<Option<HeaderValue>, ()> {
    let Some(origin) = headers.get(ORIGIN) else {
        return Ok(None); // not a browser's cross-origin request
    };
    let text = origin.to_str().map_err(|_| ())?;
    let own = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .map(|host| format!("http://{host}"));
    if DESKTOP_ORIGINS.contains(&text) || own.as_deref() == Some(text) {
        Ok(Some(origin.clone()))
    } else {
        Err(())
    }
}

/// The answer to a CORS preflight for the workbench API, given before routing (the API's routes take no
/// OPTIONS): 204 with the methods and headers the UI uses, for exactly an allowed origin from this
/// machine. None for any other request.
pub fn preflight_answer(request: &Request) -> Option<Response> {
    if request.method() != Method::OPTIONS || !request.uri().path().starts_with("/workbench/api/") {
        return None;
    }
    if !from_this_machine(request) {
        return Some(not_from_here("The workbench API", request));
    }
    let Ok(Some(origin)) = allowed_origin(request.headers()) else {
        return Some(refused(access::foreign_origin()));
    };
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(VARY, HeaderValue::from_static("Origin"));
    headers.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, PUT, PATCH, DELETE"),
    );
    headers.insert(
        ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("authorization, content-type, last-event-id"),
    );
    headers.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    Some(response)
}

/// `/workbench/api/*`: this machine, an allowed origin (CORS answered for exactly it) and the operator
/// credential.
pub async fn operator_api(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !from_this_machine(&request) {
        return not_from_here("The workbench API", &request);
    }
    let Ok(origin) = allowed_origin(request.headers()) else {
        return refused(access::foreign_origin());
    };
    let with_cors = |mut response: Response| {
        if let Some(origin) = &origin {
            let headers = response.headers_mut();
            headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
            headers.insert(VARY, HeaderValue::from_static("Origin"));
        }
        response
    };
    let authorised = presented_token(request.headers(), request.uri().query())
        .is_some_and(|t| same_token(t, &state.settings.operator_token))
        || super::session_cookie::admits(request.headers(), &state.settings.operator_token);
    if !authorised {
        let error = ApiError::from(access::operator_credential_needed())
            .with_status(StatusCode::UNAUTHORIZED);
        return with_cors(error.into_response());
    }
    with_cors(next.run(request).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_count_as_this_machine() {
        assert!(is_loopback_host("127.0.0.1:8080"));
        assert!(is_loopback_host("localhost:1"));
        assert!(is_loopback_host("[::1]:8080"));
        assert!(!is_loopback_host("evil.example:8080"));
        assert!(!is_loopback_host("127.0.0.1.evil.example"));
    }

    #[test]
    fn only_own_and_desktop_origins_are_allowed() {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static("127.0.0.1:9000"));
        assert_eq!(allowed_origin(&headers), Ok(None));
        headers.insert(ORIGIN, HeaderValue::from_static("http://127.0.0.1:9000"));
        assert!(matches!(allowed_origin(&headers), Ok(Some(_))));
        headers.insert(ORIGIN, HeaderValue::from_static("tauri://localhost"));
        assert!(matches!(allowed_origin(&headers), Ok(Some(_))));
        headers.insert(ORIGIN, HeaderValue::from_static("https://evil.example"));
        assert_eq!(allowed_origin(&headers), Err(()));
    }
}
