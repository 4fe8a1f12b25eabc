//! Cross-cutting layers: durability before acknowledgement, panics as 500 SYSTEM_ERROR, the languages
//! answers are written in, and the JSON 404/405 answers for paths and methods the service does not have.

use crate::api::error::ApiError;
use axum::extract::{MatchedPath, OriginalUri, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::bank::pis::model::PaymentService;
use xs2a_core::domain::refusal::Code;
use xs2a_workbench::app_state::AppState;

/// Makes a request's writes durable before a successful answer leaves, so that a 2xx (or the redirect
/// that ends a bank page's form) always means the data is on disk. The request waits for the group commit
/// of exactly its own writes (see `store::flusher`); a request that wrote nothing, such as `/health`, never
/// waits. Writes made off the request's task (a batch run on a blocking thread) are not seen by the
/// tracker, so any successful request other than GET or HEAD also covers every write made before it
/// answered. A failed flush turns the answer into a 500.
pub async fn durability(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let reads_only = matches!(*request.method(), Method::GET | Method::HEAD);
    let (response, wrote) = xs2a_core::store::track_writes(next.run(request)).await;
    // An answer that is not a success may still have written what the client acts on next: the 401 that
    // starts an SCA created the authorisation its scaRedirect names. What it wrote itself is owed too (a
    // refusal that wrote nothing owes nothing and waits for nothing).
    let failed = response.status().as_u16() >= 400;
    let owed = if reads_only || failed {
        wrote
    } else {
        wrote.max(state.store.last_write())
    };
    if owed > 0 {
        if let Err(error) = state.store.make_durable_up_to(owed).await {
            return ApiError::internal(format!("flush failed: {error}")).into_response();
        }
    }
    response
}

/// Turns a panic in a handler into a logged 500 SYSTEM_ERROR without internals.
pub fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    ApiError::internal(format!("handler panicked: {detail}")).into_response()
}

/// The languages the service writes. API messages are English; the SCA pages are also Norwegian.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    English,
    Norwegian,
}

impl Language {
    pub fn tag(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Norwegian => "nb",
        }
    }

    /// The best of `offered` for an Accept-Language value (quality values honoured; English by default).
    pub fn negotiate(accept_language: Option<&str>, offered: &[Language]) -> Language {
        let mut best = (0.0f32, Language::English);
        for item in accept_language.unwrap_or("").split(',') {
            let mut pieces = item.trim().split(';');
            let range = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
            let quality = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            let primary = range.split('-').next().unwrap_or("");
            let language = match primary {
                "nb" | "no" | "nn" => Some(Language::Norwegian),
                "en" | "*" => Some(Language::English),
                _ => None,
            };
            if let Some(language) = language.filter(|l| offered.contains(l)) {
                if quality > best.0 {
                    best = (quality, language);
                }
            }
        }
        best.1
    }
}

/// The path as the client sent it: inside `nest("/v1", ..)` the request's URI has lost its prefix.
fn sent_path(request: &Request) -> &str {
    request
        .extensions()
        .get::<OriginalUri>()
        .map_or(request.uri().path(), |original| original.0.path())
}

/// True when the route that matched takes the payment service as a parameter (`/v1/{service}/...`) and
/// the path names no payment service there: such a path (`/v1/sandbox/foo`) is unknown, not a payment.
fn names_no_payment_service(request: &Request) -> bool {
    let Some(matched) = request.extensions().get::<MatchedPath>() else {
        return false;
    };
    let Some((_, pattern)) = matched.as_str().split_once("/v1/") else {
        return false;
    };
    if !pattern.starts_with("{service}") {
        return false;
    }
    let path = sent_path(request);
    let segment = path
        .split_once("/v1/")
        .map_or(path, |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap_or_default();
    PaymentService::parse(segment).is_none()
}

/// Route layer of `/v1`: a path that only matched the payment routes' `{service}` parameter is 404,
/// like any other unknown path.
pub async fn known_payment_service(request: Request, next: Next) -> Response {
    if names_no_payment_service(&request) {
        return no_such_path(request).await;
    }
    next.run(request).await
}

/// 404 NOT_FOUND in the usual body for an unknown path, named as it was sent.
pub async fn no_such_path(request: Request) -> Response {
    ApiError::no_such_path(request.method().as_str(), sent_path(&request)).into_response()
}

/// 405 for a known path with a method it does not take (404 when the path is unknown after all). The
/// text names only the path as sent, never another endpoint.
pub async fn no_such_method(request: Request) -> Response {
    if names_no_payment_service(&request) {
        return no_such_path(request).await;
    }
    ApiError::new(
        Code::BadRequest,
        None,
        format!(
            "{} does not accept {}.",
            sent_path(&request),
            request.method()
        ),
    )
    .with_status(StatusCode::METHOD_NOT_ALLOWED)
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    async fn boom() -> &'static str {
        panic!("secret internal detail")
    }

    #[tokio::test]
    async fn a_panicking_handler_becomes_a_500_system_error_without_internals() {
        let app = axum::Router::new()
            .route("/boom", axum::routing::get(boom))
            .layer(tower_http::catch_panic::CatchPanicLayer::custom(
                panic_response,
            ));
        let response = app
            .oneshot(
                axum::http::Request::get("/boom")
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["tppMessages"][0]["code"], "SYSTEM_ERROR");
        assert!(!body.to_string().contains("secret"), "{body}");
    }

    #[test]
    fn accept_language_quality_values_decide() {
        let both = [Language::English, Language::Norwegian];
        assert_eq!(
            Language::negotiate(Some("nb-NO,en;q=0.5"), &both),
            Language::Norwegian
        );
        assert_eq!(
            Language::negotiate(Some("en;q=0.9,no;q=0.8"), &both),
            Language::English
        );
        assert_eq!(Language::negotiate(Some("de"), &both), Language::English);
        assert_eq!(
            Language::negotiate(Some("nb"), &[Language::English]),
            Language::English
        );
        assert_eq!(Language::negotiate(None, &both), Language::English);
    }
}
