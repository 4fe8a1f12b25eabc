//! The one error type of the service and its single mapping to an HTTP status and a `tppMessages` body.
//!
//! Every refusal carries the SPEC.md code, the JSON path or header at fault, and plain text that says what
//! to change. SPEC.md leaves the code-to-status mapping open; [`Code::status`] is the table (also in the
//! README), following Berlin Group 1.3 where SPEC.md is silent and SPEC.md where it speaks (signatures: 400).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

/// The message codes SPEC.md names (Errors > Message structure, plus REFERENCE_MIX_INVALID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    SystemError,
    BadRequest,
    Forbidden,
    NotFound,
    Conflict,
    HttpHeaderRequired,
    QueryParameterRequired,
    ScaNotFound,
    ScaExpired,
    ScaInvalid,
    FormatError,
    ResourceUnknown,
    PsuCredentialsInvalid,
    ConsentUnknown,
    ConsentInvalid,
    ConsentExpired,
    AccessExceeded,
    ProductUnknown,
    ProductInvalid,
    KidMissing,
    KidInvalid,
    PaymentFailed,
    ExecutionDateInvalid,
    ReferenceMixInvalid,
}

impl Code {
    /// The HTTP status each code maps to. This is the table documented in the README.
    pub fn status(self) -> StatusCode {
        use Code::*;
        match self {
            BadRequest
            | FormatError
            | HttpHeaderRequired
            | QueryParameterRequired
            | KidMissing
            | KidInvalid
            | ReferenceMixInvalid
            | ExecutionDateInvalid
            | PaymentFailed => StatusCode::BAD_REQUEST,
            PsuCredentialsInvalid | ScaInvalid | ScaExpired | ConsentInvalid | ConsentExpired => {
                StatusCode::UNAUTHORIZED
            }
            Forbidden | ConsentUnknown | ProductInvalid => StatusCode::FORBIDDEN,
            NotFound | ResourceUnknown | ProductUnknown | ScaNotFound => StatusCode::NOT_FOUND,
            Conflict => StatusCode::CONFLICT,
            AccessExceeded => StatusCode::TOO_MANY_REQUESTS,
            SystemError => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The code as it appears on the wire, e.g. `FORMAT_ERROR`.
    pub fn as_str(self) -> &'static str {
        use Code::*;
        match self {
            SystemError => "SYSTEM_ERROR",
            BadRequest => "BAD_REQUEST",
            Forbidden => "FORBIDDEN",
            NotFound => "NOT_FOUND",
            Conflict => "CONFLICT",
            HttpHeaderRequired => "HTTP_HEADER_REQUIRED",
            QueryParameterRequired => "QUERY_PARAMETER_REQUIRED",
            ScaNotFound => "SCA_NOT_FOUND",
            ScaExpired => "SCA_EXPIRED",
            ScaInvalid => "SCA_INVALID",
            FormatError => "FORMAT_ERROR",
            ResourceUnknown => "RESOURCE_UNKNOWN",
            PsuCredentialsInvalid => "PSU_CREDENTIALS_INVALID",
            ConsentUnknown => "CONSENT_UNKNOWN",
            ConsentInvalid => "CONSENT_INVALID",
            ConsentExpired => "CONSENT_EXPIRED",
            AccessExceeded => "ACCESS_EXCEEDED",
            ProductUnknown => "PRODUCT_UNKNOWN",
            ProductInvalid => "PRODUCT_INVALID",
            KidMissing => "KID_MISSING",
            KidInvalid => "KID_INVALID",
            PaymentFailed => "PAYMENT_FAILED",
            ExecutionDateInvalid => "EXECUTION_DATE_INVALID",
            ReferenceMixInvalid => "REFERENCE_MIX_INVALID",
        }
    }
}

/// ERROR refuses the request; WARNING accompanies a request that was accepted anyway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Category {
    Error,
    Warning,
}

/// SPEC.md caps `tppMessages[].text` at 512 characters.
pub const MAX_TEXT_CHARS: usize = 512;

/// One entry of `tppMessages`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TppMessage {
    pub category: Category,
    pub code: Code,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl TppMessage {
    /// A warning about something production might refuse, or about a deprecated form.
    pub fn warning(code: Code, path: Option<&str>, text: impl Into<String>) -> Self {
        TppMessage {
            category: Category::Warning,
            code,
            path: path.map(str::to_owned),
            text: Some(truncate_text(text.into())),
        }
    }
}

/// Cuts text to the 512-character limit on a character boundary, marking the cut.
pub fn truncate_text(text: String) -> String {
    if text.chars().count() <= MAX_TEXT_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_TEXT_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// A refused request: the status, the code and what to tell the TPP developer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    /// The JSON path (`creditorAccount.bban`), header (`Signature`) or query parameter at fault.
    pub path: Option<String>,
    pub text: String,
    /// Extra messages to send along (e.g. warnings gathered before the refusal, or further errors).
    pub more: Vec<TppMessage>,
    /// Links to send along: a 401 that asks for SCA carries `scaRedirect`.
    pub links: Option<crate::api::links::Links>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// An error whose status follows from its code.
    pub fn new(code: Code, path: Option<&str>, text: impl Into<String>) -> Self {
        ApiError {
            status: code.status(),
            code,
            path: path.map(str::to_owned),
            text: text.into(),
            more: Vec::new(),
            links: None,
        }
    }

    /// 400 FORMAT_ERROR at a JSON path, header or parameter.
    pub fn format(path: &str, text: impl Into<String>) -> Self {
        Self::new(Code::FormatError, Some(path), text)
    }

    /// 400 HTTP_HEADER_REQUIRED for a missing header.
    pub fn header_required(header: &str) -> Self {
        Self::new(
            Code::HttpHeaderRequired,
            Some(header),
            format!("The header {header} is required on this request."),
        )
    }

    /// 400 QUERY_PARAMETER_REQUIRED for a missing query parameter.
    pub fn query_parameter_required(name: &str) -> Self {
        Self::new(
            Code::QueryParameterRequired,
            Some(name),
            format!("The query parameter {name} is required on this request."),
        )
    }

    /// 404 RESOURCE_UNKNOWN for an id that names nothing this caller may see.
    pub fn unknown(path: &str, what: &str, id: &str) -> Self {
        Self::new(
            Code::ResourceUnknown,
            Some(path),
            format!("No {what} with id '{id}' exists in this sandbox."),
        )
    }

    /// 409 CONFLICT for a duplicate.
    pub fn conflict(path: &str, text: impl Into<String>) -> Self {
        Self::new(Code::Conflict, Some(path), text)
    }

    /// 403 FORBIDDEN, e.g. a certificate without the PSD2 role an endpoint needs.
    pub fn forbidden(text: impl Into<String>) -> Self {
        Self::new(Code::Forbidden, None, text)
    }

    /// 404 NOT_FOUND for a path the service does not have.
    pub fn no_such_path(method: &str, path: &str) -> Self {
        Self::new(
            Code::NotFound,
            None,
            format!(
                "There is no endpoint {method} {path}. See the README for the list of endpoints."
            ),
        )
    }

    /// 413 for a body over the limit. The code stays BAD_REQUEST: SPEC.md has no code of its own for it.
    pub fn payload_too_large(limit: usize) -> Self {
        let mut error = Self::new(
            Code::BadRequest,
            None,
            format!("The request body is larger than the {limit} bytes this service accepts."),
        );
        error.status = StatusCode::PAYLOAD_TOO_LARGE;
        error
    }

    /// 415 for a body that is not JSON (SPEC.md: XML is not supported).
    pub fn unsupported_media_type(content_type: &str) -> Self {
        let mut error = Self::new(
            Code::FormatError,
            Some("Content-Type"),
            format!(
                "Content-Type '{content_type}' is not supported: requests and responses are JSON \
                 (application/json) encoded as UTF-8; XML is not supported."
            ),
        );
        error.status = StatusCode::UNSUPPORTED_MEDIA_TYPE;
        error
    }

    /// 500 SYSTEM_ERROR without internals; the cause is logged, never sent.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            Code::SystemError,
            None,
            "The sandbox hit an internal error. It has been logged; the request was not carried out.",
        )
    }

    /// Overrides the status (used where SPEC.md names a status the code table does not give).
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
        self.more.extend(messages);
        self
    }

    /// The `tppMessages` entries of this error, the error first.
    pub fn messages(&self) -> Vec<TppMessage> {
        let mut messages = vec![TppMessage {
            category: Category::Error,
            code: self.code,
            path: self.path.clone(),
            text: Some(truncate_text(self.text.clone())),
        }];
        messages.extend(self.more.iter().cloned());
        messages
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code.as_str(),
            self.text
        )
    }
}

impl std::error::Error for ApiError {}

/// The error body: `{"tppMessages": [...]}`.
#[derive(Debug, Serialize, Deserialize)]
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
        (self.status, axum::Json(body)).into_response()
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> Self {
        ApiError::internal(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_as_spec_names() {
        assert_eq!(
            serde_json::to_value(Code::ReferenceMixInvalid).unwrap(),
            "REFERENCE_MIX_INVALID"
        );
        assert_eq!(
            serde_json::to_value(Code::FormatError).unwrap(),
            Code::FormatError.as_str()
        );
    }

    #[test]
    fn text_is_capped_at_512_characters() {
        let error = ApiError::format("x", "é".repeat(600));
        let text = error.messages()[0].text.clone().unwrap();
        assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
    }

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
