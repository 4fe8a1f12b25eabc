//! Issuing test certificates: the sandbox's test CA, eIDAS-like TPP certificates with the PSD2
//! QCStatement, the bank's response-signing certificate and a TLS server certificate. rcgen writes the
//! certificates; the `rsa` crate makes the keys, because rcgen (with ring) cannot generate RSA keys and
//! the interface asks for RSA-SHA256 signatures.

use rand::rngs::OsRng;
use rand::RngCore;
use rcgen::string::PrintableString;
use rcgen::{
    BasicConstraints, CertificateParams, CustomExtension, DnType, DnValue, ExtendedKeyUsagePurpose,
    IsCa, Issuer, KeyIdMethod, KeyPair, KeyUsagePurpose, SerialNumber, PKCS_RSA_SHA256,
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
pub fn tpp_request_defaults(
    name: &str,
    roles: Vec<Psd2Role>,
    now: OffsetDateTime,
) -> TppCertificateRequest {
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
        let (_, cert) = parse_x509_certificate(&der)
            .map_err(|e| format!("the CA certificate cannot be read: {e}"))?;
        let mut subject = rcgen::DistinguishedName::new();
        for atv in cert.subject().iter_attributes() {
            let arcs: Vec<u64> = atv
                .attr_type()
                .iter()
                .ok_or("the CA subject has an OID arc too large")?
                .collect();
            let text = atv.as_str().map_err(|e| {
                format!("the CA subject has a value that is not a plain string: {e}")
            })?;
            let value = match atv.attr_value().tag().0 {
                0x13 => DnValue::PrintableString(
                    PrintableString::try_from(text).map_err(|e| e.to_string())?,
                ),
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
        let mut subject = rcgen::DistinguishedName::new();
        if !organization.is_empty() {
            subject.push(DnType::CountryName, printable("NO")?);
            subject.push(DnType::OrganizationName, organization);
        }
        subject.push(DnType::CommonName, common_name);
        Self::generate_with_subject(subject, not_before, not_after)
    }

    /// A new self-signed CA with this subject, exactly (see `signing::subject` to write one as text).
    pub fn generate_with_subject(
        subject: rcgen::DistinguishedName,
        not_before: OffsetDateTime,
        not_after: OffsetDateTime,
    ) -> Result<Self, String> {
        let (key, key_pem) = new_rsa_key()?;
        let mut params = CertificateParams::default();
        params.distinguished_name = subject;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        params.serial_number = Some(random_serial());
        params.not_before = not_before;
        params.not_after = not_after;
        let cert = params
            .self_signed(&key)
            .map_err(|e| format!("cannot sign the CA certificate: {e}"))?;
        Self::from_pem(&cert.pem(), &key_pem)
    }

    /// The sandbox's bundled test CA (whose key is public: test only).
    pub fn bundled_test_ca() -> Self {
        Self::from_pem(
            include_str!("../../../../fixtures/certs/ca/cert.pem"),
            include_str!("../../../../fixtures/certs/ca/key.pem"),
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
            .push(CustomExtension::from_oid_content(
                QC_STATEMENTS_EXTENSION_ARCS,
                statements,
            ));
        self.sign(params)
    }

    /// The same certificate without any QCStatement: a certificate with no PSD2 roles at all, for testing
    /// that the gate refuses it. `roles`, `nca_name` and `nca_id` are ignored.
    pub fn issue_tpp_without_psd2(
        &self,
        request: &TppCertificateRequest,
    ) -> Result<IssuedCertificate, String> {
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
        let mut params =
            CertificateParams::new(names.clone()).map_err(|e| format!("bad host name: {e}"))?;
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(DnType::CommonName, names[0].as_str());
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        params.not_before = self.not_before;
        params.not_after = self.not_after;
        self.sign(params)
    }

    /// The bank's own response-signing certificate (role PSP_AS), valid as long as the CA.
    pub fn issue_bank_signing(&self) -> Result<IssuedCertificate, String> {
        let mut request =
            tpp_request_defaults("xs2a-sandbox Bank", vec![Psd2Role::PspAs], self.not_before);
        request.not_before = self.not_before;
        request.not_after = self.not_after;
        self.issue_tpp(&request)
    }

    fn tpp_params(&self, request: &TppCertificateRequest) -> Result<CertificateParams, String> {
        let mut params = CertificateParams::default();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(DnType::CountryName, printable(&request.country)?);
        params
            .distinguished_name
            .push(DnType::OrganizationName, request.name.as_str());
        params.distinguished_name.push(
            DnType::CustomDnType(ORGANIZATION_IDENTIFIER.to_vec()),
            DnValue::Utf8String(request.organization_identifier.clone()),
        );
        params
            .distinguished_name
            .push(DnType::CommonName, request.name.as_str());
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::ContentCommitment,
        ];
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
    let key = rsa::RsaPrivateKey::new(&mut OsRng, 2048)
        .map_err(|e| format!("cannot generate an RSA key: {e}"))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::certificate::TppCertificate;
    use crate::signing::trust::{ChainVerdict, TrustStore};
    use time::macros::datetime;

    #[test]
    fn request_defaults_are_deterministic() {
        let now = datetime!(2026-03-10 12:00 UTC);
        let a = tpp_request_defaults("Acme AS", vec![Psd2Role::PspAi], now);
        assert_eq!(
            a,
            tpp_request_defaults("Acme AS", vec![Psd2Role::PspAi], now)
        );
        assert!(a.organization_identifier.starts_with("PSDNO-FSA-"));
        let hex = &a.organization_identifier["PSDNO-FSA-".len()..];
        assert!(
            hex.len() == 6
                && hex
                    .chars()
                    .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()),
            "{hex}"
        );
        assert_ne!(
            a.organization_identifier,
            tpp_request_defaults("Other AS", vec![], now).organization_identifier
        );
        assert_eq!(a.not_before, datetime!(2026-03-09 12:00 UTC));
        assert_eq!(a.not_after - a.not_before, Duration::days(730));
        assert_eq!((a.country.as_str(), a.nca_id.as_str()), ("NO", "NO-FSA"));
    }

    #[test]
    fn issued_tpp_certificates_read_back_and_chain() {
        let ca = CertificateAuthority::bundled_test_ca();
        let request = tpp_request_defaults(
            "Acme, Payments & Co",
            vec![Psd2Role::PspPi, Psd2Role::PspAi],
            datetime!(2026-01-01 00:00 UTC),
        );
        let issued = ca.issue_tpp(&request).unwrap();
        let cert = TppCertificate::from_der(&issued.cert_der).unwrap();
        assert_eq!(cert.roles(), &[Psd2Role::PspPi, Psd2Role::PspAi]);
        assert_eq!(
            cert.subject.to_rfc2253(),
            format!(
                "CN=Acme\\, Payments & Co,organizationIdentifier={},O=Acme\\, Payments & Co,C=NO",
                request.organization_identifier
            )
        );
        assert_eq!(cert.serial.len(), 16);
        assert!((0x01..=0x7f).contains(&cert.serial[0]));
        assert_eq!(
            (cert.not_before, cert.not_after),
            (request.not_before, request.not_after)
        );
        assert_eq!(
            TrustStore::with_bundled_test_ca().check_chain(&issued.cert_der),
            ChainVerdict::Trusted {
                ca_subject: "CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO".into()
            }
        );
        assert!(issued.key_pem.starts_with("-----BEGIN PRIVATE KEY-----"));
        let key = rsa_key_pair(&issued.key_pem).unwrap();
        let (_, parsed) = parse_x509_certificate(&issued.cert_der).unwrap();
        assert_eq!(
            key.public_key_raw(),
            &parsed.public_key().subject_public_key.data[..]
        );
    }

    #[test]
    fn issuer_name_is_byte_identical_to_the_ca_subject() {
        let ca = CertificateAuthority::bundled_test_ca();
        let issued = ca.issue_server(&["sandbox.local"]).unwrap();
        let (_, leaf) = parse_x509_certificate(&issued.cert_der).unwrap();
        let (_, root) = parse_x509_certificate(&ca.cert_der).unwrap();
        assert_eq!(leaf.issuer().as_raw(), root.subject().as_raw());
        let names = format!(
            "{:?}",
            leaf.subject_alternative_name()
                .unwrap()
                .unwrap()
                .value
                .general_names
        );
        let loopback6 = format!("{:?}", std::net::Ipv6Addr::LOCALHOST.octets());
        for host in [
            "\"sandbox.local\"",
            "\"localhost\"",
            "[127, 0, 0, 1]",
            &loopback6,
        ] {
            assert!(names.contains(host), "{host} in {names}");
        }
    }

    #[test]
    fn a_generated_ca_is_a_ca_and_reloads() {
        let ca = CertificateAuthority::generate(
            "Throwaway CA",
            "",
            datetime!(2025-01-01 00:00 UTC),
            datetime!(2026-01-01 00:00 UTC),
        )
        .unwrap();
        let (_, cert) = parse_x509_certificate(&ca.cert_der).unwrap();
        assert!(cert.is_ca());
        assert!(cert.key_usage().unwrap().unwrap().value.key_cert_sign());
        assert_eq!(cert.subject().to_string(), "CN=Throwaway CA");
        let again = CertificateAuthority::from_pem(&ca.cert_pem, &ca.key_pem).unwrap();
        assert_eq!(again.cert_der, ca.cert_der);
        assert!(CertificateAuthority::from_pem(&ca.cert_pem, "nonsense").is_err());
    }

    #[test]
    fn the_bank_certificate_is_for_the_bank() {
        let issued = CertificateAuthority::bundled_test_ca()
            .issue_bank_signing()
            .unwrap();
        let cert = TppCertificate::from_der(&issued.cert_der).unwrap();
        assert_eq!(cert.common_name.as_deref(), Some("xs2a-sandbox Bank"));
        assert_eq!(cert.roles(), &[Psd2Role::PspAs]);
    }
}
