//! `xs2a-sandbox cert`: issue TPP certificates (and throw-away CAs) for testing.

use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use time::{Duration, OffsetDateTime};
use xs2a_core::signing::distinguished_name::DistinguishedName;
use xs2a_core::signing::issue::{tpp_request_defaults, CertificateAuthority};
use xs2a_core::signing::qc_statements::Psd2Role;

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
    /// Issue from the CA in this directory (its cert.pem and key.pem, as `cert ca` writes them) instead
    /// of the bundled test CA.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["ca_cert", "ca_key"])]
    pub ca_dir: Option<PathBuf>,
    /// Issue from this CA certificate instead of the bundled test CA (needs --ca-key).
    #[arg(long, requires = "ca_key")]
    pub ca_cert: Option<PathBuf>,
    #[arg(long, requires = "ca_cert")]
    pub ca_key: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CaArgs {
    /// The CA's common name and organisation (the subject is then CN=<name>,O=<name>,C=NO).
    #[arg(long, default_value = "My Test CA", conflicts_with = "subject")]
    pub name: String,
    /// The CA's full subject in RFC 2253 form, most specific first, to mirror a production CA, e.g.
    /// "CN=Testbank CA,O=Testbank ASA,L=Tromsø,ST=Troms,C=NO,organizationIdentifier=NTRNO-123456789".
    #[arg(long)]
    pub subject: Option<String>,
    /// Days of validity from yesterday.
    #[arg(long, default_value_t = 3650)]
    pub days: i64,
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
    let ca = match (&args.ca_dir, &args.ca_cert, &args.ca_key) {
        (Some(dir), _, _) => CertificateAuthority::from_pem(
            &read(&dir.join("cert.pem"))?,
            &read(&dir.join("key.pem"))?,
        )?,
        (None, Some(cert), Some(key)) => CertificateAuthority::from_pem(&read(cert)?, &read(key)?)?,
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
    let (not_before, not_after) = (now - Duration::days(1), now + Duration::days(args.days));
    let ca = match &args.subject {
        Some(text) => CertificateAuthority::generate_with_subject(
            xs2a_core::signing::subject::parse_subject(text)?,
            not_before,
            not_after,
        )?,
        None => CertificateAuthority::generate(&args.name, &args.name, not_before, not_after)?,
    };
    write_pair(&args.out, &ca.cert_pem, &ca.key_pem)?;
    let (_, cert) = x509_parser::parse_x509_certificate(&ca.cert_der)
        .map_err(|e| format!("the new CA certificate does not parse: {e}"))?;
    let subject = DistinguishedName::from_x509(cert.subject()).to_rfc2253();
    println!(
        "Made CA '{subject}' in {out}: trust it with serve --trust-ca {out}/cert.pem, issue from it with \
         cert issue --ca-dir {out}",
        out = args.out.display()
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
