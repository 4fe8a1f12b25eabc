//! `xs2a-sandbox har FLOW --out FILE.har` writes a flow as HAR 1.2; `xs2a-sandbox curl FLOW` writes a
//! shell script that signs each request with `xs2a-sandbox sign` (the current date) and sends it with
//! curl. The script sends the recorded ids as they are: to carry ids from answers into later requests,
//! use `replay`.

use super::replay::read_flow;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use xs2a_workbench::flow::Step;

#[derive(Debug, Args)]
pub struct HarArgs {
    /// The flow file.
    pub flow: PathBuf,
    /// The HAR file to write; `-` for standard output.
    #[arg(long, default_value = "-")]
    pub out: PathBuf,
    /// The base URL the HAR's request URLs start with.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
}

#[derive(Debug, Args)]
pub struct CurlArgs {
    /// The flow file (or a HAR file).
    pub flow: PathBuf,
    /// The script to write; `-` for standard output.
    #[arg(long, default_value = "-")]
    pub out: PathBuf,
    /// The sandbox's base URL the script calls (it can be changed with $XS2A_URL when run).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// The certificate directory the script signs with (it can be changed with $XS2A_CERT_DIR).
    #[arg(long, value_name = "DIR", default_value = "fixtures/certs/aisp-pisp")]
    pub cert_dir: PathBuf,
}

pub(crate) fn write_out(out: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    if out.as_os_str() == "-" {
        use std::io::Write;
        std::io::stdout()
            .write_all(bytes)
            .map_err(|e| format!("cannot write: {e}"))
    } else {
        std::fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))
    }
}

pub fn run_har(args: HarArgs) -> Result<ExitCode, String> {
    let flow = read_flow(&args.flow)?;
    let har = xs2a_workbench::flow::har::write(&flow, args.url.trim_end_matches('/'));
    let mut bytes = serde_json::to_vec_pretty(&har).map_err(|e| e.to_string())?;
    bytes.push(b'\n');
    write_out(&args.out, &bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// `text` quoted for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The script for a flow.
pub fn script(flow: &xs2a_workbench::flow::FlowFile, url: &str, cert_dir: &str) -> String {
    let mut s = format!(
        "#!/bin/sh\n# Written by `xs2a-sandbox curl`: signs each request of the flow with the current date and\n\
         # sends it. Ids are sent as recorded (use `xs2a-sandbox replay` to carry ids from answers).\nset -e\n\
         XS2A_URL=${{XS2A_URL:-{}}}\nXS2A_CERT_DIR=${{XS2A_CERT_DIR:-{}}}\nHEADERS=$(mktemp)\ntrap 'rm -f \"$HEADERS\"' EXIT\n",
        quote(url),
        quote(cert_dir)
    );
    for (i, step) in flow.steps.iter().enumerate() {
        let (method, path, headers, body) = match step {
            Step::Exchange(e) => (
                e.request.method.clone(),
                e.request.path.clone(),
                e.request.headers.clone(),
                e.request.body.clone(),
            ),
            Step::Sca(sca) => (
                "POST".to_owned(),
                format!("/v1/sandbox/sca/{}", sca.authorisation_id),
                vec![("Content-Type".to_owned(), "application/json".to_owned())],
                Some(sca.drive.to_string()),
            ),
        };
        s.push_str(&format!("\n# {:02} {}\n", i + 1, step.label()));
        let mut sign = format!(
            "xs2a-sandbox sign --cert-dir \"$XS2A_CERT_DIR\" -X {method} --url \"$XS2A_URL\"{}",
            quote(&path)
        );
        for (name, value) in &headers {
            sign.push_str(&format!(" -H {}", quote(&format!("{name}: {value}"))));
        }
        if let Some(body) = &body {
            sign.push_str(&format!(" -d {}", quote(body)));
        }
        s.push_str(&format!("{sign} > \"$HEADERS\"\n"));
        let mut curl = format!("curl -sS -X {method} -H @\"$HEADERS\"");
        if let Some(body) = &body {
            curl.push_str(&format!(" --data-binary {}", quote(body)));
        }
        s.push_str(&format!("{curl} \"$XS2A_URL\"{}\necho\n", quote(&path)));
    }
    s
}

pub fn run_curl(args: CurlArgs) -> Result<ExitCode, String> {
    let flow = read_flow(&args.flow)?;
    let text = script(&flow, &args.url, &args.cert_dir.display().to_string());
    write_out(&args.out, text.as_bytes())?;
    if args.out.as_os_str() != "-" {
        let _ = xs2a_core::platform::fs_sync::make_executable(&args.out);
    }
    Ok(ExitCode::SUCCESS)
}
