//! `xs2a-sandbox sign`: prints every header of a signed request — those given with `-H` and those signing
//! adds — one `Name: value` per line, so that `curl -H @headers.txt URL` alone (or any client) can call
//! the sandbox. Printing into a pipe that closes early (`sign ... | head -1`) ends quietly.

use clap::Args;
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xs2a_core::signing::signer::{DigestAlgorithm, SignOptions, SigningCredentials};

/// What to do when no usable --cert-dir is given.
const CERT_DIR_HINT: &str = "make one with `xs2a-sandbox cert issue --roles PSP_AI,PSP_PI --name \"Acme TPP\" \
     --out acme` and pass --cert-dir acme, or use a bundled test TPP from the repository's fixtures/certs \
     (e.g. --cert-dir fixtures/certs/aisp-pisp)";

#[derive(Debug, Args)]
pub struct SignArgs {
    /// Directory with cert.pem and key.pem (as written by `cert issue`; bundled ones in fixtures/certs).
    #[arg(long, value_name = "DIR")]
    pub cert_dir: Option<PathBuf>,
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

/// The signing credentials of `--cert-dir`, or an error that says how to get some.
fn credentials(cert_dir: Option<&Path>) -> Result<SigningCredentials, String> {
    let dir = cert_dir.ok_or_else(|| {
        format!("sign needs --cert-dir DIR, a directory holding a TPP certificate (cert.pem) and its key (key.pem): {CERT_DIR_HINT}")
    })?;
    if !dir.join("cert.pem").is_file() || !dir.join("key.pem").is_file() {
        return Err(format!(
            "{} holds no cert.pem and key.pem: {CERT_DIR_HINT}",
            dir.display()
        ));
    }
    SigningCredentials::from_dir(dir)
}

pub fn run(args: SignArgs) -> Result<ExitCode, String> {
    let credentials = credentials(args.cert_dir.as_deref())?;
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
    credentials.sign(
        &args.method.to_ascii_uppercase(),
        &path_and_query,
        &mut headers,
        &body,
        now,
        &options,
    );
    if args.show_signing_string {
        let report_names: Vec<String> = xs2a_core::signing::signature_header::parse(
            headers["signature"].to_str().unwrap_or_default(),
        )
        .map(|p| p.headers)
        .unwrap_or_default();
        if let Ok(text) = xs2a_core::signing::signing_string::build(
            &report_names,
            &args.method,
            &path_and_query,
            &headers,
        ) {
            eprintln!("signing string:\n{text}\n");
        }
    }
    let mut out = std::io::stdout().lock();
    for (name, value) in &headers {
        let line = format!(
            "{}: {}",
            display_name(name.as_str()),
            value.to_str().unwrap_or_default()
        );
        match writeln!(out, "{line}") {
            Ok(()) => {}
            // The reader has gone (`| head -1`): nothing more to say to it.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
            Err(e) => return Err(format!("cannot write the headers: {e}")),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The path and query of a URL, as the request target is signed.
pub fn path_and_query(url: &str) -> Result<String, String> {
    let uri: hyper::Uri = url.parse().map_err(|_| format!("'{url}' is not a URL"))?;
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
        "content-type" => "Content-Type",
        "psu-id" => "PSU-ID",
        "psu-corporate-id" => "PSU-Corporate-ID",
        "psu-ip-address" => "PSU-IP-Address",
        "tpp-session-id" => "TPP-Session-ID",
        "tpp-redirect-uri" => "TPP-Redirect-URI",
        other => other,
    }
}
