//! The command line as a newcomer uses it: `cert issue`, `sign` for curl, `verify`, and `serve` printing
//! its base URL and surviving kill -9 without losing an acknowledged write.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
}

/// Starts `xs2a-sandbox serve` on port 0 and reads the base URL from its first stdout line.
pub fn start_server(data: &Path, extra: &[&str]) -> (Child, String) {
    start_server_with(data, extra, |_| {})
}

/// As [`start_server`], with `configure` adjusting the command (environment, stderr) before it starts.
pub fn start_server_with(
    data: &Path,
    extra: &[&str],
    configure: impl FnOnce(&mut Command),
) -> (Child, String) {
    let mut command = binary();
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(extra)
        .env("HOME", data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    configure(&mut command);
    let mut child = command.spawn().expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no base URL in '{line}'"))
        .to_owned();
    (child, base)
}

fn run(command: &mut Command) -> (bool, String, String) {
    let output = command.output().expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Header lines printed by `sign` as (name, value) pairs.
fn header_lines(printed: &str) -> Vec<(String, String)> {
    printed
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect()
}

#[tokio::test]
async fn a_newcomer_issues_a_certificate_signs_and_gets_200_then_a_clear_400() {
    let dir = tempfile::tempdir().unwrap();
    let tpp_dir = dir.path().join("acme");
    let (ok, out, err) = run(binary()
        .args([
            "cert",
            "issue",
            "--roles",
            "PSP_AI,PSP_PI",
            "--name",
            "Acme TPP",
            "--out",
        ])
        .arg(&tpp_dir));
    assert!(ok, "{out}{err}");
    assert!(tpp_dir.join("cert.pem").exists() && tpp_dir.join("key.pem").exists());

    let (mut server, base) = start_server(&dir.path().join("data"), &[]);
    let url = format!("{base}/v1/sandbox/customers");
    let (ok, printed, err) = run(binary()
        .args(["sign", "--cert-dir"])
        .arg(&tpp_dir)
        .args(["--method", "GET", "--url", &url]));
    assert!(ok, "{err}");
    let headers = header_lines(&printed);
    let names: Vec<&str> = headers.iter().map(|(n, _)| n.as_str()).collect();
    for expected in [
        "Date",
        "X-Request-ID",
        "TPP-Signature-Certificate",
        "Signature",
    ] {
        assert!(names.contains(&expected), "{printed}");
    }

    let client = reqwest::Client::new();
    let mut request = client.get(&url);
    for (name, value) in &headers {
        request = request.header(name, value);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200);

    // The same headers with the signature of another request: a clear 400 showing the signing string.
    let mut request = client.get(format!("{url}?limit=5"));
    for (name, value) in &headers {
        request = request.header(name, value);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    let text = body.to_string();
    assert!(
        text.contains("(request-target): get /v1/sandbox/customers?limit=5"),
        "{text}"
    );
    server.kill().unwrap();
    let _ = server.wait();
}

#[test]
fn verify_reports_each_step_and_the_signing_string() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp");
    let url = "http://127.0.0.1:8080/v1/sandbox/customers";
    let (ok, printed, err) = run(binary()
        .args(["sign", "--cert-dir"])
        .arg(&fixture)
        .args(["--url", url]));
    assert!(ok, "{err}");
    let head: String = header_lines(&printed)
        .iter()
        .map(|(n, v)| format!("{n}: {v}\r\n"))
        .collect();
    let good = dir.path().join("good.http");
    std::fs::write(
        &good,
        format!("GET /v1/sandbox/customers HTTP/1.1\r\n{head}\r\n"),
    )
    .unwrap();
    let (ok, out, _) = run(binary().args(["verify", "--request"]).arg(&good));
    assert!(ok, "{out}");
    assert!(
        out.contains("ok    signature") && out.contains("accepted"),
        "{out}"
    );

    let bad = dir.path().join("bad.http");
    std::fs::write(
        &bad,
        format!("GET /v1/sandbox/accounts HTTP/1.1\r\n{head}\r\n"),
    )
    .unwrap();
    let (ok, out, _) = run(binary().args(["verify", "--request"]).arg(&bad));
    assert!(!ok, "{out}");
    assert!(out.contains("FAIL  signature"), "{out}");
    assert!(
        out.contains("(request-target): get /v1/sandbox/accounts"),
        "{out}"
    );
}

#[test]
fn serve_prints_the_bound_base_url_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, base) = start_server(dir.path(), &[]);
    assert!(
        base.starts_with("http://127.0.0.1:") && !base.ends_with(":0"),
        "{base}"
    );
    let pid = server.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let status = server.wait().unwrap();
    assert!(status.success(), "graceful shutdown exits 0: {status:?}");
}

#[tokio::test]
async fn logs_written_to_a_pipe_carry_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, base) = start_server_with(&dir.path().join("data"), &[], |command| {
        command.env("XS2A_LOG", "info").stderr(Stdio::piped());
    });
    // An unsigned request is refused at the gate, which logs it at info.
    let response = reqwest::get(format!("{base}/v1/sandbox/customers"))
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    child.kill().unwrap();
    let output = child.wait_with_output().unwrap();
    let logged = String::from_utf8_lossy(&output.stderr);
    assert!(
        logged.contains("request refused at the gate"),
        "nothing logged: {logged}"
    );
    assert!(!logged.contains('\u{1b}'), "colour codes in: {logged:?}");
}

/// A self-signed, role-less certificate trusted with `--trust-ca` (as third-party signature vectors come):
/// its refusal at the certificate step does not hide keyId, algorithm and signature, checked with the
/// certificate's own key, so a right keyId and a wrong one print differently (issue 38).
#[test]
fn verify_checks_a_role_less_certificates_key_id_and_signature_with_its_own_key() {
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("self");
    let (ok, _, err) = run(binary()
        .args(["cert", "ca", "--name", "Selfsigned TPP", "--out"])
        .arg(&own));
    assert!(ok, "{err}");
    let (ok, printed, err) = run(binary()
        .args(["sign", "--cert-dir"])
        .arg(&own)
        .args(["--url", "http://127.0.0.1:8080/v1/sandbox/customers"]));
    assert!(ok, "{err}");
    let head: String = header_lines(&printed)
        .iter()
        .map(|(n, v)| format!("{n}: {v}\r\n"))
        .collect();
    let right = format!("GET /v1/sandbox/customers HTTP/1.1\r\n{head}\r\n");
    let serial_at = right.find("keyId=\"SN=").unwrap() + "keyId=\"SN=".len();
    let serial_end = serial_at + right[serial_at..].find(',').unwrap();
    let wrong = format!("{}1{}", &right[..serial_at], &right[serial_end..]);
    let verify = |name: &str, request: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, request).unwrap();
        let (ok, out, _) = run(binary()
            .args(["verify", "--trust-ca"])
            .arg(own.join("cert.pem"))
            .arg("--request")
            .arg(&path));
        assert!(!ok, "a role-less certificate is refused: {out}");
        out
    };
    let right = verify("right.http", &right);
    let wrong = verify("wrong.http", &wrong);
    assert!(
        right.contains("FAIL  certificate") && right.contains("no PSD2 roles"),
        "{right}"
    );
    for passed in ["ok    keyId", "ok    algorithm", "ok    signature "] {
        assert!(right.contains(passed), "{passed}: {right}");
    }
    assert!(wrong.contains("FAIL  keyId"), "{wrong}");
    assert!(wrong.contains("ok    signature "), "{wrong}");
    assert_ne!(right, wrong);
}
