//! Regenerates the test certificates under fixtures/certs: the test CA (kept when it already exists,
//! unless `--new-ca`), TPP certificates for each role combination, an expired one, one from an untrusted
//! CA, one without PSD2 roles, the bank's response-signing certificate and a TLS server certificate.
//!
//! `cargo run --example make_fixtures -- fixtures/certs [--new-ca]`

use std::fs;
use std::path::Path;

use time::macros::datetime;
use time::OffsetDateTime;
use xs2a_core::signing::issue::{tpp_request_defaults, CertificateAuthority, IssuedCertificate};
use xs2a_core::signing::qc_statements::Psd2Role::{PspAi, PspPi};

const VALID_FROM: OffsetDateTime = datetime!(2025-01-01 00:00 UTC);
const VALID_TO: OffsetDateTime = datetime!(2045-01-01 00:00 UTC);

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let new_ca = args.iter().any(|a| a == "--new-ca");
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(String::as_str)
        .unwrap_or("fixtures/certs");
    let dir = Path::new(dir);

    let ca = test_ca(dir, new_ca)?;
    let tpp = |name: &str, roles, from, to| {
        let mut request = tpp_request_defaults(name, roles, from);
        request.not_before = from;
        request.not_after = to;
        request
    };
    let aisp = tpp("Sandbox AISP AS", vec![PspAi], VALID_FROM, VALID_TO);
    write(dir, "aisp", &ca.issue_tpp(&aisp)?)?;
    let pisp = tpp("Sandbox PISP AS", vec![PspPi], VALID_FROM, VALID_TO);
    write(dir, "pisp", &ca.issue_tpp(&pisp)?)?;
    let both = tpp(
        "Sandbox AISP PISP AS",
        vec![PspAi, PspPi],
        VALID_FROM,
        VALID_TO,
    );
    write(dir, "aisp-pisp", &ca.issue_tpp(&both)?)?;
    let expired = tpp(
        "Sandbox Expired TPP AS",
        vec![PspAi, PspPi],
        datetime!(2020-01-01 00:00 UTC),
        datetime!(2021-01-01 00:00 UTC),
    );
    write(dir, "expired", &ca.issue_tpp(&expired)?)?;
    let no_roles = tpp("Sandbox No Roles AS", vec![], VALID_FROM, VALID_TO);
    write(dir, "no-roles", &ca.issue_tpp_without_psd2(&no_roles)?)?;

    let untrusted_ca =
        CertificateAuthority::generate("Untrusted Test CA", "", VALID_FROM, VALID_TO)?;
    write_file(&dir.join("untrusted-ca/cert.pem"), &untrusted_ca.cert_pem)?;
    let untrusted = tpp(
        "Sandbox Untrusted TPP AS",
        vec![PspAi, PspPi],
        VALID_FROM,
        VALID_TO,
    );
    write(dir, "untrusted", &untrusted_ca.issue_tpp(&untrusted)?)?;

    write(dir, "bank", &ca.issue_bank_signing()?)?;
    write(
        dir,
        "server",
        &ca.issue_server(&["localhost", "127.0.0.1"])?,
    )?;
    println!("wrote {}", dir.display());
    Ok(())
}

fn test_ca(dir: &Path, new_ca: bool) -> Result<CertificateAuthority, String> {
    let (cert, key) = (dir.join("ca/cert.pem"), dir.join("ca/key.pem"));
    if !new_ca {
        if let (Ok(cert_pem), Ok(key_pem)) = (fs::read_to_string(&cert), fs::read_to_string(&key)) {
            if !cert_pem.trim().is_empty() {
                println!("reusing the test CA in {}", cert.display());
                return CertificateAuthority::from_pem(&cert_pem, &key_pem);
            }
        }
    }
    let ca = CertificateAuthority::generate(
        "xs2a-sandbox Test CA",
        "xs2a-sandbox",
        VALID_FROM,
        VALID_TO,
    )?;
    write_file(&cert, &ca.cert_pem)?;
    write_file(&key, &ca.key_pem)?;
    println!("generated a new test CA in {}", cert.display());
    Ok(ca)
}

fn write(dir: &Path, name: &str, issued: &IssuedCertificate) -> Result<(), String> {
    write_file(&dir.join(name).join("cert.pem"), &issued.cert_pem)?;
    write_file(&dir.join(name).join("key.pem"), &issued.key_pem)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
