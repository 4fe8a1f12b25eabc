//! `xs2a-sandbox cert`: issue TPP certificates (and throw-away CAs) for testing.

use crate::signing::issue::{tpp_request_defaults, CertificateAuthority};
use crate::signing::qc_statements::Psd2Role;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use time::{Duration, OffsetDateTime};

#[derive(Debug, Args)]
pub struct CertArgs {
    #[command(subcommand)]
    pub command: CertCommand,
}

#[derive(Debug, Subcommand)]
pub enum CertCommand {
    /// Issue a TPP certificate with PSD2 roles; writes cert.pem and key.pem into --out.
    Issue(IssueArgs),
    /// Make a new self-signed CA (for --trust-ca); writes cert.pem and key.pem into --out.
    Ca(CaArgs),
}

#[derive(Debug, Args)]
pub struct IssueArgs {
    /// PSD2 roles, comma separated: PSP_AS, PSP_PI, PSP_AI, PSP_IC.
    #[arg(long, value_delimiter = ',', default_value = "PSP_AI,PSP_PI")]
    pub roles: Vec<String>,
    /// The TPP's name (organisation and common name).
    #[arg(long)]
    pub name: String,
    /// organizationIdentifier (default: PSDNO-FSA- and six hex digits derived from the name).
    #[arg(long)]
    pub org_id: Option<String>,
    /// Days of validity from now (the certificate is valid from the CA's own start date).
    #[arg(long, default_value_t = 730)]
    pub days: i64,
    /// Directory to write cert.pem and key.pem to (created).
    #[arg(long)]
    pub out: PathBuf,
    /// Issue from this CA certificate instead of the bundled test CA (needs --ca-key).
    #[arg(long, requires = "ca_key")]
    pub ca_cert: Option<PathBuf>,
    #[arg(long, requires = "ca_cert")]
    pub ca_key: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CaArgs {
    /// The CA's common name.
    #[arg(long, default_value = "My Test CA")]
    pub name: String,
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: CertArgs) -> Result<ExitCode, String> {
    match args.command {
        CertCommand::Issue(args) => issue(args),
        CertCommand::Ca(args) => make_ca(args),
    }
}

fn issue(args: IssueArgs) -> Result<ExitCode, String> {
    let roles = args
        .roles
        .iter()
        .map(|r| {
            r.trim()
                .parse::<Psd2Role>()
                .map_err(|_| format!("unknown role '{r}': use PSP_AS, PSP_PI, PSP_AI or PSP_IC"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let ca = match (&args.ca_cert, &args.ca_key) {
        (Some(cert), Some(key)) => CertificateAuthority::from_pem(&read(cert)?, &read(key)?)?,
        _ => CertificateAuthority::bundled_test_ca(),
    };
    let now = OffsetDateTime::now_utc();
    let mut request = tpp_request_defaults(&args.name, roles, now);
    if let Some(org_id) = args.org_id {
        request.organization_identifier = org_id;
    }
    // Valid from the CA's own start, so a certificate issued today also works with the sandbox clock
    // moved into the past (trainers and tests do that); valid for --days from now.
    request.not_before = ca.not_before;
    request.not_after = now + Duration::days(args.days);
    let issued = ca.issue_tpp(&request)?;
    write_pair(&args.out, &issued.cert_pem, &issued.key_pem)?;
    println!(
        "Issued {} ({}, roles {}) to {}/cert.pem and key.pem",
        args.name,
        request.organization_identifier,
        args.roles.join(","),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn make_ca(args: CaArgs) -> Result<ExitCode, String> {
    let now = OffsetDateTime::now_utc();
    let ca = CertificateAuthority::generate(
        &args.name,
        &args.name,
        now - Duration::days(1),
        now + Duration::days(3650),
    )?;
    write_pair(&args.out, &ca.cert_pem, &ca.key_pem)?;
    println!(
        "Made CA '{}' in {}: trust it with serve --trust-ca {}/cert.pem",
        args.name,
        args.out.display(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write_pair(dir: &Path, cert_pem: &str, key_pem: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
    };
    write("cert.pem", cert_pem)?;
    write("key.pem", key_pem)
}
