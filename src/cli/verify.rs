//! `xs2a-sandbox verify`: reads what a TPP's app sent — a raw HTTP request or a curl command — from a file
//! and runs the gate's checks on it (`signing::pasted::check`, which the workbench's paste calls too),
//! printing each step's verdict and the signing string the sandbox computes. Exit code 0 when it would be
//! accepted.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use xs2a_core::domain::clock::Clock;
use xs2a_core::signing::pasted::{self, At, Overrides};
use xs2a_core::signing::trust::TrustStore;
use xs2a_core::signing::verifier::{Verdict, Verifier};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A raw HTTP/1.1 request (request line, headers, blank line, body) or a curl command.
    #[arg(long)]
    pub request: PathBuf,
    /// The TPP certificate (PEM) to check with; replaces the request's TPP-Signature-Certificate.
    #[arg(long)]
    pub cert: Option<PathBuf>,
    /// Trust this CA (PEM) besides the bundled test CA. Repeatable.
    #[arg(long = "trust-ca")]
    pub trust_ca: Vec<PathBuf>,
    /// Check as of this time (RFC 3339 or RFC 7231), or `date` for the request's own Date header, instead
    /// of now.
    #[arg(long)]
    pub at: Option<String>,
}

pub fn run(args: VerifyArgs) -> Result<ExitCode, String> {
    let raw = std::fs::read(&args.request)
        .map_err(|e| format!("cannot read {}: {e}", args.request.display()))?;
    let certificate_pem = match &args.cert {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut trust = TrustStore::with_bundled_test_ca();
    for path in &args.trust_ca {
        let pem = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        trust.add_pem(&pem)?;
    }
    let clock = Clock::real();
    let at = match &args.at {
        Some(text) => At::parse(text)?,
        None => At::Clock(&clock),
    };
    let checked = pasted::check(
        &Verifier::new(trust),
        &raw,
        &Overrides { certificate_pem },
        at,
    )?;
    for note in &checked.request.notes {
        println!("note: {note}\n");
    }
    let report = checked.report;
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
                .filter(|m| m.category == xs2a_core::domain::refusal::Category::Warning)
            {
                println!("\nwarning: {}", warning.text.as_deref().unwrap_or_default());
            }
            println!("\nrefused");
            Ok(ExitCode::FAILURE)
        }
    }
}
