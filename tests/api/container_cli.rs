//! What the container image relies on, with the real binary: `health` (its health check), `serve
//! --container` (every interface, the URLs a host opens, shared mode unless switched), the operator
//! credential from a file (never printed), the refusal of loopback mode on a non-loopback address
//! outside a container, and a clean stop on SIGTERM that says when the store was closed.

use crate::cli::binary;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts `serve` with `args` and the environment `env`, and reads its three opening lines.
fn serve(data: &Path, args: &[&str], env: &[(&str, &str)]) -> (Child, Vec<String>) {
    let mut command = binary();
    command
        .arg("serve")
        .args(args)
        .arg("--data")
        .arg(data)
        .env("HOME", data)
        .env_remove("XS2A_OPERATOR_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("the binary starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let lines = (0..3)
        .map(|_| {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            line.trim_end().to_owned()
        })
        .collect();
    (child, lines)
}

/// The base URL of the first line (`xs2a-sandbox listening on URL …`).
fn base_of(first_line: &str) -> String {
    first_line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in '{first_line}'"))
        .to_owned()
}

fn health(url: &str) -> (Option<i32>, String, String) {
    let output = binary()
        .args(["health", "--url", url, "--timeout", "20"])
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// SIGTERM, then the exit status and everything the server wrote to stderr.
fn stop(mut child: Child) -> (Option<i32>, String) {
    assert!(Command::new("kill")
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success());
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status.code(), stderr)
}

#[test]
fn health_says_up_for_a_running_sandbox_and_exits_1_with_the_reason_otherwise() {
    let data = tempfile::tempdir().unwrap();
    let (child, lines) = serve(&data.path().join("data"), &["--addr", "127.0.0.1:0"], &[]);
    let base = base_of(&lines[0]);
    let (code, stdout, _) = health(&base);
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("UP"), "{stdout}");
    let (code, _) = stop(child);
    assert_eq!(code, Some(0));

    // Nothing listening any more: 1, naming what failed.
    let (code, _, stderr) = health(&base);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("cannot connect"), "{stderr}");

    // Something that answers, but not UP.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let answering = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0u8; 1024];
        let _ = stream.read(&mut request).unwrap();
        stream
            .write_all(b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 4\r\n\r\nbusy")
            .unwrap();
    });
    let (code, _, stderr) = health(&format!("http://{address}"));
    answering.join().unwrap();
    assert_eq!(code, Some(1));
    assert!(stderr.contains("answered 503"), "{stderr}");
}

#[test]
fn in_a_container_serve_listens_everywhere_prints_the_hosts_url_and_runs_shared() {
    let data = tempfile::tempdir().unwrap();
    // As the image starts it: XS2A_CONTAINER set, no address given (0.0.0.0:8080 there; port 0 here).
    let (child, lines) = serve(
        &data.path().join("data"),
        &["--port", "0"],
        &[("XS2A_CONTAINER", "1")],
    );
    assert!(
        lines[0].starts_with("xs2a-sandbox listening on http://127.0.0.1:")
            && lines[0].contains("(bound to 0.0.0.0:"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("mode: shared"), "{lines:?}");
    let base = base_of(&lines[0]);
    assert!(
        lines[2].starts_with(&format!("workbench: {base}/workbench/?token=")),
        "{lines:?}"
    );
    assert_eq!(health(&base).0, Some(0));
    let (code, stderr) = stop(child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("stopped, the store closed,")
            && stderr.contains("ms after the stop signal"),
        "{stderr}"
    );
}

#[test]
fn the_switch_runs_a_container_in_loopback_mode_and_the_public_url_is_printed() {
    let data = tempfile::tempdir().unwrap();
    let (child, lines) = serve(
        &data.path().join("data"),
        &["--port", "0"],
        &[
            ("XS2A_CONTAINER", "1"),
            ("XS2A_MODE", "loopback"),
            ("XS2A_PUBLIC_URL", "http://127.0.0.1:18080/"),
        ],
    );
    assert!(
        lines[0].starts_with("xs2a-sandbox listening on http://127.0.0.1:18080 (bound to 0.0.0.0:"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("mode: loopback"), "{lines:?}");
    assert!(
        lines[2].starts_with("workbench: http://127.0.0.1:18080/workbench/?token="),
        "{lines:?}"
    );
    assert_eq!(stop(child).0, Some(0));
}

#[test]
fn loopback_mode_on_another_address_is_refused_outside_a_container() {
    let data = tempfile::tempdir().unwrap();
    let output = binary()
        .args([
            "serve",
            "--addr",
            "0.0.0.0:0",
            "--mode",
            "loopback",
            "--data",
        ])
        .arg(data.path().join("data"))
        .env("HOME", data.path())
        .env_remove("XS2A_CONTAINER")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("loopback mode on 0.0.0.0:0") && stderr.contains("--container"),
        "{stderr}"
    );
    assert!(
        !data.path().join("data").exists(),
        "nothing is opened before the refusal"
    );
}

#[test]
fn an_operator_token_from_a_file_guards_the_workbench_and_is_never_printed() {
    let data = tempfile::tempdir().unwrap();
    let secret = data.path().join("operator-token");
    std::fs::write(&secret, "a-secret-from-a-file\n").unwrap();
    let secret_path = secret.to_string_lossy().into_owned();
    let (child, lines) = serve(
        &data.path().join("data"),
        &["--addr", "127.0.0.1:0"],
        &[("XS2A_OPERATOR_TOKEN_FILE", &secret_path)],
    );
    let printed = lines.join("\n");
    assert!(!printed.contains("a-secret-from-a-file"), "{printed}");
    assert!(
        lines[2].ends_with(&format!("?token=<the operator token in {secret_path}>")),
        "{printed}"
    );
    let base = base_of(&lines[0]);
    let session = |token: &str| {
        let authority = base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(authority).unwrap();
        write!(
            stream,
            "GET /workbench/api/session HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer.lines().next().unwrap_or_default().to_owned()
    };
    assert!(session("a-secret-from-a-file").contains(" 200 "));
    assert!(session("another").contains(" 401 "));
    assert_eq!(stop(child).0, Some(0));

    // Both ways of giving it at once is a mistake, said before anything starts.
    let output = binary()
        .args(["serve", "--addr", "127.0.0.1:0", "--ephemeral"])
        .env("XS2A_OPERATOR_TOKEN_FILE", &secret_path)
        .env("XS2A_OPERATOR_TOKEN", "x")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot be used with"));

    // An empty secret is refused, naming the file.
    std::fs::write(&secret, "").unwrap();
    let output = binary()
        .args(["serve", "--addr", "127.0.0.1:0", "--ephemeral"])
        .env("XS2A_OPERATOR_TOKEN_FILE", &secret_path)
        .env_remove("XS2A_OPERATOR_TOKEN")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("is empty") && stderr.contains(&secret_path),
        "{stderr}"
    );
}
