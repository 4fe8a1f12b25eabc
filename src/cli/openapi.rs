//! `xs2a-sandbox openapi [--out FILE]` writes the OpenAPI 3.1 document of the whole service (the same one
//! a running sandbox serves at `/openapi.json`), e.g. to generate a client from it.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct OpenApiArgs {
    /// The file to write; `-` for standard output.
    #[arg(long, default_value = "-")]
    pub out: PathBuf,
}

pub fn run(args: OpenApiArgs) -> Result<ExitCode, String> {
    let mut text = xs2a_http::api::openapi::to_pretty_json();
    text.push('\n');
    super::har::write_out(&args.out, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
