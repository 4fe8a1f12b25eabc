//! What the fault plan's layers read of a request: the path as the TPP sent it, its PSU-ID, and header
//! text made safe to echo (shared by the bank interface's and the SCA pages' layers).

use axum::extract::{OriginalUri, Request};

/// The path as the TPP sent it (before nesting stripped `/v1`).
pub(super) fn sent_path(request: &Request) -> String {
    request
        .extensions()
        .get::<OriginalUri>()
        .map(|o| o.0.path().to_owned())
        .unwrap_or_else(|| request.uri().path().to_owned())
}

/// The request's PSU-ID header.
pub(super) fn psu_id(request: &Request) -> Option<String> {
    request
        .headers()
        .get("psu-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// `text` with every character a header value cannot hold replaced by `?`.
pub(super) fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii() && !c.is_ascii_control() {
                c
            } else {
                '?'
            }
        })
        .collect()
}
