//! The core's one refusal type: what the sandbox says when it will not do something, without any notion
//! of transport. Every refusal carries the interface's code (docs/reference/errors.md), the JSON path, header or parameter at fault, and
//! plain text that says what to change, and the status it is answered with (the code-to-status table,
//! also in docs/reference/errors.md, as plain numbers); `api::error` turns it into an HTTP response with a
//! `tppMessages` body.

use serde::{Deserialize, Serialize};

/// The message codes of the interface (docs/reference/errors.md's table, plus REFERENCE_MIX_INVALID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
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
    /// Berlin Group 1.3, not among the bank's own codes: the central register's answers (docs/rehearsal.md).
    CertificateRevoked,
    CertificateBlocked,
    RoleInvalid,
}

impl Code {
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
            CertificateRevoked => "CERTIFICATE_REVOKED",
            CertificateBlocked => "CERTIFICATE_BLOCKED",
            RoleInvalid => "ROLE_INVALID",
        }
    }

    /// The status a refusal with this code is answered with, as a number: the table documented in
    /// docs/reference/errors.md. The bank leaves the code-to-status mapping open; this follows Berlin Group
    /// 1.3 where the bank is silent and the bank where it speaks (signatures: 400, docs/interface.md#signing-every-request). It lives with the codes
    /// so that the core's tests assert a refusal's status without the HTTP layer; `api::error` answers
    /// with it.
    pub fn status(self) -> u16 {
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
            | PaymentFailed
            // Berlin Group: an authorisation that can no longer take the step asked (finished, failed).
            | ScaInvalid => 400,
            PsuCredentialsInvalid
            | ScaExpired
            | ConsentInvalid
            | ConsentExpired
            | CertificateRevoked
            | CertificateBlocked
            | RoleInvalid => 401,
            Forbidden | ConsentUnknown | ProductInvalid => 403,
            NotFound | ResourceUnknown | ProductUnknown | ScaNotFound => 404,
            Conflict => 409,
            AccessExceeded => 429,
            SystemError => 500,
        }
    }
}

/// ERROR refuses the request; WARNING accompanies a request that was accepted anyway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Category {
    Error,
    Warning,
}

/// `tppMessages[].text` is capped at 512 characters (docs/interface.md#limits).
pub const MAX_TEXT_CHARS: usize = 512;

/// One entry of `tppMessages`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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

/// A refusal: the code and what to tell the TPP developer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    /// The JSON path (`creditorAccount.bban`), header (`Signature`) or query parameter at fault.
    pub path: Option<String>,
    pub text: String,
    /// Extra messages to send along (e.g. warnings gathered before the refusal, or further errors).
    pub more: Vec<TppMessage>,
    /// What kind of refusal this is, where the code alone does not say it.
    pub context: Option<RefusalContext>,
}

/// What kind of refusal a code stands for where it has more than one use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalContext {
    /// The request itself is malformed, even though the code usually speaks of permissions (an instant
    /// product sent through the periodic service is PRODUCT_INVALID, but a bad request, not a forbidden one).
    MalformedRequest,
}

/// The result of a core operation that may be refused.
pub type CoreResult<T> = Result<T, Refusal>;

impl Refusal {
    /// A refusal with `code`, at `path`.
    pub fn new(code: Code, path: Option<&str>, text: impl Into<String>) -> Self {
        Refusal {
            code,
            path: path.map(str::to_owned),
            text: text.into(),
            more: Vec::new(),
            context: None,
        }
    }

    /// The status this refusal is answered with: its code's ([`Code::status`]), but 400 for a malformed
    /// request whose code usually speaks of permissions ([`RefusalContext::MalformedRequest`]).
    pub fn status(&self) -> u16 {
        match self.context {
            Some(RefusalContext::MalformedRequest) => 400,
            None => self.code.status(),
        }
    }

    /// Marks the kind of refusal (see [`RefusalContext`]).
    pub fn in_context(mut self, context: RefusalContext) -> Self {
        self.context = Some(context);
        self
    }

    /// FORMAT_ERROR at a JSON path, header or parameter.
    pub fn format(path: &str, text: impl Into<String>) -> Self {
        Self::new(Code::FormatError, Some(path), text)
    }

    /// HTTP_HEADER_REQUIRED for a missing header.
    pub fn header_required(header: &str) -> Self {
        Self::new(
            Code::HttpHeaderRequired,
            Some(header),
            format!("The header {header} is required on this request."),
        )
    }

    /// QUERY_PARAMETER_REQUIRED for a missing query parameter.
    pub fn query_parameter_required(name: &str) -> Self {
        Self::new(
            Code::QueryParameterRequired,
            Some(name),
            format!("The query parameter {name} is required on this request."),
        )
    }

    /// RESOURCE_UNKNOWN for an id that names nothing this caller may see.
    pub fn unknown(path: &str, what: &str, id: &str) -> Self {
        Self::new(
            Code::ResourceUnknown,
            Some(path),
            format!("No {what} with id '{id}' exists in this sandbox."),
        )
    }

    /// CONFLICT for a duplicate.
    pub fn conflict(path: &str, text: impl Into<String>) -> Self {
        Self::new(Code::Conflict, Some(path), text)
    }

    /// FORBIDDEN, e.g. a certificate without the PSD2 role an operation needs.
    pub fn forbidden(text: impl Into<String>) -> Self {
        Self::new(Code::Forbidden, None, text)
    }

    /// SYSTEM_ERROR without internals; the cause is logged, never sent.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            Code::SystemError,
            None,
            "The sandbox hit an internal error. It has been logged; the request was not carried out.",
        )
    }

    /// Adds messages (typically warnings collected earlier) to send along.
    pub fn with_messages(mut self, messages: impl IntoIterator<Item = TppMessage>) -> Self {
        self.more.extend(messages);
        self
    }

    /// The `tppMessages` entries of this refusal, the refusal first.
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

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.text)
    }
}

impl std::error::Error for Refusal {}

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
        let error = Refusal::format("x", "é".repeat(600));
        let text = error.messages()[0].text.clone().unwrap();
        assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
    }
}
