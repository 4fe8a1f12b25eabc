//! `xs2a-sandbox health [--url URL]`: asks a running sandbox's `/health` and exits 0 when it answers
//! 200 `UP`, 1 otherwise, saying why. The container image's health check: it needs no shell, no curl,
//! only the binary the image already holds.

use clap::Args;
use std::process::ExitCode;
use std::time::Duration;
use xs2a_workbench::outbound::client::Client;

#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The sandbox's base URL (plain http); `/health` is asked there.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// Seconds to wait for the answer before calling the service unhealthy.
    #[arg(long, default_value_t = 5)]
    pub timeout: u64,
}

/// The largest answer read: `/health` answers a few dozen bytes.
const MAX_ANSWER: usize = 64 * 1024;

pub fn run(args: HealthArgs) -> Result<ExitCode, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    match runtime.block_on(check(&args)) {
        Ok(now) => {
            println!("UP (the sandbox clock reads {now})");
            Ok(ExitCode::SUCCESS)
        }
        Err(reason) => {
            eprintln!("xs2a-sandbox health: {reason}");
            Ok(ExitCode::from(1))
        }
    }
}

/// The sandbox clock's time when `/health` answers `UP`, else why not.
async fn check(args: &HealthArgs) -> Result<String, String> {
    let mut client = Client::new(&args.url)?.answers_up_to(MAX_ANSWER);
    let no_headers = Default::default();
    let asked = client.send("GET", "/health", &no_headers, Vec::new());
    let answer = tokio::time::timeout(Duration::from_secs(args.timeout), asked)
        .await
        .map_err(|_| format!("{} gave no answer within {} s", args.url, args.timeout))??;
    if answer.status != 200 {
        return Err(format!(
            "{}/health answered {}: {}",
            args.url,
            answer.status,
            answer.text()
        ));
    }
    let body: serde_json::Value = serde_json::from_slice(&answer.body)
        .map_err(|_| format!("{}/health answered 200 without JSON", args.url))?;
    match (body["status"].as_str(), body["now"].as_str()) {
        (Some("UP"), Some(now)) => Ok(now.to_owned()),
        _ => Err(format!(
            "{}/health answered 200 but not UP: {body}",
            args.url
        )),
    }
}
