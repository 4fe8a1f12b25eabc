//! The TPP's certificate as the gate needs it: read from the TPP-Signature-Certificate header (base64 DER,
//! or the PEM that clients often paste instead), parsed once into the facts the checks use — serial,
//! issuer and subject names, validity, the RSA key in the form `ring` verifies with, and the PSD2 roles.

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use x509_parser::oid_registry::{OID_KEY_TYPE_EC_PUBLIC_KEY, OID_PKCS1_RSAENCRYPTION};
use x509_parser::prelude::parse_x509_certificate;

use super::distinguished_name::{AttributeKind, DistinguishedName};
use super::key_id::serial::serial_hex;
use super::qc_statements::{decode_psd2, Psd2Attributes, Psd2Role, QC_STATEMENTS_EXTENSION_OID};

/// Why a certificate could not be read. Messages are written for tppMessages text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    #[error("TPP-Signature-Certificate is empty")]
    Empty,
    /// The whole message, with the likely cause (`certificate_hints::not_base64`).
    #[error("{0}")]
    NotBase64(String),
    #[error("TPP-Signature-Certificate holds a PEM block labelled '{0}', not CERTIFICATE")]
    WrongPemLabel(String),
    #[error("the PEM armour in TPP-Signature-Certificate has no -----END CERTIFICATE----- line (likely cause: the value was cut at a line break; send the DER in base64 on one line, without armour)")]
    UnclosedPem,
    #[error("TPP-Signature-Certificate is not a certificate: {0}")]
    NotACertificate(String),
    #[error("TPP-Signature-Certificate has {0} bytes after the certificate")]
    TrailingBytes(usize),
    #[error("the certificate's PSD2 QCStatement cannot be read: {0}")]
    BadQcStatement(String),
}

/// The DER from a TPP-Signature-Certificate header, and whether it came wrapped in PEM armour (which the
/// specification does not ask for, so the caller warns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedHeader {
    pub der: Vec<u8>,
    pub was_pem: bool,
}

/// Standard alphabet, padding optional: clients strip '=' more often than they get the alphabet wrong.
const LENIENT_BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

const BEGIN: &str = "-----BEGIN ";
const END_CERTIFICATE: &str = "-----END CERTIFICATE-----";

/// Reads the TPP-Signature-Certificate header: base64 DER (whitespace and missing padding tolerated) or
/// PEM armour, also with its newlines flattened to spaces or written as `\n` escapes.
pub fn decode_certificate_header(value: &str) -> Result<DecodedHeader, CertificateError> {
    // Fast path for what well-behaved clients send: plain base64 with nothing to clean up. This runs on
    // every request, so it avoids the copies the tolerant path below makes.
    let plain = !value.is_empty()
        && !value
            .bytes()
            .any(|b| b.is_ascii_whitespace() || b == b'\\' || b == b'-');
    if plain {
        if let Ok(der) = LENIENT_BASE64.decode(value) {
            return Ok(DecodedHeader {
                der,
                was_pem: false,
            });
        }
    }
    let value = value.replace("\\r", "").replace("\\n", "\n");
    let value = value.trim();
    if value.is_empty() {
        return Err(CertificateError::Empty);
    }
    if value.contains(BEGIN) {
        // A pasted chain starts with the TPP's own certificate; the rest is ignored.
        let der = pem_blocks(value)?
            .into_iter()
            .next()
            .ok_or(CertificateError::Empty)?;
        return Ok(DecodedHeader { der, was_pem: true });
    }
    Ok(DecodedHeader {
        der: decode_base64(value)?,
        was_pem: false,
    })
}

/// Every CERTIFICATE block in a PEM text, in order.
pub fn pem_blocks(text: &str) -> Result<Vec<Vec<u8>>, CertificateError> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let after = &rest[start + BEGIN.len()..];
        let label_end = after.find("-----").ok_or(CertificateError::UnclosedPem)?;
        let label = &after[..label_end];
        if label != "CERTIFICATE" {
            return Err(CertificateError::WrongPemLabel(label.to_string()));
        }
        let body = &after[label_end + 5..];
        let end = body
            .find(END_CERTIFICATE)
            .ok_or(CertificateError::UnclosedPem)?;
        blocks.push(decode_base64(&body[..end])?);
        rest = &body[end + END_CERTIFICATE.len()..];
    }
    Ok(blocks)
}

fn decode_base64(text: &str) -> Result<Vec<u8>, CertificateError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() {
        return Err(CertificateError::Empty);
    }
    LENIENT_BASE64.decode(&compact).map_err(|e| {
        CertificateError::NotBase64(super::certificate_hints::not_base64(&compact, &e))
    })
}

/// The facts of a TPP certificate the gate checks against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TppCertificate {
    pub der_sha256: [u8; 32],
    /// Big-endian bytes as in the DER (possibly with a leading 0x00).
    pub serial: Vec<u8>,
    /// Upper-case hex, no leading zeros: the form keyId's SN must take.
    pub serial_hex: String,
    pub subject: DistinguishedName,
    /// The subject per RFC 2253, written once (the traffic log names it for every request).
    pub subject_rfc2253: String,
    pub issuer: DistinguishedName,
    /// The issuer per RFC 2253, written once: keyId's CA part is compared with it on every request.
    pub issuer_rfc2253: String,
    pub common_name: Option<String>,
    pub organization_identifier: Option<String>,
    pub organization: Option<String>,
    pub not_before: OffsetDateTime,
    pub not_after: OffsetDateTime,
    /// PKCS#1 RSAPublicKey DER, as ring's `RSA_PKCS1_2048_8192_SHA256` wants it.
    pub rsa_public_key: Option<Vec<u8>>,
    /// "rsa", "ec" or the dotted OID of another key type.
    pub key_algorithm: String,
    /// The PSD2 QCStatement, if the certificate has one.
    pub psd2: Option<Psd2Attributes>,
}

impl TppCertificate {
    /// Parses one DER certificate; bytes after it are refused rather than ignored.
    pub fn from_der(der: &[u8]) -> Result<TppCertificate, CertificateError> {
        let (rest, cert) = parse_x509_certificate(der)
            .map_err(|e| CertificateError::NotACertificate(e.to_string()))?;
        if !rest.is_empty() {
            return Err(CertificateError::TrailingBytes(rest.len()));
        }
        let subject = DistinguishedName::from_x509(cert.subject());
        let issuer = DistinguishedName::from_x509(cert.issuer());
        let spki = cert.public_key();
        let (key_algorithm, rsa_public_key) = if spki.algorithm.algorithm == OID_PKCS1_RSAENCRYPTION
        {
            (
                "rsa".to_string(),
                Some(spki.subject_public_key.data.to_vec()),
            )
        } else if spki.algorithm.algorithm == OID_KEY_TYPE_EC_PUBLIC_KEY {
            ("ec".to_string(), None)
        } else {
            (spki.algorithm.algorithm.to_id_string(), None)
        };
        let psd2 = match cert
            .extensions()
            .iter()
            .find(|e| e.oid.to_id_string() == QC_STATEMENTS_EXTENSION_OID)
        {
            Some(ext) => decode_psd2(ext.value).map_err(CertificateError::BadQcStatement)?,
            None => None,
        };
        let serial = cert.raw_serial().to_vec();
        Ok(TppCertificate {
            der_sha256: Sha256::digest(der).into(),
            serial_hex: serial_hex(&serial),
            serial,
            common_name: subject.first(&AttributeKind::CN).map(str::to_string),
            organization_identifier: subject
                .first(&AttributeKind::OrganizationIdentifier)
                .map(str::to_string),
            organization: subject.first(&AttributeKind::O).map(str::to_string),
            subject_rfc2253: subject.to_rfc2253(),
            subject,
            issuer_rfc2253: issuer.to_rfc2253(),
            issuer,
            not_before: cert.validity().not_before.to_datetime(),
            not_after: cert.validity().not_after.to_datetime(),
            rsa_public_key,
            key_algorithm,
            psd2,
        })
    }

    /// The PSD2 roles; empty when the certificate has no PSD2 statement.
    pub fn roles(&self) -> &[Psd2Role] {
        self.psd2
            .as_ref()
            .map(|p| p.roles.as_slice())
            .unwrap_or(&[])
    }

    pub fn has_role(&self, role: Psd2Role) -> bool {
        self.roles().contains(&role)
    }

    /// The certificate's SHA-256 fingerprint as `openssl x509 -fingerprint -sha256` prints it (upper-case
    /// hex pairs joined by colons), so a person can compare it with their own file.
    pub fn sha256_fingerprint(&self) -> String {
        self.der_sha256
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(":")
    }

    /// Why the certificate is not valid at `at`, if it is not. Not cached: the clock can move.
    pub fn validity_problem(&self, at: OffsetDateTime) -> Option<String> {
        let fmt = |t: OffsetDateTime| t.date().to_string();
        if at < self.not_before {
            Some(format!(
                "The signing certificate (serial {}) is not valid before {}.",
                self.serial_hex,
                fmt(self.not_before)
            ))
        } else if at > self.not_after {
            Some(format!(
                "The signing certificate (serial {}) expired on {}.",
                self.serial_hex,
                fmt(self.not_after)
            ))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;
    use time::macros::datetime;

    const AISP: &str = include_str!("../../../../fixtures/certs/aisp/cert.pem");
    const AISP_KEY: &str = include_str!("../../../../fixtures/certs/aisp/key.pem");

    fn load(pem: &str) -> TppCertificate {
        TppCertificate::from_der(&pem_blocks(pem).unwrap()[0]).unwrap()
    }

    fn aisp_der() -> Vec<u8> {
        pem_blocks(AISP).unwrap().remove(0)
    }

    #[test]
    fn the_fingerprint_is_written_as_openssl_prints_it() {
        // `openssl x509 -noout -fingerprint -sha256 -in fixtures/certs/aisp/cert.pem`
        assert_eq!(
            load(AISP).sha256_fingerprint(),
            "5A:41:85:75:28:25:A6:36:8D:69:F6:B6:DB:4E:1C:A2:39:81:9D:C7:20:36:2E:2C:F3:1E:ED:57:09:D4:3B:71"
        );
    }

    #[test]
    fn plain_base64_is_read() {
        let der = aisp_der();
        let header = STANDARD.encode(&der);
        assert_eq!(
            decode_certificate_header(&header).unwrap(),
            DecodedHeader {
                der: der.clone(),
                was_pem: false
            }
        );
        let unpadded = header.trim_end_matches('=');
        assert_eq!(decode_certificate_header(unpadded).unwrap().der, der);
        let wrapped: String = header
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("\r\n ");
        assert_eq!(decode_certificate_header(&wrapped).unwrap().der, der);
    }

    #[test]
    fn pem_armour_is_read_and_reported() {
        let der = aisp_der();
        for variant in [
            AISP.to_string(),
            AISP.replace('\n', " "),
            AISP.replace('\n', "\\n"),
            AISP.replace('\n', "\\r\\n"),
        ] {
            let decoded = decode_certificate_header(&variant).unwrap();
            assert!(decoded.was_pem, "{variant}");
            assert_eq!(decoded.der, der);
        }
    }

    #[test]
    fn bad_headers_say_what_is_wrong() {
        assert_eq!(
            decode_certificate_header("  "),
            Err(CertificateError::Empty)
        );
        assert!(matches!(
            decode_certificate_header("not*base64"),
            Err(CertificateError::NotBase64(_))
        ));
        let url_safe = base64::engine::general_purpose::URL_SAFE.encode(aisp_der());
        let url_safe = decode_certificate_header(&url_safe)
            .unwrap_err()
            .to_string();
        assert!(url_safe.contains("URL-safe"), "{url_safe}");
        let placeholder = decode_certificate_header("hello_world")
            .unwrap_err()
            .to_string();
        assert!(!placeholder.contains("URL-safe"), "{placeholder}");
        assert!(matches!(
            decode_certificate_header(AISP_KEY),
            Err(CertificateError::WrongPemLabel(label)) if label == "PRIVATE KEY"
        ));
        let cut = &AISP[..AISP.find("-----END").unwrap()];
        assert_eq!(
            decode_certificate_header(cut),
            Err(CertificateError::UnclosedPem)
        );
    }

    #[test]
    fn bytes_that_are_not_a_certificate_are_refused() {
        let err = TppCertificate::from_der(b"hello").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("TPP-Signature-Certificate is not a certificate: "),
            "{err}"
        );
        let mut der = aisp_der();
        der.extend([0, 0]);
        assert_eq!(
            TppCertificate::from_der(&der),
            Err(CertificateError::TrailingBytes(2))
        );
    }

    #[test]
    fn the_aisp_fixture_has_exactly_psp_ai() {
        let cert = load(AISP);
        assert_eq!(cert.roles(), &[Psd2Role::PspAi]);
        assert!(cert.has_role(Psd2Role::PspAi) && !cert.has_role(Psd2Role::PspPi));
        let psd2 = cert.psd2.as_ref().unwrap();
        assert_eq!(
            (psd2.nca_name.as_str(), psd2.nca_id.as_str()),
            ("Finanstilsynet", "NO-FSA")
        );
        assert_eq!(cert.common_name.as_deref(), Some("Sandbox AISP AS"));
        assert_eq!(cert.organization.as_deref(), Some("Sandbox AISP AS"));
        assert!(cert
            .organization_identifier
            .as_deref()
            .unwrap()
            .starts_with("PSDNO-FSA-"));
        assert_eq!(
            cert.issuer.to_rfc2253(),
            "CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO"
        );
        assert_eq!(cert.key_algorithm, "rsa");
        assert_eq!(cert.serial_hex.len(), 32);
        assert_eq!(
            cert.der_sha256,
            <[u8; 32]>::from(Sha256::digest(aisp_der()))
        );
    }

    #[test]
    fn role_combinations_of_the_fixtures() {
        let both = load(include_str!(
            "../../../../fixtures/certs/aisp-pisp/cert.pem"
        ));
        assert_eq!(both.roles(), &[Psd2Role::PspAi, Psd2Role::PspPi]);
        let pisp = load(include_str!("../../../../fixtures/certs/pisp/cert.pem"));
        assert_eq!(pisp.roles(), &[Psd2Role::PspPi]);
        let bank = load(include_str!("../../../../fixtures/certs/bank/cert.pem"));
        assert_eq!(bank.roles(), &[Psd2Role::PspAs]);
        assert_eq!(bank.common_name.as_deref(), Some("xs2a-sandbox Bank"));
        let none = load(include_str!("../../../../fixtures/certs/no-roles/cert.pem"));
        assert_eq!(none.psd2, None);
        assert!(none.roles().is_empty());
    }

    #[test]
    fn validity_is_checked_against_a_given_time() {
        let expired = load(include_str!("../../../../fixtures/certs/expired/cert.pem"));
        let at = datetime!(2026-01-01 00:00 UTC);
        let problem = expired.validity_problem(at).unwrap();
        assert!(problem.contains("expired on 2021-01-01"), "{problem}");
        assert_eq!(
            expired.validity_problem(datetime!(2020-06-01 00:00 UTC)),
            None
        );
        let aisp = load(AISP);
        assert_eq!(aisp.validity_problem(at), None);
        assert!(aisp
            .validity_problem(datetime!(2024-12-31 00:00 UTC))
            .unwrap()
            .contains("not valid before"));
    }

    #[test]
    fn the_rsa_key_is_what_ring_verifies_with() {
        let key = crate::signing::rsa_sha256::SigningKey::from_pem(AISP_KEY).unwrap();
        let signature = key.sign(b"date: today");
        let public = load(AISP).rsa_public_key.unwrap();
        let verifier = ring::signature::UnparsedPublicKey::new(
            &ring::signature::RSA_PKCS1_2048_8192_SHA256,
            public,
        );
        assert!(verifier.verify(b"date: today", &signature).is_ok());
        assert!(verifier.verify(b"date: tomorrow", &signature).is_err());
    }
}
