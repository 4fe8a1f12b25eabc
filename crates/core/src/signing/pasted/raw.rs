//! A raw HTTP/1.1 request as text: the request line, header lines, a blank line and the body, with CRLF
//! or LF line ends (as a proxy, `nc -l` or a client's debug log shows it).

use super::PastedRequest;
use http::{HeaderMap, HeaderName, HeaderValue};

/// Parses `METHOD target HTTP/1.1`, header lines, a blank line and the body. The body is kept byte for
/// byte; a Content-Length that does not match it is noted (a paste often gains or loses a line end).
pub fn parse(raw: &[u8]) -> Result<PastedRequest, String> {
    let (head, body) = split_head(raw);
    let head = std::str::from_utf8(head).map_err(|_| "the request head is not UTF-8")?;
    let mut lines = head.lines().map(|l| l.trim_end_matches('\r'));
    let request_line = lines
        .next()
        .filter(|l| !l.is_empty())
        .ok_or("the text has no request line")?;
    let mut parts = request_line.split_whitespace();
    let (method, target) = match (parts.next(), parts.next()) {
        (Some(m), Some(t)) if m.bytes().all(|b| b.is_ascii_uppercase()) => (m.to_owned(), t),
        _ => {
            return Err(format!(
                "'{request_line}' is not a request line like 'GET /v1/sandbox/customers HTTP/1.1' \
                 (nor a curl command)"
            ))
        }
    };
    let target = super::path_and_query(target)?;
    let mut headers = HeaderMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("header line '{line}' has no ':'"))?;
        headers.append(header_name(name)?, header_value(name, value)?);
    }
    let mut notes = Vec::new();
    if let Some(declared) = headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|declared| *declared != body.len())
    {
        notes.push(format!(
            "Content-Length says {declared} bytes, the body pasted is {} bytes: the gate checks the Digest \
             over the bytes it receives, so check whether the paste gained or lost line ends.",
            body.len()
        ));
    }
    Ok(PastedRequest {
        form: super::Form::Raw,
        method,
        target,
        headers,
        body: body.to_vec(),
        notes,
    })
}

/// A header name as written, or why it is not one.
pub fn header_name(name: &str) -> Result<HeaderName, String> {
    HeaderName::from_bytes(name.trim().as_bytes())
        .map_err(|_| format!("'{name}' is not a header name"))
}

/// A header value (its surrounding spaces dropped, as HTTP does), or why it cannot be sent.
pub fn header_value(name: &str, value: &str) -> Result<HeaderValue, String> {
    HeaderValue::from_str(value.trim()).map_err(|_| {
        format!(
            "the value of {} holds characters a header cannot carry",
            name.trim()
        )
    })
}

fn split_head(raw: &[u8]) -> (&[u8], &[u8]) {
    for separator in [&b"\r\n\r\n"[..], &b"\n\n"[..]] {
        if let Some(at) = raw.windows(separator.len()).position(|w| w == separator) {
            return (&raw[..at], &raw[at + separator.len()..]);
        }
    }
    (raw, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_requests_with_crlf_or_lf_parse() {
        let raw = b"POST /v1/x?a=1 HTTP/1.1\r\nDate: now\r\nX-Request-ID: 1\r\n\r\n{\"a\":1}";
        let parsed = parse(raw).unwrap();
        assert_eq!(
            (parsed.method.as_str(), parsed.target.as_str()),
            ("POST", "/v1/x?a=1")
        );
        assert_eq!(parsed.headers["x-request-id"], "1");
        assert_eq!(parsed.body, b"{\"a\":1}");
        assert!(parsed.notes.is_empty());
        let lf = parse(b"GET http://127.0.0.1:8080/v1/y HTTP/1.1\nDate: now\n").unwrap();
        assert_eq!(lf.target, "/v1/y");
        assert!(lf.body.is_empty());
    }

    #[test]
    fn a_content_length_other_than_the_bodys_is_noted() {
        let parsed = parse(b"POST /v1/x HTTP/1.1\nContent-Length: 10\n\n{\"a\":1}\n").unwrap();
        assert_eq!(parsed.body.len(), 8);
        assert!(
            parsed.notes[0].contains("Content-Length says 10 bytes, the body pasted is 8 bytes")
        );
    }

    #[test]
    fn text_that_is_no_request_says_what_a_request_line_looks_like() {
        assert!(parse(b"hello world")
            .unwrap_err()
            .contains("is not a request line"));
        assert!(parse(b"").unwrap_err().contains("no request line"));
        assert!(parse(b"GET /x HTTP/1.1\nno colon\n")
            .unwrap_err()
            .contains("has no ':'"));
    }
}
