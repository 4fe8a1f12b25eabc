//! The `xs2a-sandbox` command: serve the sandbox headless, issue test certificates, sign and verify requests.

mod allocator;

use clap::Parser;
use std::process::ExitCode;
use xs2a_sandbox::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Serve(args) => {
            allocator::return_freed_memory_periodically();
            xs2a_sandbox::cli::serve::run(args)
        }
        Command::Cert(args) => xs2a_sandbox::cli::cert::run(args),
        Command::Sign(args) => xs2a_sandbox::cli::sign::run(args),
        Command::Verify(args) => xs2a_sandbox::cli::verify::run(args),
        Command::Export(args) => xs2a_sandbox::cli::export::run(args),
        Command::Import(args) => xs2a_sandbox::cli::import::run(args),
        Command::Replay(args) => xs2a_sandbox::cli::replay::run(args),
        Command::Har(args) => xs2a_sandbox::cli::har::run_har(args),
        Command::Curl(args) => xs2a_sandbox::cli::har::run_curl(args),
        Command::Openapi(args) => xs2a_sandbox::cli::openapi::run(args),
        Command::Conformance(args) => xs2a_sandbox::cli::conformance::run(args),
        Command::Health(args) => xs2a_sandbox::cli::health::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("xs2a-sandbox: {message}");
            ExitCode::from(2)
        }
    }
}
