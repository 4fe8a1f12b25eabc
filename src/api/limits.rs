//! The transport's limits: how large and how slow a request may be before the service cuts it off with a
//! clear answer, so that no client can hold memory or a connection for ever. Defaults are documented in
//! the README and settable on `serve`.

use std::time::Duration;

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
