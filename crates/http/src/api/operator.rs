//! The operator credential on the bank-side controls of `/v1/sandbox` (docs/reference/access.md). In
//! loopback mode (one developer's machine) every signed TPP may use them, as before; in shared mode a
//! control also needs `Authorization: Bearer <operator token>`, which the CLI prints and the workbench
//! holds. The mock-data API stays open to signed TPPs in both modes, as the bank's platform offers it.

use crate::api::error::ApiError;
use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::bank::operator_access;
use xs2a_workbench::app_state::AppState;

/// The operator credential a request carries: `Authorization: Bearer <token>`, or `?token=` where a
/// header cannot be set (EventSource).
pub fn presented_token<'r>(headers: &'r HeaderMap, query: Option<&'r str>) -> Option<&'r str> {
    headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .or_else(|| {
            query?
                .split('&')
                .find_map(|pair| pair.strip_prefix("token="))
        })
}

/// Compares without stopping at the first difference (the core's
/// [`same_token`](xs2a_core::bank::operator_access::same_token)).
pub fn same_token(presented: &str, expected: &str) -> bool {
    operator_access::same_token(presented, expected)
}

/// A bank-side control: open in loopback mode, the operator's only in shared mode (the core's rule,
/// [`admit_control`](operator_access::admit_control)).
pub async fn control(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let admitted = operator_access::admit_control(
        &state.settings,
        presented_token(request.headers(), request.uri().query()),
        request.method().as_str(),
        request.uri().path(),
    );
    if let Err(refusal) = admitted {
        return ApiError::from(refusal).into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn tokens_are_read_from_the_header_or_the_query() {
        let mut headers = HeaderMap::new();
        assert_eq!(
            presented_token(&headers, Some("a=1&token=abc")),
            Some("abc")
        );
        headers.insert(AUTHORIZATION, HeaderValue::from_static("Bearer xyz"));
        assert_eq!(presented_token(&headers, None), Some("xyz"));
        assert!(same_token("abc", "abc") && !same_token("abc", "abd") && !same_token("ab", "abc"));
    }
}
