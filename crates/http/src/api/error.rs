//! The HTTP face of a refusal: its status (the code-to-status table is the core's, `Code::status`, also
//! in docs/reference/errors.md), the `{"tppMessages": [...]}` body, and the few refusals only HTTP has
//! (no such path, body too large, media type).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use xs2a_core::domain::refusal::{Code, Refusal, TppMessage};

/// The HTTP status each code maps to: the table of [`Code::status`] (docs/reference/errors.md).
pub fn status_of(code: Code) -> StatusCode {
    StatusCode::from_u16(code.status()).expect("the table holds valid statuses")
}

/// A refused request as HTTP sees it: the status, the refusal, and links to send along.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub refusal: Refusal,
    /// Links to send along: a 401 that asks for SCA carries `scaRedirect`.
    pub links: Option<crate::api::links::Links>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        let status =
            StatusCode::from_u16(refusal.status()).expect("the table holds valid statuses");
        ApiError {
            status,
            refusal,
            links: None,
        }
    }
}

impl ApiError {
    /// An error whose status follows from its code.
    pub fn new(code: Code, path: Option<&str>, text: impl Into<String>) -> Self {
        Refusal::new(code, path, text).into()
    }

    /// 400 FORMAT_ERROR at a JSON path, header or parameter.
    pub fn format(path: &str, text: impl Into<String>) -> Self {
        Refusal::format(path, text).into()
    }

    /// 400 HTTP_HEADER_REQUIRED for a missing header.
    pub fn header_required(header: &str) -> Self {
        Refusal::header_required(header).into()
    }

    /// 400 QUERY_PARAMETER_REQUIRED for a missing query parameter.
    pub fn query_parameter_required(name: &str) -> Self {
        Refusal::query_parameter_required(name).into()
    }

    /// 404 RESOURCE_UNKNOWN for an id that names nothing this caller may see.
    pub fn unknown(path: &str, what: &str, id: &str) -> Self {
        Refusal::unknown(path, what, id).into()
    }

    /// 409 CONFLICT for a duplicate.
    pub fn conflict(path: &str, text: impl Into<String>) -> Self {
        Refusal::conflict(path, text).into()
    }

    /// 403 FORBIDDEN, e.g. a certificate without the PSD2 role an endpoint needs.
    pub fn forbidden(text: impl Into<String>) -> Self {
        Refusal::forbidden(text).into()
    }

    /// 500 SYSTEM_ERROR without internals; the cause is logged, never sent.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        Refusal::internal(cause).into()
    }

    /// 404 NOT_FOUND for a path the service does not have; the path is named as it was sent.
    pub fn no_such_path(method: &str, path: &str) -> Self {
        let elsewhere = ["/v1", "/api-sandbox/", "/sca/"]
            .iter()
            .any(|prefix| path.starts_with(prefix));
        let hint = if !elsewhere && path != "/" {
            format!(" The bank's interface is under /v1: did you mean /v1{path}?")
        } else {
            String::new()
        };
        Self::new(
            Code::NotFound,
            None,
            format!("There is no endpoint {method} {path} in this sandbox.{hint}"),
        )
    }

    /// 413 for a body over the limit. The code stays BAD_REQUEST: the interface has no code of its own for it (docs/reference/errors.md).
    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            Code::BadRequest,
            None,
            format!("The request body is larger than the {limit} bytes this service accepts."),
        )
        .with_status(StatusCode::PAYLOAD_TOO_LARGE)
    }

    /// 431 for a header value (FORMAT_ERROR at the header) or a header section (BAD_REQUEST) over the
    /// limit: RFC 6585's status, the one the HTTP layer itself answers beyond its hard limit.
    pub fn header_fields_too_large(header: Option<&str>, text: impl Into<String>) -> Self {
        let code = if header.is_some() {
            Code::FormatError
        } else {
            Code::BadRequest
        };
        Self::new(code, header, text).with_status(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
    }

    /// 408 for a body not sent within the body read timeout (the connection is then closed): how much of
    /// it arrived, of how much announced, and a look at the start of what arrived (`preview`).
    pub fn body_timeout(
        limit: std::time::Duration,
        arrived: usize,
        announced: Option<u64>,
        preview: &str,
    ) -> Self {
        let of = announced
            .map(|length| format!(" of the {length} Content-Length announced"))
            .unwrap_or_default();
        let start = if arrived > 0 {
            format!(", starting {preview}")
        } else {
            String::new()
        };
        Self::new(
            Code::BadRequest,
            Some("(body)"),
            format!(
                "The request body did not arrive within {} s: {arrived} bytes{of} arrived{start}. Send \
                 the bytes Content-Length announces.",
                limit.as_secs_f64()
            ),
        )
        .with_status(StatusCode::REQUEST_TIMEOUT)
    }

    /// 415 for a body that is not JSON (docs/interface.md#where-it-answers: XML is not supported).
    pub fn unsupported_media_type(content_type: &str) -> Self {
        Self::new(
            Code::FormatError,
            Some("Content-Type"),
            format!(
                "Content-Type '{content_type}' is not supported: requests and responses are JSON \
                 (application/json) encoded as UTF-8; XML is not supported."
            ),
        )
        .with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE)
    }

    /// Overrides the status (used where the interface names a status the code table does not give).
    pub fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    /// Adds `_links` to the error body (e.g. `scaRedirect`).
    pub fn with_links(mut self, links: crate::api::links::Links) -> Self {
        self.links = Some(links);
        self
    }

    /// Adds messages (typically warnings collected earlier) to send along.
    pub fn with_messages(mut self, messages: impl IntoIterator<Item = TppMessage>) -> Self {
        self.refusal.more.extend(messages);
        self
    }

    /// The code of the refusal.
    pub fn code(&self) -> Code {
        self.refusal.code
    }

    /// The `tppMessages` entries of this error, the error first.
    pub fn messages(&self) -> Vec<TppMessage> {
        self.refusal.messages()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.refusal.code.as_str(),
            self.refusal.text
        )
    }
}

impl std::error::Error for ApiError {}

/// The error body: `{"tppMessages": [...]}`.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    pub tpp_messages: Vec<TppMessage>,
    #[serde(rename = "_links", skip_serializing_if = "Option::is_none", default)]
    pub links: Option<serde_json::Value>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            tpp_messages: self.messages(),
            links: self
                .links
                .as_ref()
                .map(|l| serde_json::to_value(l).expect("links serialise")),
        };
        (self.status, crate::api::answer::Json(body)).into_response()
    }
}

impl From<xs2a_core::store::StoreError> for ApiError {
    fn from(error: xs2a_core::store::StoreError) -> Self {
        ApiError::internal(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_follows_the_code() {
        assert_eq!(
            ApiError::unknown("id", "account", "1").status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(ApiError::conflict("id", "dup").status, StatusCode::CONFLICT);
        assert_eq!(
            ApiError::header_required("Date").status,
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            ApiError::payload_too_large(10).status,
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }
}
