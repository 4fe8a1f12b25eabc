//! The README's walkthrough as a newcomer runs it: every ```` ```sh walkthrough ```` block, as written, in a
//! scratch directory against a freshly started `xs2a-sandbox serve` (on a free port, so `127.0.0.1:8080` is
//! the only text changed), with the built binary on the PATH. It must end with an account read and a booked
//! straks payment, and leave nothing in the repository.

use crate::cli::start_server;
use std::path::Path;
use std::process::Command;

/// The blocks fenced as ```` ```sh walkthrough ````, in order.
pub(crate) fn walkthrough_blocks(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match current.as_mut() {
            None if line.trim() == "```sh walkthrough" => current = Some(String::new()),
            None => {}
            Some(_) if line.trim() == "```" => blocks.extend(current.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    blocks
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn readme_walkthrough_runs_as_written_and_leaves_the_repository_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("cd \"$(mktemp -d)\""),
        "the walkthrough starts in a scratch directory"
    );
    let blocks = walkthrough_blocks(&readme);
    assert!(blocks.len() >= 3, "{} walkthrough blocks", blocks.len());

    let data = tempfile::tempdir().unwrap();
    let (mut server, base) = start_server(&data.path().join("data"), &[]);
    let scratch = tempfile::tempdir().unwrap();
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        binary_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = format!("set -euo pipefail\n{}", blocks.join("\n"))
        .replace("127.0.0.1:8080", base.trim_start_matches("http://"));
    let before = entries(root);
    let output = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(scratch.path())
        .env("PATH", path)
        .output()
        .expect("bash runs");
    server.kill().unwrap();
    let _ = server.wait();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    for expected in [
        "Kari Nordmann",                          // the first signed call
        "Signing string computed by the sandbox", // the clear 400
        "scaRedirect",                            // the 401 asking for SCA
        "\"psuId\"",                              // the automated SCA
        "\"iban\"",                               // the accounts read
        "\"transactionStatus\":\"RCVD\"",         // the payment created
        "\"transactionStatus\":\"ACSC\"",         // and booked
    ] {
        assert!(
            stdout.contains(expected),
            "{expected} missing from:\n{stdout}\n{stderr}"
        );
    }
    assert!(scratch.path().join("acme/cert.pem").is_file());
    assert_eq!(
        entries(root),
        before,
        "the walkthrough wrote into the repository"
    );
}
