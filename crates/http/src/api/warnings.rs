//! Where WARNINGs go in an answer that succeeded: appended to the `tppMessages` of a JSON object body, or,
//! when the body is not a JSON object (a list, an empty 204), as `Sandbox-Warning` headers. The gate adds
//! its signature warnings this way, and handlers add theirs (mock data accepted despite a wrong check
//! digit, say) through [`with_warnings`].
//!
//! Merging keeps the body's keys in the order they were written: clients such as the platform's own
//! developer kit compare answers as text (`"customerNumber":…,"customerType":…`), so adding a warning
//! must not reorder them.

use axum::body::{to_bytes, Body};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use xs2a_core::domain::refusal::TppMessage;

/// Answers `value` as JSON with `status`, carrying `warnings` (see the module documentation).
pub fn with_warnings<T: Serialize>(
    status: StatusCode,
    value: &T,
    warnings: &[TppMessage],
) -> Response {
    let bytes = serde_json::to_vec(value).expect("answers serialise");
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let bytes = merge(bytes, warnings, &mut headers);
    (status, headers, bytes).into_response()
}

/// Adds `warnings` to an already built response.
pub async fn attach(response: Response, warnings: &[TppMessage]) -> Response {
    if warnings.is_empty() {
        return response;
    }
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let (mut parts, body) = response.into_parts();
    if !is_json {
        add_headers(&mut parts.headers, warnings);
        return Response::from_parts(parts, body);
    }
    let Ok(bytes) = to_bytes(body, usize::MAX).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let bytes = merge(bytes.to_vec(), warnings, &mut parts.headers);
    parts.headers.remove(CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

/// The body with the warnings in its `tppMessages`, or unchanged with the warnings added to `headers`.
fn merge(bytes: Vec<u8>, warnings: &[TppMessage], headers: &mut HeaderMap) -> Vec<u8> {
    if warnings.is_empty() {
        return bytes;
    }
    match merge_into_object(&bytes, warnings) {
        Some(merged) => merged,
        None => {
            add_headers(headers, warnings);
            bytes
        }
    }
}

/// A JSON object's members in the order written.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InOrder<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for InOrder<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Members<'a>, M::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'a RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(InOrder(std::marker::PhantomData))
    }
}

/// The object with `warnings` appended to its `tppMessages` (made when absent); `None` when the body is
/// not a JSON object.
fn merge_into_object(bytes: &[u8], warnings: &[TppMessage]) -> Option<Vec<u8>> {
    let Members(members) = serde_json::from_slice::<Members>(bytes).ok()?;
    let mut messages: Vec<serde_json::Value> = Vec::new();
    let at = members.iter().position(|(name, _)| name == "tppMessages");
    if let Some(at) = at {
        messages = serde_json::from_str(members[at].1.get()).ok()?;
    }
    messages.extend(
        warnings
            .iter()
            .map(|w| serde_json::to_value(w).expect("messages serialise")),
    );
    let list = serde_json::value::to_raw_value(&messages).expect("messages serialise");
    let mut out = Vec::with_capacity(bytes.len() + 256);
    out.push(b'{');
    let mut first = true;
    let mut write = |out: &mut Vec<u8>, name: &str, value: &str| {
        if !first {
            out.push(b',');
        }
        first = false;
        serde_json::to_writer(&mut *out, name).expect("names serialise");
        out.push(b':');
        out.extend_from_slice(value.as_bytes());
    };
    for (i, (name, value)) in members.iter().enumerate() {
        let value = if Some(i) == at {
            list.get()
        } else {
            value.get()
        };
        write(&mut out, name, value);
    }
    if at.is_none() {
        write(&mut out, "tppMessages", list.get());
    }
    out.push(b'}');
    Some(out)
}

/// One `Sandbox-Warning: CODE: text` header per warning (visible ASCII; other characters become '?').
fn add_headers(headers: &mut HeaderMap, warnings: &[TppMessage]) {
    for warning in warnings {
        let text = format!(
            "{}: {}",
            warning.code.as_str(),
            warning.text.as_deref().unwrap_or_default()
        );
        let ascii: String = text
            .chars()
            .map(|c| {
                if c.is_ascii() && !c.is_ascii_control() {
                    c
                } else {
                    '?'
                }
            })
            .collect();
        if let Ok(value) = HeaderValue::from_str(&ascii) {
            headers.append("sandbox-warning", value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_core::domain::refusal::Code;

    fn warning() -> TppMessage {
        TppMessage::warning(Code::FormatError, Some("bban"), "check digit")
    }

    #[test]
    fn warnings_join_an_object_without_reordering_its_keys() {
        let body = br#"{"zeta":1,"customerNumber":"1","alpha":{"b":2,"a":1}}"#.to_vec();
        let merged = merge(body, &[warning()], &mut HeaderMap::new());
        let text = String::from_utf8(merged).unwrap();
        assert!(
            text.starts_with(
                r#"{"zeta":1,"customerNumber":"1","alpha":{"b":2,"a":1},"tppMessages":[{"#
            ),
            "{text}"
        );
        assert!(text.contains(r#""category":"WARNING""#), "{text}");
    }

    #[test]
    fn warnings_extend_existing_tpp_messages_in_place() {
        let body = br#"{"a":1,"tppMessages":[{"category":"WARNING","code":"BAD_REQUEST"}],"b":2}"#;
        let merged = merge(body.to_vec(), &[warning()], &mut HeaderMap::new());
        let value: serde_json::Value = serde_json::from_slice(&merged).unwrap();
        assert_eq!(value["tppMessages"].as_array().unwrap().len(), 2);
        let text = String::from_utf8(merged).unwrap();
        assert!(text.ends_with(r#"],"b":2}"#), "{text}");
    }

    #[test]
    fn warnings_on_a_list_become_headers() {
        let mut headers = HeaderMap::new();
        let merged = merge(b"[1,2]".to_vec(), &[warning()], &mut headers);
        assert_eq!(merged, b"[1,2]");
        assert_eq!(headers["sandbox-warning"], "FORMAT_ERROR: check digit");
    }
}
