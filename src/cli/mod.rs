//! The command line: argument definitions, one module per subcommand.

pub mod cert;
pub mod conformance;
pub mod export;
pub mod har;
pub mod health;
pub mod import;
pub mod openapi;
pub mod own_sandbox;
pub mod replay;
pub mod serve;
pub mod serve_access;
pub mod sign;
pub mod verify;

use clap::{Parser, Subcommand};

/// A local, faithful sandbox of a Norwegian bank's PSD2 (XS2A) interface.
#[derive(Debug, Parser)]
#[command(name = "xs2a-sandbox", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the sandbox service (headless).
    Serve(serve::ServeArgs),
    /// Issue test certificates from the bundled test CA.
    Cert(cert::CertArgs),
    /// Print the headers that sign a request, for curl and other clients.
    Sign(sign::SignArgs),
    /// Check a raw HTTP request file the way the sandbox's gate does, step by step.
    Verify(verify::VerifyArgs),
    /// Write the state of a data directory as a state file (docs/fixtures.md).
    Export(export::ExportArgs),
    /// Load a state file into a data directory: replace the state, or merge into it (with --preview first).
    Import(import::ImportArgs),
    /// Play a recorded flow (or a HAR file) against a running sandbox, or one of its own started from a
    /// state file, and report every difference.
    Replay(replay::ReplayArgs),
    /// Write a flow as a HAR 1.2 file.
    Har(har::HarArgs),
    /// Write a flow as a shell script that signs and sends each request with curl.
    Curl(har::CurlArgs),
    /// Grade a TPP app's traffic against the bank's rules: JSON, JUnit and HTML reports.
    Conformance(conformance::ConformanceArgs),
    /// Write the OpenAPI 3.1 document of the whole service (also served at /openapi.json).
    Openapi(openapi::OpenApiArgs),
    /// Ask a running sandbox's /health: exit 0 when it is up (the container image's health check).
    Health(health::HealthArgs),
}

/// Parses a time given as RFC 3339 (`2026-11-22T10:00:00Z`) or RFC 7231 (`Sun, 22 Nov 2026 10:00:00 GMT`).
pub fn parse_time(text: &str) -> Result<time::OffsetDateTime, String> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .or_else(|_| xs2a_core::signing::http_date::parse(text))
        .map_err(|_| format!("'{text}' is neither an RFC 3339 nor an RFC 7231 time"))
}
