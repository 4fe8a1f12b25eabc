//! The JSON body extractor and the one place JSON bodies are read strictly: media type, UTF-8, exactly
//! one JSON value, objects (never positional arrays) for named fields, no control or bidirectional
//! characters in text. A wrong or missing field is 400 FORMAT_ERROR with its JSON path
//! (`balances[0].balanceAmount.amount`) instead of axum's plain text.

use crate::api::error::ApiError;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use bytes::Bytes;
use serde::de::DeserializeOwned;

mod strict;

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
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(unreadable_body)?;
        parse(&bytes).map(JsonBody)
    }
}

/// 400 FORMAT_ERROR for a body the connection failed to deliver.
pub fn unreadable_body(error: impl std::fmt::Display) -> ApiError {
    ApiError::format(
        "(body)",
        format!("the request body could not be read: {error}"),
    )
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

/// Parses JSON bytes into `T`, naming the JSON path of the first problem. This is the one place that
/// decides what a JSON body may be: UTF-8; exactly one JSON value (nothing after it); objects where
/// the type has named fields (never a positional array); no control or bidirectional-control
/// characters in any text (see [`strict::forbidden`]). Each refusal is 400 FORMAT_ERROR.
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
    let value = parse_one_value(text)?;
    if let Some(found) = strict::find_forbidden_text(&value) {
        return Err(ApiError::format(
            &found.path,
            format!(
                "{} holds U+{:04X} ({}) at character {}: text may not hold control characters other than \
                 tab, line feed and carriage return, nor bidirectional embedding, override or isolate \
                 controls (U+202A to U+202E, U+2066 to U+2069), which make text show otherwise than it reads",
                found.path,
                u32::from(found.character),
                found.what,
                found.position
            ),
        ));
    }
    // The value is kept to look a missing field's name up in case (deserialising consumes a copy).
    serde_path_to_error::deserialize(strict::Strict(value.clone())).map_err(|error| {
        let parent = error.path().to_string();
        let twin_holder = object_at(&value, error.path());
        let inner = error.into_inner();
        // serde reports a missing field at its parent's path; name the field itself.
        let missing = inner
            .to_string()
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next().map(str::to_owned));
        // A field sent under a name that differs only in case (`StartDate`): say so, as the query
        // parameters do. Refused as unknown (a type that takes no other fields) or found missing, the
        // message names the field wanted and the one sent.
        let (missing, twin) = match (missing, unknown_twin(&inner.to_string())) {
            (None, Some((sent, wanted))) => (Some(wanted), Some(sent)),
            (missing, _) => {
                let twin = missing.as_deref().and_then(|field| {
                    twin_holder?
                        .keys()
                        .find(|sent| sent.as_str() != field && sent.eq_ignore_ascii_case(field))
                        .cloned()
                });
                (missing, twin)
            }
        };
        // An unknown field is reported at its own path; name the wanted one beside it instead.
        let parent = match (&twin, parent.rsplit_once('.')) {
            (Some(sent), Some((up, last))) if last == sent.as_str() => up.to_owned(),
            (Some(sent), None) if parent == *sent => ".".to_owned(),
            _ => parent,
        };
        let path = match (parent.as_str(), missing) {
            (".", Some(field)) => field,
            (parent, Some(field)) => format!("{parent}.{field}"),
            (".", None) => "(body)".to_owned(),
            (parent, None) => parent.to_owned(),
        };
        match twin {
            Some(sent) => ApiError::format(
                &path,
                format!(
                    "{path} is required but missing; '{sent}' was sent, which differs from it only in \
                     case (field names are case-sensitive)."
                ),
            ),
            None => ApiError::format(&path, format!("{path}: {inner}")),
        }
    })
}

/// From serde's "unknown field `Email`, expected `email`" (or "expected one of `a`, `email`"): the name
/// sent and the expected one it differs from only in case, if one does.
fn unknown_twin(message: &str) -> Option<(String, String)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (sent, expected) = rest.split_once('`')?;
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|wanted| *wanted != sent && wanted.eq_ignore_ascii_case(sent))
        .map(|wanted| (sent.to_owned(), wanted.to_owned()))
}

/// The JSON object at a deserialiser's path, if there is one there.
fn object_at<'v>(
    value: &'v serde_json::Value,
    path: &serde_path_to_error::Path,
) -> Option<&'v serde_json::Map<String, serde_json::Value>> {
    use serde_path_to_error::Segment;
    let mut here = value;
    for segment in path.iter() {
        here = match segment {
            Segment::Seq { index } => here.get(index)?,
            Segment::Map { key } => here.get(key)?,
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    here.as_object()
}

/// Reads exactly one JSON value: a syntax error, or anything but whitespace after the value
/// (`{...}{...}`, `{...}garbage`), is refused at `(body)` with the line and column.
fn parse_one_value(text: &str) -> Result<serde_json::Value, ApiError> {
    use serde::Deserialize;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde_json::Value::deserialize(&mut deserializer).map_err(|error| {
        ApiError::format("(body)", format!("the body is not valid JSON: {error}"))
    })?;
    deserializer.end().map_err(|error| {
        ApiError::format(
            "(body)",
            format!(
                "the body holds more after its JSON value, from line {} column {}: send exactly one \
                 JSON value",
                error.line(),
                error.column()
            ),
        )
    })?;
    Ok(value)
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
        assert_eq!(
            error.refusal.code,
            xs2a_core::domain::refusal::Code::FormatError
        );
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
    fn a_field_sent_in_another_case_is_named_with_the_missing_one() {
        let error = parse::<Outer>(br#"{"items":[{"Amount":"1"}]}"#).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("items[0].amount"));
        assert!(
            error
                .refusal
                .text
                .contains("'Amount' was sent, which differs from it only in case"),
            "{}",
            error.refusal.text
        );
    }

    #[test]
    fn a_field_refused_as_unknown_is_named_with_the_one_it_differs_from_only_in_case() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Contact {
            email: String,
        }
        let error = parse::<Contact>(br#"{"Email":"ops@tpp.no"}"#).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("email"));
        assert!(
            error
                .refusal
                .text
                .contains("'Email' was sent, which differs from it only in case"),
            "{}",
            error.refusal.text
        );
        // Another unknown name keeps serde's words.
        let error = parse::<Contact>(br#"{"mail":"ops@tpp.no"}"#).unwrap_err();
        assert!(
            error.refusal.text.contains("unknown field"),
            "{}",
            error.refusal.text
        );
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

    #[test]
    fn trailing_data_after_the_value_is_refused_with_its_position() {
        for body in [
            &br#"{"amount":"1"}{"amount":"2"}"#[..],
            br#"{"amount":"1"} garbage"#,
        ] {
            let error = parse::<Inner>(body).unwrap_err();
            assert_eq!(error.refusal.path.as_deref(), Some("(body)"));
            assert!(
                error.refusal.text.contains("line 1 column"),
                "{}",
                error.refusal.text
            );
        }
        assert!(parse::<Inner>(b" {\"amount\":\"1\"}\n\t ").is_ok());
    }

    #[test]
    fn a_syntax_error_names_the_body_with_line_and_column() {
        let error = parse::<Outer>(b"{\"items\": [{\"amount\": \"1\"},\n ]}").unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("(body)"));
        assert!(
            error.refusal.text.contains("line 2 column"),
            "{}",
            error.refusal.text
        );
    }

    #[test]
    fn a_positional_array_for_an_object_is_refused_at_its_path() {
        let error = parse::<Inner>(br#"["1"]"#).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("(body)"));
        let error = parse::<Outer>(br#"{"items":[{"amount":"1"},["2"]]}"#).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("items[1]"));
        assert!(
            error.refusal.text.contains("array"),
            "{}",
            error.refusal.text
        );
    }

    #[test]
    fn control_and_bidi_characters_in_text_are_refused_at_their_path() {
        let error =
            parse::<Outer>("{\"items\":[{\"amount\":\"1\\u202e0\"}]}".as_bytes()).unwrap_err();
        assert_eq!(error.refusal.path.as_deref(), Some("items[0].amount"));
        assert!(
            error.refusal.text.contains("U+202E"),
            "{}",
            error.refusal.text
        );
        let error = parse::<Inner>(br#"{"amount":"a\u0000"}"#).unwrap_err();
        assert!(
            error.refusal.text.contains("U+0000"),
            "{}",
            error.refusal.text
        );
    }
}
