//! `xs2a-sandbox sign`: prints the headers a TPP adds to sign a request, one `Name: value` per line, so
//! that `curl -H @headers.txt` (or any client) can call the sandbox.

use crate::signing::signer::{DigestAlgorithm, SignOptions, SigningCredentials};
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct SignArgs {
    /// Directory with cert.pem and key.pem (as written by `cert issue`).
    #[arg(long, value_name = "DIR")]
    pub cert_dir: PathBuf,
    /// HTTP method.
    #[arg(long, short = 'X', default_value = "GET")]
    pub method: String,
    /// The full URL (only its path and query are signed).
    #[arg(long)]
    pub url: String,
    /// Extra headers the request will carry ('Name: value'); PSU-ID, TPP-Redirect-URI ... get signed. Repeatable.
    #[arg(long = "header", short = 'H')]
    pub headers: Vec<String>,
    /// The request body, exactly as it will be sent.
    #[arg(long, short = 'd', conflicts_with = "data_file")]
    pub data: Option<String>,
    /// Read the body from a file.
    #[arg(long)]
    pub data_file: Option<PathBuf>,
    /// Sign as of this time (RFC 3339 or RFC 7231) instead of now, e.g. the sandbox's simulated clock.
    #[arg(long)]
    pub at: Option<String>,
    /// Use SHA-512 for Digest.
    #[arg(long)]
    pub sha512: bool,
    /// Leave (request-target) out of the signed headers.
    #[arg(long)]
    pub no_request_target: bool,
    /// Wrap the Signature header per RFC 2047 (=?utf-8?B?...?=).
    #[arg(long)]
    pub rfc2047: bool,
    /// Also print the signing string (to stderr).
    #[arg(long)]
    pub show_signing_string: bool,
}

pub fn run(args: SignArgs) -> Result<ExitCode, String> {
    let credentials = SigningCredentials::from_dir(&args.cert_dir)?;
    let body = match (&args.data, &args.data_file) {
        (Some(text), _) => text.clone().into_bytes(),
        (None, Some(path)) => {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
        }
        (None, None) => Vec::new(),
    };
    let path_and_query = path_and_query(&args.url)?;
    let mut headers = HeaderMap::new();
    for line in &args.headers {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("header '{line}' must be 'Name: value'"))?;
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| format!("'{}' is not a header name", name.trim()))?;
        let value = HeaderValue::from_str(value.trim())
            .map_err(|_| format!("the value of {name} is not a valid header value"))?;
        headers.append(name, value);
    }
    let now = match &args.at {
        Some(text) => super::parse_time(text)?,
        None => time::OffsetDateTime::now_utc(),
    };
    let options = SignOptions {
        request_target: !args.no_request_target,
        rfc2047: args.rfc2047,
        digest: if args.sha512 {
            DigestAlgorithm::Sha512
        } else {
            DigestAlgorithm::Sha256
        },
        ..SignOptions::default()
    };
    let given: Vec<HeaderName> = headers.keys().cloned().collect();
    credentials.sign(
        &args.method.to_ascii_uppercase(),
        &path_and_query,
        &mut headers,
        &body,
        now,
        &options,
    );
    if args.show_signing_string {
        let report_names: Vec<String> = crate::signing::signature_header::parse(
            headers["signature"].to_str().unwrap_or_default(),
        )
        .map(|p| p.headers)
        .unwrap_or_default();
        if let Ok(text) = crate::signing::signing_string::build(
            &report_names,
            &args.method,
            &path_and_query,
            &headers,
        ) {
            eprintln!("signing string:\n{text}\n");
        }
    }
    for (name, value) in &headers {
        if given.contains(name) {
            continue; // the caller sends its own headers; print only what signing adds
        }
        println!(
            "{}: {}",
            display_name(name.as_str()),
            value.to_str().unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The path and query of a URL, as the request target is signed.
pub fn path_and_query(url: &str) -> Result<String, String> {
    let uri: axum::http::Uri = url.parse().map_err(|_| format!("'{url}' is not a URL"))?;
    Ok(uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "/".into()))
}

fn display_name(lower: &str) -> &str {
    match lower {
        "date" => "Date",
        "digest" => "Digest",
        "x-request-id" => "X-Request-ID",
        "tpp-signature-certificate" => "TPP-Signature-Certificate",
        "signature" => "Signature",
        other => other,
    }
}
