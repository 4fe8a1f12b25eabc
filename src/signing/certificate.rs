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

use super::distinguished_name::{serial_hex, AttributeKind, DistinguishedName};
use super::qc_statements::{decode_psd2, Psd2Attributes, Psd2Role, QC_STATEMENTS_EXTENSION_OID};

/// Why a certificate could not be read. Messages are written for tppMessages text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    #[error("TPP-Signature-Certificate is empty")]
    Empty,
    #[error("TPP-Signature-Certificate is not base64: {0}")]
    NotBase64(String),
    #[error("TPP-Signature-Certificate holds a PEM block labelled '{0}', not CERTIFICATE")]
    WrongPemLabel(String),
    #[error("the PEM armour in TPP-Signature-Certificate has no -----END CERTIFICATE----- line")]
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
    let value = value.replace("\\r", "").replace("\\n", "\n");
    let value = value.trim();
    if value.is_empty() {
        return Err(CertificateError::Empty);
    }
    if value.contains(BEGIN) {
        let mut blocks = pem_blocks(value)?;
        let der = blocks.drain(..).next().ok_or(CertificateError::Empty)?;
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
        let end = body.find(END_CERTIFICATE).ok_or(CertificateError::UnclosedPem)?;
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
        let hint = if compact.contains(['-', '_']) {
            " (it uses '-' or '_', the URL-safe alphabet; the standard alphabet is expected)"
        } else {
            ""
        };
        CertificateError::NotBase64(format!("{e}{hint}"))
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
    pub issuer: DistinguishedName,
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
        let (rest, cert) =
            parse_x509_certificate(der).map_err(|e| CertificateError::NotACertificate(e.to_string()))?;
        if !rest.is_empty() {
            return Err(CertificateError::TrailingBytes(rest.len()));
        }
        let subject = DistinguishedName::from_x509(cert.subject());
        let issuer = DistinguishedName::from_x509(cert.issuer());
        let spki = cert.public_key();
        let (key_algorithm, rsa_public_key) = if spki.algorithm.algorithm == OID_PKCS1_RSAENCRYPTION {
            ("rsa".to_string(), Some(spki.subject_public_key.data.to_vec()))
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
            subject,
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
        self.psd2.as_ref().map(|p| p.roles.as_slice()).unwrap_or(&[])
    }

    pub fn has_role(&self, role: Psd2Role) -> bool {
        self.roles().contains(&role)
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
