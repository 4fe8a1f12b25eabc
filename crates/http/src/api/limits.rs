//! The transport's limits: how large and how slow a request may be before the service cuts it off with a
//! clear answer, so that no client can hold memory or a connection for ever. Defaults are documented in
//! docs/reference/limits.md and settable on `serve`.

use crate::api::error::ApiError;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{CONNECTION, CONTENT_LENGTH};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use http_body_util::BodyExt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest request body (413 beyond it).
    pub max_body_bytes: usize,
    /// The largest single header value (431 beyond it).
    pub max_header_value_bytes: usize,
    /// The largest header section, all headers together (431 beyond it).
    pub max_header_bytes: usize,
    /// How long a client may take to send the request line and headers.
    pub header_read_timeout: Duration,
    /// How long a client may take to send the body it announced.
    pub body_read_timeout: Duration,
    /// How long an idle keep-alive connection stays open.
    pub idle_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 1024 * 1024,
            max_header_value_bytes: 8 * 1024,
            max_header_bytes: 64 * 1024,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(120),
        }
    }
}

/// The largest TPP-Redirect-URI accepted (400 FORMAT_ERROR beyond it). The bank keeps the URI with every
/// authorisation it starts and sends the PSU back to it, so it is kept to the length browsers and
/// servers reliably handle in a URL; a longer one is a mistake, not a redirect.
pub const MAX_REDIRECT_URI_BYTES: usize = 2048;

/// Room for the request line on top of `max_header_bytes` in the HTTP layer's own hard limit, beyond
/// which it answers a bare 431 (the JSON answer of [`enforce`] covers everything below it).
pub const REQUEST_LINE_ROOM: usize = 16 * 1024;

/// The service with these limits enforced on every request (the connection-level timeouts are the
/// server's, see `api::connection`).
pub fn apply(router: Router, limits: Limits) -> Router {
    router.layer(from_fn(move |request: Request, next: Next| {
        enforce(limits, request, next)
    }))
}

/// Refuses oversized headers, then reads the whole body within the size and time limits before the
/// request is routed, so that nothing behind it (the gate, a handler, a bank page's form) can be held
/// by a slow or endless body. A refusal (408, 413, 431, 400) still goes through the router's outer
/// layers, so that the traffic log records it like any other answer: the request travels on with no
/// body and the refusal in a [`TransportRefusal`], which [`take_refusal`] (just inside the capture)
/// answers with.
async fn enforce(limits: Limits, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    if let Err(error) = check_headers(&limits, &parts.headers) {
        return refused(parts, next, error.into_response()).await;
    }
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limits.max_body_bytes as u64) {
        let answer = closing(ApiError::payload_too_large(limits.max_body_bytes));
        return refused(parts, next, answer).await;
    }
    // The request's start, and what of its body arrives, are kept for a refusal: the traffic log records
    // a 408 from when the request began, for as long as it took, with the bytes that did come.
    let started = Instant::now();
    let mut arrived = Arrived::default();
    let read = tokio::time::timeout(
        limits.body_read_timeout,
        arrived.read(body, limits.max_body_bytes),
    )
    .await;
    let answer = match read {
        Err(_) => closing(ApiError::body_timeout(
            limits.body_read_timeout,
            arrived.len,
            declared,
            &preview(&arrived.joined()),
        )),
        Ok(Err(Unread::TooLarge)) => closing(ApiError::payload_too_large(limits.max_body_bytes)),
        Ok(Err(Unread::Failed(error))) => closing(ApiError::format(
            "(body)",
            format!("the request body could not be read: {error}"),
        )),
        Ok(Ok(())) => {
            return next
                .run(Request::from_parts(parts, Body::from(arrived.joined())))
                .await
        }
    };
    let kept = arrived.joined();
    let kept = kept.slice(..kept.len().min(KEPT_OF_A_REFUSED_BODY));
    refused_after(parts, next, answer, started, kept).await
}

/// How much of a refused body the traffic log keeps (the answer says how much arrived in all).
const KEPT_OF_A_REFUSED_BODY: usize = 4096;

/// Why a body was not read whole.
enum Unread {
    TooLarge,
    Failed(axum::Error),
}

/// The body's bytes as they arrive, kept when reading stops half way (a timeout drops the read, not
/// these).
#[derive(Default)]
struct Arrived {
    parts: Vec<Bytes>,
    len: usize,
}

impl Arrived {
    async fn read(&mut self, body: Body, limit: usize) -> Result<(), Unread> {
        let mut body = body;
        while let Some(frame) = body.frame().await {
            let Ok(data) = frame.map_err(Unread::Failed)?.into_data() else {
                continue; // trailers
            };
            if self.len + data.len() > limit {
                return Err(Unread::TooLarge);
            }
            self.len += data.len();
            self.parts.push(data);
        }
        Ok(())
    }

    /// The bytes in one piece (without a copy when they came in one frame, as most bodies do).
    fn joined(&self) -> Bytes {
        match self.parts.as_slice() {
            [] => Bytes::new(),
            [one] => one.clone(),
            many => many.concat().into(),
        }
    }
}

/// A short look at some bytes for a message: as text when they are printable UTF-8, in hex otherwise;
/// at most 64 bytes.
pub fn preview(bytes: &[u8]) -> String {
    const SHOWN: usize = 64;
    let shown = &bytes[..bytes.len().min(SHOWN)];
    let more = if bytes.len() > SHOWN { " …" } else { "" };
    // A character cut at the 64th byte is left out rather than making the whole look binary.
    let text = match std::str::from_utf8(shown) {
        Ok(text) => Some(text),
        Err(cut) if cut.error_len().is_none() => {
            std::str::from_utf8(&shown[..cut.valid_up_to()]).ok()
        }
        Err(_) => None,
    }
    .filter(|t| {
        !t.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    });
    match text {
        Some(text) => {
            let shown = text
                .replace('\n', "\\n")
                .replace('\r', "\\r")
                .replace('\t', "\\t");
            format!("'{shown}'{more}")
        }
        None => {
            let hex: Vec<String> = shown.iter().map(|b| format!("{b:02x}")).collect();
            format!("hex {}{more}", hex.join(" "))
        }
    }
}

/// The transport's refusal of a request, carried to [`take_refusal`] through the capture, with when
/// the request began and the body bytes that arrived (for the traffic log).
#[derive(Clone)]
pub struct TransportRefusal(Arc<Refused>);

pub struct Refused {
    answer: Mutex<Option<Response>>,
    /// When the request reached the limits (before its body was read).
    pub started: Instant,
    /// The body's bytes that arrived, at most [`KEPT_OF_A_REFUSED_BODY`].
    pub arrived: Bytes,
}

impl TransportRefusal {
    pub fn refused(&self) -> &Refused {
        &self.0
    }
}

/// Sends the request on without its body (its headers as sent: the inspector shows the Content-Length that
/// announced more than arrived), to be answered with `answer` once the capture has seen it.
async fn refused(parts: axum::http::request::Parts, next: Next, answer: Response) -> Response {
    refused_after(parts, next, answer, Instant::now(), Bytes::new()).await
}

async fn refused_after(
    mut parts: axum::http::request::Parts,
    next: Next,
    answer: Response,
    started: Instant,
    arrived: Bytes,
) -> Response {
    parts.extensions.insert(TransportRefusal(Arc::new(Refused {
        answer: Mutex::new(Some(answer)),
        started,
        arrived,
    })));
    next.run(Request::from_parts(parts, Body::empty())).await
}

/// The answer to a request the transport refused, taken once: such a request is answered with that
/// refusal just inside the capture (`api::framing`) and goes no further (not to the gate, not to a handler).
pub fn take_refusal(request: &Request) -> Option<Response> {
    let refusal = request.extensions().get::<TransportRefusal>()?;
    refusal
        .0
        .answer
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
}

/// The answer, with the connection closed after it: the rest of the body is not read.
fn closing(error: ApiError) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// TPP-Redirect-URI within its own maximum (400), each header value and the whole header section within
/// theirs (431).
fn check_headers(limits: &Limits, headers: &HeaderMap) -> Result<(), ApiError> {
    for uri in headers.get_all("tpp-redirect-uri") {
        if uri.len() > MAX_REDIRECT_URI_BYTES {
            return Err(ApiError::format(
                "TPP-Redirect-URI",
                format!(
                    "TPP-Redirect-URI is {} bytes long; at most {MAX_REDIRECT_URI_BYTES} are accepted.",
                    uri.len()
                ),
            ));
        }
    }
    let mut total = 0;
    for (name, value) in headers {
        if value.len() > limits.max_header_value_bytes {
            return Err(ApiError::header_fields_too_large(
                Some(name.as_str()),
                format!(
                    "The header {name} is {} bytes long; at most {} are accepted per header value.",
                    value.len(),
                    limits.max_header_value_bytes
                ),
            ));
        }
        // As on the wire: "name: value" and CRLF.
        total += name.as_str().len() + value.len() + 4;
    }
    if total > limits.max_header_bytes {
        return Err(ApiError::header_fields_too_large(
            None,
            format!(
                "The request's headers are {total} bytes together; at most {} are accepted.",
                limits.max_header_bytes
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::preview;

    #[test]
    fn a_preview_is_text_when_it_reads_as_text_and_hex_otherwise() {
        assert_eq!(preview(b"{\"email\":\n"), "'{\"email\":\\n'");
        assert_eq!(preview(&[0x30, 0x82, 0x00, 0xff]), "hex 30 82 00 ff");
        let long = "ø".repeat(40);
        assert!(
            preview(long.as_bytes()).ends_with("' …"),
            "{}",
            preview(long.as_bytes())
        );
    }
}
