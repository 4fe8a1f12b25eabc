//! `xs2a-sandbox replay FLOW --url URL --cert-dir DIR [--junit FILE]`: plays a recorded flow (or a HAR
//! file) against a running sandbox (or, with `--fixture STATE`, one of its own) and reports every
//! difference from the recording, one line per step and the differences under it, each at its JSON
//! pointer; when the certificate is not the one that recorded the flow, the report and every failure say
//! so first. Exit code 0 when all steps match, 1 when any differs, 2 when the flow cannot be read.

use super::own_sandbox::OwnSandbox;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use xs2a_core::signing::signer::SigningCredentials;
use xs2a_workbench::flow::junit::{self, CaseResult};
use xs2a_workbench::flow::recorded_by::{self, Recorder};
use xs2a_workbench::flow::FlowFile;
use xs2a_workbench::outbound::replay_run::{Runner, StepOutcome};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The flow file (docs/fixtures.md), or a HAR 1.2 file.
    pub flow: PathBuf,
    /// The sandbox's base URL (plain http).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// Instead of --url: start a sandbox of the replay's own from this state file (docs/fixtures.md), in a
    /// temporary data directory on a free port, replay on it and stop it.
    #[arg(long, value_name = "STATE", conflicts_with = "url")]
    pub fixture: Option<PathBuf>,
    /// The TPP certificate and key to sign with (cert.pem, key.pem), e.g. fixtures/certs/aisp-pisp.
    #[arg(long, value_name = "DIR")]
    pub cert_dir: PathBuf,
    /// Also write a JUnit XML report (one test case per step) to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// Reads a flow file, or a HAR file as a flow.
pub fn read_flow(path: &std::path::Path) -> Result<FlowFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let looks_like_har = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .is_some_and(|v| v.get("log").is_some());
    if looks_like_har {
        return xs2a_workbench::flow::har::read(&bytes)
            .map_err(|e| format!("{} is not a usable HAR file: {e}", path.display()));
    }
    FlowFile::parse(&bytes).map_err(|e| format!("{} is not a flow file: {e}", path.display()))
}

/// The text report of a replay; `note` (the certificate differs from the recording's) heads it.
pub fn describe(outcomes: &[StepOutcome], note: Option<&str>) -> String {
    let mut text = String::new();
    if let Some(note) = note {
        text.push_str(&format!("note: {note}\n"));
    }
    for (i, o) in outcomes.iter().enumerate() {
        let verdict = if o.passed() { "ok  " } else { "FAIL" };
        text.push_str(&format!(
            "{verdict} {:02} {} ({} ms)\n",
            i + 1,
            o.label,
            o.elapsed.as_millis()
        ));
        if let Some(error) = &o.error {
            text.push_str(&format!("       could not play it: {error}\n"));
        }
        for d in &o.differences {
            text.push_str(&format!("       - {d}\n"));
        }
    }
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    text.push_str(&format!(
        "{}, {} passed, {failed} failed\n",
        xs2a_core::domain::error::count(outcomes.len(), "step"),
        outcomes.len() - failed
    ));
    text
}

/// The JUnit cases; a failure's message starts with `note` when there is one, as the likely cause.
fn cases(outcomes: &[StepOutcome], note: Option<&str>) -> Vec<CaseResult> {
    outcomes
        .iter()
        .map(|o| CaseResult {
            name: o.case.clone(),
            seconds: o.elapsed.as_secs_f64(),
            failure: (!o.passed()).then(|| {
                let mut message = match &o.error {
                    Some(e) => format!("could not play the step: {e}"),
                    None => junit::failure_message(&o.differences),
                };
                if let Some(note) = note {
                    message = format!("{note}. {message}");
                }
                let details = o
                    .differences
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n");
                (message, details)
            }),
        })
        .collect()
}

/// The test suite's name: the flow file's stem, less a `.flow` (`basket.flow.json` is `basket`).
pub fn suite_name(flow: &std::path::Path) -> String {
    let stem = flow
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match stem.strip_suffix(".flow") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ if stem.is_empty() => "flow".to_owned(),
        _ => stem,
    }
}

/// What the replay says about the certificate it signs with, when it is not the recording's.
fn certificate_note(flow: &FlowFile, credentials: &SigningCredentials) -> Option<String> {
    let replaying = Recorder::of(&credentials.certificate().ok()?);
    recorded_by::mismatch(&flow.recorded_by, &replaying)
}

pub fn run(args: ReplayArgs) -> Result<ExitCode, String> {
    let flow = read_flow(&args.flow)?;
    let credentials = SigningCredentials::from_dir(&args.cert_dir)
        .map_err(|e| format!("--cert-dir {}: {e}", args.cert_dir.display()))?;
    let note = certificate_note(&flow, &credentials);
    // A sandbox of its own serves on other threads while the replay runs on this one.
    let runtime = match args.fixture {
        Some(_) => tokio::runtime::Builder::new_multi_thread(),
        None => tokio::runtime::Builder::new_current_thread(),
    }
    .enable_all()
    .build()
    .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let own = match &args.fixture {
        Some(fixture) => Some(runtime.block_on(OwnSandbox::start(fixture))?),
        None => None,
    };
    let url = own
        .as_ref()
        .map_or(args.url.as_str(), |own| own.base.as_str());
    let mut runner = Runner::new(url, credentials, xs2a_http::api::openapi::template_for)?;
    let started = std::time::Instant::now();
    let outcomes = runtime.block_on(runner.run(&flow));
    let total = started.elapsed();
    if let Some(own) = own {
        runtime.block_on(own.stop())?;
    }
    let mut report = describe(&outcomes, note.as_deref());
    if !outcomes.is_empty() {
        let waited: std::time::Duration = outcomes.iter().map(|o| o.waiting).sum();
        let overhead = total.saturating_sub(waited).as_secs_f64() * 1000.0 / outcomes.len() as f64;
        report.push_str(&format!(
            "replay overhead: {overhead:.2} ms per step (signing, ids, comparison; the sandbox's own time excluded)\n"
        ));
    }
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    if let Some(path) = &args.junit {
        let suite = suite_name(&args.flow);
        std::fs::write(
            path,
            junit::report(&suite, &cases(&outcomes, note.as_deref())),
        )
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(if outcomes.iter().all(StepOutcome::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
