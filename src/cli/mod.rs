//! The command line: argument definitions, one module per subcommand.

pub mod cert;
pub mod serve;
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
}

/// Parses a time given as RFC 3339 (`2026-11-22T10:00:00Z`) or RFC 7231 (`Sun, 22 Nov 2026 10:00:00 GMT`).
pub fn parse_time(text: &str) -> Result<time::OffsetDateTime, String> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .or_else(|_| crate::signing::http_date::parse(text))
        .map_err(|_| format!("'{text}' is neither an RFC 3339 nor an RFC 7231 time"))
}
