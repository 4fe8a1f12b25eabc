//! The command line for testers who mirror a production CA and for newcomers who sign with curl:
//! `cert ca --subject` with non-ASCII letters, `cert issue --ca-dir`, `sign -H` printing every header,
//! `sign | head -1`, a missing `--cert-dir`, and `serve --port`.

use crate::cli::binary;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

fn run(command: &mut std::process::Command) -> (bool, String, String) {
    let output = command.output().expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn cli_kit_cert_ca_takes_a_full_subject_and_issue_uses_it_with_ca_dir() {
    let dir = tempfile::tempdir().unwrap();
    let ca = dir.path().join("ca");
    let subject = "CN=Testbank CA,O=Testbank ASA,OU=PSD2,L=Tromsø,ST=Troms,C=NO,organizationIdentifier=NTRNO-987654321";
    let (ok, out, err) = run(binary()
        .args(["cert", "ca", "--subject", subject, "--out"])
        .arg(&ca));
    assert!(ok, "{out}{err}");
    assert!(out.contains(subject), "{out}");
    let tpp = dir.path().join("tpp");
    let (ok, out, err) = run(binary()
        .args(["cert", "issue", "--name", "Kit TPP", "--ca-dir"])
        .arg(&ca)
        .arg("--out")
        .arg(&tpp));
    assert!(ok, "{out}{err}");
    let pem = std::fs::read_to_string(tpp.join("cert.pem")).unwrap();
    let der = xs2a_core::signing::signer::pem_to_der(&pem).unwrap();
    let (_, cert) = x509_parser::parse_x509_certificate(&der).unwrap();
    let issuer =
        xs2a_core::signing::distinguished_name::DistinguishedName::from_x509(cert.issuer());
    assert_eq!(issuer.to_rfc2253(), subject);
    let (ok, _, err) = run(binary()
        .args(["cert", "ca", "--subject", "CN=x,C=Norway", "--out"])
        .arg(dir.path().join("bad")));
    assert!(!ok && err.contains("country code"), "{err}");
}

#[test]
fn cli_kit_sign_prints_the_given_headers_too_so_curl_needs_nothing_else() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp");
    let (ok, out, err) = run(binary().args(["sign", "--cert-dir"]).arg(&fixture).args([
        "-X",
        "POST",
        "--url",
        "http://127.0.0.1:8080/v1/bank-offered-consents",
        "-H",
        "TPP-Session-ID: s-1",
        "-H",
        "PSU-ID: 0b5a3c2e-8f4d-4e8a-9d0c-3f1e2a4b5c6d",
        "-H",
        "Content-Type: application/json",
        "--data",
        "{}",
    ]));
    assert!(ok, "{err}");
    for header in [
        "TPP-Session-ID: s-1",
        "PSU-ID: 0b5a3c2e-8f4d-4e8a-9d0c-3f1e2a4b5c6d",
        "Content-Type: application/json",
        "Digest: SHA-256=",
        "Date: ",
        "X-Request-ID: ",
        "TPP-Signature-Certificate: ",
        "Signature: ",
    ] {
        assert!(out.contains(header), "{header} missing from {out}");
    }
    assert!(
        out.contains("headers=\"(request-target) date digest x-request-id psu-id\""),
        "PSU-ID is signed: {out}"
    );
}

#[test]
fn cli_kit_sign_into_a_pipe_closed_early_ends_without_a_panic() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp");
    let mut child = binary()
        .args(["sign", "--cert-dir"])
        .arg(&fixture)
        .args(["--url", "http://127.0.0.1:8080/v1/accounts"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe, as `| head -1` does.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!first.is_empty());
    assert!(!err.contains("panicked"), "{err}");
    assert!(output.status.success(), "{err}");
}

#[test]
fn cli_kit_sign_without_cert_dir_points_to_cert_issue_and_the_bundled_certificates() {
    let (ok, _, err) = run(binary().args(["sign", "--url", "http://127.0.0.1:8080/v1/accounts"]));
    assert!(!ok);
    assert!(
        err.contains("cert issue") && err.contains("fixtures/certs"),
        "{err}"
    );
    let empty = tempfile::tempdir().unwrap();
    let (ok, _, err) = run(binary()
        .args(["sign", "--cert-dir"])
        .arg(empty.path())
        .args(["--url", "http://127.0.0.1:8080/v1/accounts"]));
    assert!(!ok && err.contains("cert issue"), "{err}");
}

#[test]
fn cli_kit_serve_understands_port() {
    let data = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = binary()
        .args(["serve", "--ephemeral", "--port", &port.to_string()])
        .env("HOME", data.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(line.contains(&format!("127.0.0.1:{port}")), "{line}");
}
