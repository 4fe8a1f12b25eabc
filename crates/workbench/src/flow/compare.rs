//! Comparing a recorded answer with a live one: the status, and the JSON body with what changes from run
//! to run redacted — dates and times, UUIDs (ids made afresh) and signatures — so that what is left is
//! the sandbox's behaviour. Each difference is reported at its JSON pointer.

use crate::state_file::error::token;
use serde_json::Value;
use std::fmt;

/// One difference between the recorded answer and the live one.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Where in the body (`""`: the status or the whole body).
    pub pointer: String,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "expected {}, got {}", self.expected, self.actual)
        } else {
            write!(
                f,
                "{}: expected {}, got {}",
                self.pointer, self.expected, self.actual
            )
        }
    }
}

/// Keys whose values are signatures or otherwise differ from run to run by nature. `offsetSeconds` (the clock reading's distance from
/// the machine's time) moves with real time even when the sandbox clock is frozen, like a date does.
const VOLATILE_KEYS: &[&str] = &[
    "signature",
    "digest",
    "x-request-id",
    "requestId",
    "offsetSeconds",
];

fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

/// `YYYY-MM-DD` at the start (dates and RFC 3339 times).
fn starts_with_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(|c| is_digit(*c))
        && b[4] == b'-'
        && is_digit(b[5])
        && is_digit(b[6])
        && b[7] == b'-'
        && is_digit(b[8])
        && is_digit(b[9])
}

fn is_uuid_at(b: &[u8], i: usize) -> bool {
    if i + 36 > b.len() {
        return false;
    }
    (0..36).all(|k| {
        let c = b[i + k];
        if matches!(k, 8 | 13 | 18 | 23) {
            c == b'-'
        } else {
            c.is_ascii_hexdigit()
        }
    })
}

/// `text` with every UUID replaced by `<id>`.
pub fn redact_uuids(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if is_uuid_at(b, i) {
            out.push_str(&text[last..i]);
            out.push_str("<id>");
            i += 36;
            last = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// `text` with the scheme and authority of every http(s) URL replaced by `<origin>`: links name the
/// address the sandbox was reached at, which differs from run to run.
pub fn redact_origins(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("http") {
        let after = &rest[at..];
        let scheme = ["https://", "http://"]
            .iter()
            .find(|s| after.starts_with(**s));
        let Some(scheme) = scheme else {
            out.push_str(&rest[..at + 4]);
            rest = &rest[at + 4..];
            continue;
        };
        out.push_str(&rest[..at]);
        let authority = &after[scheme.len()..];
        let end = authority
            .find(|c: char| c == '/' || c == '"' || c == '?' || c.is_whitespace())
            .unwrap_or(authority.len());
        out.push_str("<origin>");
        rest = &authority[end..];
    }
    out.push_str(rest);
    out
}

/// A body with its volatile values replaced by placeholders.
pub fn redact(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let redacted = if VOLATILE_KEYS.iter().any(|x| x.eq_ignore_ascii_case(k)) {
                        Value::String("<redacted>".into())
                    } else {
                        redact(v)
                    };
                    (k.clone(), redacted)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::String(s) if starts_with_date(s) => Value::String("<date>".into()),
        Value::String(s) => Value::String(redact_uuids(&redact_origins(s))),
        other => other.clone(),
    }
}

/// Longer values are cut (at a word boundary, with an ellipsis): well above the longest `tppMessages` text
/// (512 characters), so a refusal's text, with its hint, is always shown whole.
pub const SHOWN_CHARS: usize = 1000;

/// `text` cut to at most `max` characters at a word boundary, with an ellipsis when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    let at = head
        .rfind(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.'))
        .filter(|at| *at > max / 2)
        .unwrap_or(head.len());
    format!("{} …", head[..at].trim_end())
}

fn show(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".into(),
        Some(v) => cut(&v.to_string(), SHOWN_CHARS),
    }
}

fn diff(
    pointer: &str,
    expected: Option<&Value>,
    actual: Option<&Value>,
    out: &mut Vec<Difference>,
) {
    match (expected, actual) {
        (Some(Value::Object(e)), Some(Value::Object(a))) => {
            let mut keys: Vec<&String> = e.keys().chain(a.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                diff(&format!("{pointer}/{}", token(k)), e.get(k), a.get(k), out);
            }
        }
        (Some(Value::Array(e)), Some(Value::Array(a))) => {
            for i in 0..e.len().max(a.len()) {
                diff(&format!("{pointer}/{i}"), e.get(i), a.get(i), out);
            }
        }
        (e, a) if e == a => {}
        (e, a) => out.push(Difference {
            pointer: pointer.to_owned(),
            expected: show(e),
            actual: show(a),
        }),
    }
}

/// The differences between a recorded answer (ids already carried over) and a live one.
pub fn compare(
    expected_status: u16,
    expected_body: Option<&str>,
    actual_status: u16,
    actual_body: &str,
) -> Vec<Difference> {
    let mut out = Vec::new();
    if expected_status != actual_status {
        out.push(Difference {
            pointer: String::new(),
            expected: format!("status {expected_status}"),
            actual: format!("status {actual_status}"),
        });
    }
    let expected_body = expected_body.unwrap_or("");
    let parse = |s: &str| serde_json::from_str::<Value>(s).ok();
    match (parse(expected_body), parse(actual_body)) {
        (Some(e), Some(a)) => diff("", Some(&redact(&e)), Some(&redact(&a)), &mut out),
        // Pages and other text: the status decides (HTML carries per-run tokens).
        (None, None) => {}
        (e, a) => out.push(Difference {
            pointer: String::new(),
            expected: if e.is_some() {
                "a JSON body".into()
            } else {
                "no JSON body".into()
            },
            actual: if a.is_some() {
                "a JSON body".into()
            } else {
                "no JSON body".into()
            },
        }),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_ids_and_signatures_are_redacted() {
        let diffs = compare(
            201,
            Some(
                r#"{"paymentId":"0a3d9a9e-5e2b-4c1f-9a71-2c9e4f3b1d20","created":"2026-06-01T10:00:00Z","status":"RCVD"}"#,
            ),
            201,
            r#"{"paymentId":"5b1e0c7d-1111-4c1f-9a71-2c9e4f3b1d21","created":"2026-11-24T01:00:00Z","status":"RCVD"}"#,
        );
        assert!(diffs.is_empty(), "{diffs:?}");
    }

    #[test]
    fn origins_are_redacted_in_links() {
        assert_eq!(
            redact_origins(
                r#"{"href":"http://127.0.0.1:3917/sca/x","tpp":"https://tpp.example?a"}"#
            ),
            r#"{"href":"<origin>/sca/x","tpp":"<origin>?a"}"#
        );
    }

    #[test]
    fn a_changed_value_and_status_are_reported_at_their_place() {
        let diffs = compare(
            201,
            Some(r#"{"a":{"b":"RCVD"}}"#),
            400,
            r#"{"a":{"b":"RJCT"},"c":1}"#,
        );
        let text: Vec<String> = diffs.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "expected status 201, got status 400",
                "/a/b: expected \"RCVD\", got \"RJCT\"",
                "/c: expected (absent), got 1"
            ]
        );
    }

    #[test]
    fn long_values_are_cut_at_a_word_and_a_refusal_text_is_kept_whole() {
        let text = "This payment is a logical duplicate of payment 3f2 (same debtor, creditor, amount, remittance \
                    and execution date within 24 hours). Send allowLogicalDuplicate=true to create it anyway.";
        let diffs = compare(
            201,
            Some(r#"{"transactionStatus":"RCVD"}"#),
            409,
            &serde_json::json!({"tppMessages": [{"text": text}]}).to_string(),
        );
        let shown = diffs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            shown.contains("allowLogicalDuplicate=true to create it anyway."),
            "{shown}"
        );
        let long = "word ".repeat(400);
        let cut_text = cut(&long, 100);
        assert!(cut_text.ends_with("word …"), "{cut_text}");
        assert!(cut_text.chars().count() <= 102);
    }
}
