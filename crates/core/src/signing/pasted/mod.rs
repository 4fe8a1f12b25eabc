//! What a TPP's app sent, pasted as text — a curl command or a raw HTTP request — and the gate's verdict
//! on it, step by step. One function, [`check`], serves `xs2a-sandbox verify` on the command line and the
//! workbench's paste (`POST /workbench/api/verify`), so both say the same.

pub mod curl;
pub mod raw;
mod shell_words;

use crate::domain::clock::Clock;
use crate::signing::verifier::{Report, RequestToVerify, Verifier};
use http::HeaderMap;
use time::OffsetDateTime;

/// How the request was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Curl,
    Raw,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::Curl => "curl",
            Form::Raw => "raw",
        }
    }
}

/// The request the text describes, as it goes over the wire.
#[derive(Debug, Clone)]
pub struct PastedRequest {
    pub form: Form,
    pub method: String,
    /// Path and query, as signed in `(request-target)`.
    pub target: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    /// What reading the text found worth saying (curl's defaults, a Content-Length that does not match).
    pub notes: Vec<String>,
}

/// The time the Date header is checked against.
pub enum At<'c> {
    /// As the gate would now: the sandbox clock (or the machine's, once the sandbox clock was moved).
    Clock(&'c Clock),
    /// The request's own Date header: the other steps of a request captured a while ago.
    SignedDate,
    Time(OffsetDateTime),
}

impl At<'_> {
    /// `date` (the request's Date), else an RFC 3339 or RFC 7231 time.
    pub fn parse(text: &str) -> Result<At<'static>, String> {
        if text.eq_ignore_ascii_case("date") {
            return Ok(At::SignedDate);
        }
        OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
            .or_else(|_| crate::signing::http_date::parse(text))
            .map(At::Time)
            .map_err(|_| format!("'{text}' is neither 'date' nor an RFC 3339 or RFC 7231 time"))
    }
}

/// A request checked: what was read, the time it was checked at, and the gate's report.
pub struct Checked {
    pub request: PastedRequest,
    pub at: OffsetDateTime,
    pub report: Report,
}

/// What to change before checking.
#[derive(Default)]
pub struct Overrides {
    /// A certificate (PEM) to check with instead of the request's TPP-Signature-Certificate.
    pub certificate_pem: Option<String>,
}

/// Reads `text` (a curl command or a raw HTTP request) and runs every step of the gate on it.
pub fn check(
    verifier: &Verifier,
    text: &[u8],
    overrides: &Overrides,
    at: At,
) -> Result<Checked, String> {
    let mut request = parse(text)?;
    if let Some(pem) = &overrides.certificate_pem {
        use base64::Engine;
        let der = crate::signing::signer::pem_to_der(pem)?;
        let value = base64::engine::general_purpose::STANDARD.encode(der);
        request.headers.insert(
            "tpp-signature-certificate",
            http::HeaderValue::from_str(&value).expect("base64 is ASCII"),
        );
    }
    let verify = RequestToVerify {
        method: &request.method,
        path_and_query: &request.target,
        headers: &request.headers,
        body: &request.body,
    };
    let (report, at) = match at {
        At::Clock(clock) => (verifier.verify_explained(&verify, clock, true), clock.now()),
        At::Time(at) => (verifier.report(&verify, at), at),
        At::SignedDate => {
            let date = request
                .headers
                .get("date")
                .and_then(|v| v.to_str().ok())
                .ok_or("the request has no Date header to check it as of")?;
            let at = crate::signing::http_date::parse(date)?;
            (verifier.report(&verify, at), at)
        }
    };
    Ok(Checked {
        request,
        at,
        report,
    })
}

/// A curl command or a raw HTTP request, whichever the text is.
pub fn parse(text: &[u8]) -> Result<PastedRequest, String> {
    match std::str::from_utf8(text) {
        Ok(command) if curl::is_curl(command) => curl::parse(command),
        _ => raw::parse(trim_leading_blank_lines(text)),
    }
}

/// A paste often starts with an empty line; a request never does.
fn trim_leading_blank_lines(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|b| !matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
        .unwrap_or(text.len());
    &text[start..]
}

/// The path and query of a request target: an absolute URL (`http://host/v1/x?y`), a URL without its
/// scheme (curl's `host/v1/x`), or a path.
pub fn path_and_query(target: &str) -> Result<String, String> {
    if target.starts_with('/') {
        return Ok(target.to_owned());
    }
    let absolute = if target.contains("://") {
        target.to_owned()
    } else {
        format!("http://{target}")
    };
    let uri: http::Uri = absolute
        .parse()
        .map_err(|_| format!("'{target}' is not a URL"))?;
    Ok(uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "/".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn either_form_is_recognised() {
        assert_eq!(parse(b"curl http://h/v1/x").unwrap().form, Form::Curl);
        assert_eq!(
            parse(b"\n\nGET /v1/x HTTP/1.1\nDate: d\n").unwrap().form,
            Form::Raw
        );
    }

    #[test]
    fn targets_become_path_and_query() {
        assert_eq!(
            path_and_query("http://127.0.0.1:8080/v1/x?a=1").unwrap(),
            "/v1/x?a=1"
        );
        assert_eq!(path_and_query("127.0.0.1:8080/v1/x").unwrap(), "/v1/x");
        assert_eq!(path_and_query("http://h").unwrap(), "/");
        assert_eq!(path_and_query("/v1/x").unwrap(), "/v1/x");
    }

    #[test]
    fn times_are_read_as_the_cli_takes_them() {
        assert!(matches!(At::parse("date"), Ok(At::SignedDate)));
        assert!(matches!(At::parse("2026-06-01T12:00:00Z"), Ok(At::Time(_))));
        assert!(matches!(
            At::parse("Mon, 01 Jun 2026 12:00:00 GMT"),
            Ok(At::Time(_))
        ));
        assert!(At::parse("soon").is_err());
    }
}
