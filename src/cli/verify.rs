//! `xs2a-sandbox verify`: reads a raw HTTP request from a file and runs the gate's checks on it, printing
//! each step's verdict and the signing string the sandbox computes. Exit code 0 when it would be accepted.

use crate::signing::signer::pem_to_der;
use crate::signing::trust::TrustStore;
use crate::signing::verifier::{RequestToVerify, Verdict, Verifier};
use base64::Engine;
use clap::Args;
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A raw HTTP/1.1 request: request line, headers, blank line, body.
    #[arg(long)]
    pub request: PathBuf,
    /// The TPP certificate (PEM) to check with; replaces the request's TPP-Signature-Certificate.
    #[arg(long)]
    pub cert: Option<PathBuf>,
    /// Trust this CA (PEM) besides the bundled test CA. Repeatable.
    #[arg(long = "trust-ca")]
    pub trust_ca: Vec<PathBuf>,
    /// Check as of this time (RFC 3339 or RFC 7231) instead of now.
    #[arg(long)]
    pub at: Option<String>,
}

pub fn run(args: VerifyArgs) -> Result<ExitCode, String> {
    let raw = std::fs::read(&args.request)
        .map_err(|e| format!("cannot read {}: {e}", args.request.display()))?;
    let parsed = parse_raw_request(&raw)?;
    let mut headers = parsed.headers;
    if let Some(path) = &args.cert {
        let pem = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let der = pem_to_der(&pem)?;
        let value = base64::engine::general_purpose::STANDARD.encode(der);
        headers.insert(
            "tpp-signature-certificate",
            HeaderValue::from_str(&value).expect("base64 is ASCII"),
        );
    }
    let mut trust = TrustStore::with_bundled_test_ca();
    for path in &args.trust_ca {
        let pem = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        trust.add_pem(&pem)?;
    }
    let at = match &args.at {
        Some(text) => super::parse_time(text)?,
        None => time::OffsetDateTime::now_utc(),
    };
    let report = Verifier::new(trust).report(
        &RequestToVerify {
            method: &parsed.method,
            path_and_query: &parsed.target,
            headers: &headers,
            body: &parsed.body,
        },
        at,
    );
    // Every step has a line: a failure does not hide the steps after it (a missing Date leaves the
    // certificate and signature checked; an untrusted certificate's key still checks keyId and signature).
    for (step, verdict) in &report.steps {
        match verdict {
            Verdict::Passed(note) => println!("ok    {:<17} {note}", step.name()),
            Verdict::Failed(reason) => println!("FAIL  {:<17} {reason}", step.name()),
            Verdict::NotChecked(reason) => println!("--    {:<17} {reason}", step.name()),
        }
    }
    if let Some(text) = &report.signing_string {
        println!("\nsigning string:\n{text}");
    }
    match report.outcome {
        Ok(verified) => {
            for warning in &verified.warnings() {
                println!("\nwarning: {}", warning.text.as_deref().unwrap_or_default());
            }
            println!("\naccepted");
            Ok(ExitCode::SUCCESS)
        }
        Err(refusal) => {
            for warning in refusal
                .more
                .iter()
                .filter(|m| m.category == crate::refusal::Category::Warning)
            {
                println!("\nwarning: {}", warning.text.as_deref().unwrap_or_default());
            }
            println!("\nrefused");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// A request read from a file.
pub struct RawRequest {
    pub method: String,
    pub target: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

/// Parses `METHOD target HTTP/1.1`, header lines, a blank line and the body (CRLF or LF line ends).
pub fn parse_raw_request(raw: &[u8]) -> Result<RawRequest, String> {
    let (head, body) = split_head(raw);
    let head = std::str::from_utf8(head).map_err(|_| "the request head is not UTF-8")?;
    let mut lines = head.lines().map(|l| l.trim_end_matches('\r'));
    let request_line = lines
        .next()
        .filter(|l| !l.is_empty())
        .ok_or("the file has no request line")?;
    let mut parts = request_line.split_whitespace();
    let (method, target) = match (parts.next(), parts.next()) {
        (Some(m), Some(t)) => (m.to_owned(), t.to_owned()),
        _ => {
            return Err(format!(
                "'{request_line}' is not a request line like 'GET /v1/sandbox/customers HTTP/1.1'"
            ))
        }
    };
    let target = if target.contains("://") {
        super::sign::path_and_query(&target)?
    } else {
        target
    };
    let mut headers = HeaderMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("header line '{line}' has no ':'"))?;
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| format!("'{name}' is not a header name"))?;
        let value = HeaderValue::from_str(value.trim())
            .map_err(|_| format!("the value of {name} is not valid"))?;
        headers.append(name, value);
    }
    Ok(RawRequest {
        method,
        target,
        headers,
        body: body.to_vec(),
    })
}

fn split_head(raw: &[u8]) -> (&[u8], &[u8]) {
    for (separator, len) in [(&b"\r\n\r\n"[..], 4), (&b"\n\n"[..], 2)] {
        if let Some(at) = raw.windows(len).position(|w| w == separator) {
            return (&raw[..at], &raw[at + len..]);
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
        let parsed = parse_raw_request(raw).unwrap();
        assert_eq!(
            (parsed.method.as_str(), parsed.target.as_str()),
            ("POST", "/v1/x?a=1")
        );
        assert_eq!(parsed.headers["x-request-id"], "1");
        assert_eq!(parsed.body, b"{\"a\":1}");
        let lf =
            parse_raw_request(b"GET http://127.0.0.1:8080/v1/y HTTP/1.1\nDate: now\n").unwrap();
        assert_eq!(lf.target, "/v1/y");
        assert!(lf.body.is_empty());
    }
}
