//! The JSON answer: every JSON response body is serialised here, into one contiguous buffer.
//!
//! Why not `axum::Json`: it writes through a `BytesMut` writer, so each piece serde_json emits (every
//! key, every escaped run of a string) is a call into the `bytes` crate's `put_slice`, which the
//! README's build (no LTO: docs/performance.md, "The signed path") cannot inline across crates. A
//! `Vec<u8>` writer's `write_all` is inlined into the serialiser here, and the buffer starts at a size
//! that most answers fill with at most two doublings.

use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Serialize;

/// A JSON answer of `T` with `Content-Type: application/json` (the same header and body `axum::Json`
/// gives, byte for byte).
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

/// The buffer's first size: the sandbox's common answers (a list of customers, an account's details, a
/// consent) are 0.5–4 KB, so they grow it at most twice instead of five times from axum's 128 bytes.
const FIRST_CAPACITY: usize = 1024;

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(FIRST_CAPACITY);
        let written = serde_json::to_writer(&mut body, &self.0);
        respond(body, written)
    }
}

/// The response around the serialised bytes: once, not in every `Json<T>`'s copy of the code.
fn respond(body: Vec<u8>, written: serde_json::Result<()>) -> Response {
    match written {
        Ok(()) => (
            [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            Bytes::from(body),
        )
            .into_response(),
        // As axum::Json answers it: only a value whose Serialize fails (a map with non-string keys),
        // which no answer type of the sandbox has.
        Err(error) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            error.to_string(),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;
    use http_body_util::BodyExt;
    use std::collections::BTreeMap;

    async fn parts(response: Response) -> (StatusCode, HeaderMap, Bytes) {
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, headers, body)
    }

    #[tokio::test]
    async fn an_answer_is_the_same_response_axum_json_gives_byte_for_byte() {
        // Larger than the first capacity and with text that needs escaping, so the buffer grows and the
        // escaper writes in pieces.
        let value: Vec<BTreeMap<&str, String>> = (0..40)
            .map(|i| {
                BTreeMap::from([
                    ("name", format!("Kari \"Nordmann\" {i}\n\u{e6}\u{f8}\u{e5}")),
                    ("id", format!("{i:08}")),
                ])
            })
            .collect();
        let ours = parts(Json(&value).into_response()).await;
        let axums = parts(axum::Json(&value).into_response()).await;
        assert!(ours.2.len() > FIRST_CAPACITY);
        assert_eq!(ours, axums);
    }

    #[tokio::test]
    async fn a_value_that_cannot_be_json_is_a_500_in_plain_text_as_axum_answers_it() {
        let value = BTreeMap::from([((1, 2), "a key JSON cannot hold")]);
        let ours = parts(Json(&value).into_response()).await;
        let axums = parts(axum::Json(&value).into_response()).await;
        assert_eq!(ours.0, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(ours, axums);
    }
}
