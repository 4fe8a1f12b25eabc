//! The JSON body extractor: checks the media type and UTF-8, and reports a wrong or missing field as
//! 400 FORMAT_ERROR with its JSON path (`balances[0].balanceAmount.amount`) instead of axum's plain text.

use crate::api::error::ApiError;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use bytes::Bytes;
use serde::de::DeserializeOwned;

/// A JSON request body of type `T`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        check_media_type(
            request
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok()),
        )?;
        let bytes = Bytes::from_request(request, state).await.map_err(|e| {
            ApiError::format("(body)", format!("the request body could not be read: {e}"))
        })?;
        parse(&bytes).map(JsonBody)
    }
}

/// Refuses a declared media type that is not JSON. A missing Content-Type is read as JSON.
pub fn check_media_type(content_type: Option<&str>) -> Result<(), ApiError> {
    let Some(content_type) = content_type else {
        return Ok(());
    };
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let is_json = essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"));
    if is_json {
        Ok(())
    } else {
        Err(ApiError::unsupported_media_type(content_type))
    }
}

/// Parses JSON bytes into `T`, naming the JSON path of the first problem.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ApiError::format(
            "(body)",
            format!(
                "the body is not valid UTF-8 (byte {}); requests are JSON in UTF-8",
                e.valid_up_to()
            ),
        )
    })?;
    if text.trim().is_empty() {
        return Err(ApiError::format(
            "(body)",
            "the request needs a JSON body, and it is empty",
        ));
    }
    let deserializer = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let parent = error.path().to_string();
        let inner = error.into_inner();
        // serde reports a missing field at its parent's path; name the field itself.
        let missing = inner
            .to_string()
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next().map(str::to_owned));
        let path = match (parent.as_str(), missing) {
            (".", Some(field)) => field,
            (parent, Some(field)) => format!("{parent}.{field}"),
            (".", None) => "(body)".to_owned(),
            (parent, None) => parent.to_owned(),
        };
        let text = if inner.is_syntax() || inner.is_eof() {
            format!("the body is not valid JSON: {inner}")
        } else {
            format!("{path}: {inner}")
        };
        ApiError::format(&path, text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Inner>,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        amount: String,
    }

    #[test]
    fn a_wrong_type_names_its_json_path() {
        let error = parse::<Outer>(br#"{"items":[{"amount":"1"},{"amount":2}]}"#).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("items[1].amount"));
        assert_eq!(error.refusal.code, crate::api::error::Code::FormatError);
    }

    #[test]
    fn a_missing_field_is_named_at_its_own_path() {
        let error = parse::<Outer>(br#"{"items":[{}]}"#).unwrap_err();
        assert_eq!(
            error.refusal.path.as_deref(),
            Some("items[0].amount"),
            "{}",
            error.refusal.text
        );
        let error = parse::<Outer>(br#"{}"#).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("items"));
    }

    #[test]
    fn malformed_json_and_xml_media_types_are_refused() {
        assert!(parse::<Outer>(b"{")
            .unwrap_err()
            .refusal
            .text
            .contains("not valid JSON"));
        let xml = check_media_type(Some("application/xml")).unwrap_err();
        assert_eq!(xml.status, axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(check_media_type(Some("application/json; charset=utf-8")).is_ok());
        assert!(check_media_type(None).is_ok());
    }
}
