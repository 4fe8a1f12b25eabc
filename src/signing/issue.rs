//! Issuing test certificates: the sandbox's test CA, eIDAS-like TPP certificates with the PSD2
//! QCStatement, the bank's response-signing certificate and a TLS server certificate. rcgen writes the
//! certificates; the `rsa` crate makes the keys, because rcgen (with ring) cannot generate RSA keys and
//! the interface asks for RSA-SHA256 signatures.

use rand::rngs::OsRng;
use rand::RngCore;
use rcgen::string::PrintableString;
use rcgen::{
    BasicConstraints, CertificateParams, CustomExtension, DnType, DnValue, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyIdMethod, KeyPair, KeyUsagePurpose, SanType, SerialNumber, PKCS_RSA_SHA256,
};
use rsa::pkcs8::{EncodePrivateKey, LineEnding};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};
use x509_parser::extensions::ParsedExtension;
use x509_parser::prelude::parse_x509_certificate;

use super::certificate::pem_blocks;
use super::qc_statements::{
    encode_qc_statements, Psd2Attributes, Psd2Role, QC_STATEMENTS_EXTENSION_ARCS,
};

const ORGANIZATION_IDENTIFIER: &[u64] = &[2, 5, 4, 97];

/// A certificate and its private key, both PEM (the key as PKCS#8 "PRIVATE KEY").
#[derive(Debug, Clone)]
pub struct IssuedCertificate {
    pub cert_pem: String,
    pub key_pem: String,
    pub cert_der: Vec<u8>,
}

/// What a TPP certificate says about its holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TppCertificateRequest {
    /// Organisation name, also the common name.
    pub name: String,
    /// eIDAS organisation identifier, e.g. `PSDNO-FSA-123456`.
    pub organization_identifier: String,
    pub roles: Vec<Psd2Role>,
    /// The national competent authority, e.g. "Finanstilsynet".
    pub nca_name: String,
    /// e.g. "NO-FSA".
    pub nca_id: String,
    /// ISO 3166 code, e.g. "NO".
    pub country: String,
    pub not_before: OffsetDateTime,
    pub not_after: OffsetDateTime,
}

/// A Norwegian TPP valid for two years from yesterday; the organisation identifier is derived from the
/// name so that re-issuing for the same name keeps it.
pub fn tpp_request_defaults(name: &str, roles: Vec<Psd2Role>, now: OffsetDateTime) -> TppCertificateRequest {
    let hash = Sha256::digest(name.as_bytes());
    let hex: String = hash.iter().take(3).map(|b| format!("{b:02X}")).collect();
    let not_before = now - Duration::days(1);
    TppCertificateRequest {
        name: name.to_string(),
        organization_identifier: format!("PSDNO-FSA-{hex}"),
        roles,
        nca_name: "Finanstilsynet".into(),
        nca_id: "NO-FSA".into(),
        country: "NO".into(),
        not_before,
        not_after: not_before + Duration::days(730),
    }
}

/// A CA that can issue certificates: its PEM and what rcgen needs to sign as it.
pub struct CertificateAuthority {
    pub cert_pem: String,
    pub key_pem: String,
    pub cert_der: Vec<u8>,
    pub not_before: OffsetDateTime,
    pub not_after: OffsetDateTime,
    /// The subject exactly as in the CA certificate (order and string types), so issued certificates
    /// carry an issuer name byte-identical to it.
    subject: rcgen::DistinguishedName,
    subject_key_id: Vec<u8>,
}

impl CertificateAuthority {
    /// Loads a CA from its certificate and PKCS#8 RSA key.
    pub fn from_pem(cert_pem: &str, key_pem: &str) -> Result<Self, String> {
        let der = pem_blocks(cert_pem)
            .map_err(|e| e.to_string())?
            .into_iter()
            .next()
            .ok_or("the CA PEM holds no certificate")?;
        rsa_key_pair(key_pem)?;
        let (_, cert) = parse_x509_certificate(&der).map_err(|e| format!("the CA certificate cannot be read: {e}"))?;
        let mut subject = rcgen::DistinguishedName::new();
        for atv in cert.subject().iter_attributes() {
            let arcs: Vec<u64> = atv
                .attr_type()
                .iter()
                .ok_or("the CA subject has an OID arc too large")?
                .collect();
            let text = atv
                .as_str()
                .map_err(|e| format!("the CA subject has a value that is not a plain string: {e}"))?;
            let value = match atv.attr_value().tag().0 {
                0x13 => DnValue::PrintableString(PrintableString::try_from(text).map_err(|e| e.to_string())?),
                _ => DnValue::Utf8String(text.to_string()),
            };
            subject.push(DnType::from_oid(&arcs), value);
        }
        let subject_key_id = cert
            .extensions()
            .iter()
            .find_map(|e| match e.parsed_extension() {
                ParsedExtension::SubjectKeyIdentifier(id) => Some(id.0.to_vec()),
                _ => None,
            })
            .unwrap_or_default();
        Ok(CertificateAuthority {
            cert_pem: cert_pem.to_string(),
            key_pem: key_pem.to_string(),
            not_before: cert.validity().not_before.to_datetime(),
            not_after: cert.validity().not_after.to_datetime(),
            cert_der: der,
            subject,
            subject_key_id,
        })
    }

    /// A new self-signed CA, subject `CN=<common_name>,O=<organization>,C=NO`; with an empty organization
    /// the subject is just the CN (as for throw-away CAs in tests).
    pub fn generate(
        common_name: &str,
        organization: &str,
        not_before: OffsetDateTime,
        not_after: OffsetDateTime,
    ) -> Result<Self, String> {
        let (key, key_pem) = new_rsa_key()?;
        let mut params = CertificateParams::default();
        params.distinguished_name = rcgen::DistinguishedName::new();
        if !organization.is_empty() {
            params.distinguished_name.push(DnType::CountryName, printable("NO")?);
            params.distinguished_name.push(DnType::OrganizationName, organization);
        }
        params.distinguished_name.push(DnType::CommonName, common_name);
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.serial_number = Some(random_serial());
        params.not_before = not_before;
        params.not_after = not_after;
        let cert = params.self_signed(&key).map_err(|e| format!("cannot sign the CA certificate: {e}"))?;
        Self::from_pem(&cert.pem(), &key_pem)
    }

    /// The sandbox's bundled test CA (whose key is public: test only).
    pub fn bundled_test_ca() -> Self {
        Self::from_pem(
            include_str!("../../fixtures/certs/ca/cert.pem"),
            include_str!("../../fixtures/certs/ca/key.pem"),
        )
        .expect("the bundled test CA files are valid")
    }

    /// An eIDAS-like qualified seal certificate for a TPP, with the PSD2 QCStatement.
    pub fn issue_tpp(&self, request: &TppCertificateRequest) -> Result<IssuedCertificate, String> {
        let statements = encode_qc_statements(&Psd2Attributes {
            roles: request.roles.clone(),
            nca_name: request.nca_name.clone(),
            nca_id: request.nca_id.clone(),
        });
        let mut params = self.tpp_params(request)?;
        params
            .custom_extensions
            .push(CustomExtension::from_oid_content(QC_STATEMENTS_EXTENSION_ARCS, statements));
        self.sign(params)
    }

    /// The same certificate without any QCStatement: a certificate with no PSD2 roles at all, for testing
    /// that the gate refuses it. `roles`, `nca_name` and `nca_id` are ignored.
    pub fn issue_tpp_without_psd2(&self, request: &TppCertificateRequest) -> Result<IssuedCertificate, String> {
        let params = self.tpp_params(request)?;
        self.sign(params)
    }

    /// A TLS server certificate for the sandbox: the given hosts plus localhost, 127.0.0.1 and ::1,
    /// valid as long as the CA.
    pub fn issue_server(&self, hosts: &[&str]) -> Result<IssuedCertificate, String> {
        let mut names: Vec<String> = hosts.iter().map(|h| h.to_string()).collect();
        for default in ["localhost", "127.0.0.1", "::1"] {
            if !names.iter().any(|n| n == default) {
                names.push(default.to_string());
            }
        }
        let mut params = CertificateParams::new(names.clone()).map_err(|e| format!("bad host name: {e}"))?;
        params.distinguished_name = rcgen::DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, names[0].as_str());
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment];
        params.not_before = self.not_before;
        params.not_after = self.not_after;
        debug_assert!(params.subject_alt_names.iter().any(|s| matches!(s, SanType::IpAddress(_))));
        self.sign(params)
    }

    /// The bank's own response-signing certificate (role PSP_AS), valid as long as the CA.
    pub fn issue_bank_signing(&self) -> Result<IssuedCertificate, String> {
        let mut request = tpp_request_defaults("xs2a-sandbox Bank", vec![Psd2Role::PspAs], self.not_before);
        request.not_before = self.not_before;
        request.not_after = self.not_after;
        self.issue_tpp(&request)
    }

    fn tpp_params(&self, request: &TppCertificateRequest) -> Result<CertificateParams, String> {
        let mut params = CertificateParams::default();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params.distinguished_name.push(DnType::CountryName, printable(&request.country)?);
        params.distinguished_name.push(DnType::OrganizationName, request.name.as_str());
        params.distinguished_name.push(
            DnType::CustomDnType(ORGANIZATION_IDENTIFIER.to_vec()),
            DnValue::Utf8String(request.organization_identifier.clone()),
        );
        params.distinguished_name.push(DnType::CommonName, request.name.as_str());
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::ContentCommitment];
        params.not_before = request.not_before;
        params.not_after = request.not_after;
        Ok(params)
    }

    /// Signs with a fresh RSA key and a random serial, adding the authority key identifier.
    fn sign(&self, mut params: CertificateParams) -> Result<IssuedCertificate, String> {
        let (key, key_pem) = new_rsa_key()?;
        params.serial_number = Some(random_serial());
        params.use_authority_key_identifier_extension = !self.subject_key_id.is_empty();
        let ca_key = rsa_key_pair(&self.key_pem)?;
        let mut ca_params = CertificateParams::default();
        ca_params.distinguished_name = self.subject.clone();
        ca_params.key_identifier_method = KeyIdMethod::PreSpecified(self.subject_key_id.clone());
        let issuer = Issuer::new(ca_params, ca_key);
        let cert = params
            .signed_by(&key, &issuer)
            .map_err(|e| format!("cannot sign the certificate: {e}"))?;
        Ok(IssuedCertificate {
            cert_pem: cert.pem(),
            key_pem,
            cert_der: cert.der().to_vec(),
        })
    }
}

fn printable(text: &str) -> Result<DnValue, String> {
    PrintableString::try_from(text)
        .map(DnValue::PrintableString)
        .map_err(|e| format!("'{text}' cannot be a PrintableString: {e}"))
}

/// 16 random bytes, the first in 0x01..=0x7f: positive without a leading zero byte, always 16 bytes long.
fn random_serial() -> SerialNumber {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    bytes[0] = 1 + bytes[0] % 0x7f;
    SerialNumber::from_slice(&bytes)
}

fn new_rsa_key() -> Result<(KeyPair, String), String> {
    let key = rsa::RsaPrivateKey::new(&mut OsRng, 2048).map_err(|e| format!("cannot generate an RSA key: {e}"))?;
    let pem = key
        .to_pkcs8_pem(LineEnding::LF)
        .map_err(|e| format!("cannot encode the RSA key: {e}"))?
        .to_string();
    Ok((rsa_key_pair(&pem)?, pem))
}

fn rsa_key_pair(pkcs8_pem: &str) -> Result<KeyPair, String> {
    KeyPair::from_pkcs8_pem_and_sign_algo(pkcs8_pem, &PKCS_RSA_SHA256)
        .map_err(|e| format!("not a PKCS#8 RSA private key: {e}"))
}
