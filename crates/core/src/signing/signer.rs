//! The signing side (TPPs, and the bank for its responses): what a TPP must add to a request (X-Request-ID, Date, Digest,
//! TPP-Signature-Certificate, Signature). Used by the `sign` command, the workbench and the tests, so the
//! sandbox's own client and its gate can never drift apart.

use super::distinguished_name::DistinguishedName;
use super::headers::HeaderSink;
use super::key_id::serial::serial_hex;
use super::rsa_sha256::SigningKey;
use super::{digest, http_date, rfc2047, signature_header, signing_string};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use std::path::Path;
use time::OffsetDateTime;

/// A TPP's certificate and private key, ready to sign.
#[derive(Clone)]
pub struct SigningCredentials {
    key: SigningKey,
    cert_der: Vec<u8>,
    key_id: String,
}

/// Which Digest algorithm to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DigestAlgorithm {
    #[default]
    Sha256,
    Sha512,
}

/// Choices a TPP client makes; the defaults are what the interface asks for (docs/interface.md#signing-every-request).
#[derive(Debug, Clone)]
pub struct SignOptions {
    /// Sign `(request-target)` first (not required by the interface, common in clients).
    pub request_target: bool,
    /// Wrap the Signature header as `=?utf-8?B?...?=` (docs/interface.md#signing-every-request, item 6).
    pub rfc2047: bool,
    pub digest: DigestAlgorithm,
    /// Send a Digest even without a body (some clients do on GET).
    pub digest_without_body: bool,
    /// The signed-header list to use instead of the default order.
    pub signed_headers: Option<Vec<String>>,
    /// Overrides keyId (to test refusals and tolerated variants).
    pub key_id: Option<String>,
}

impl Default for SignOptions {
    fn default() -> Self {
        SignOptions {
            request_target: true,
            rfc2047: false,
            digest: DigestAlgorithm::Sha256,
            digest_without_body: false,
            signed_headers: None,
            key_id: None,
        }
    }
}

impl SigningCredentials {
    /// Reads a PEM certificate and a PEM private key (PKCS#8 or PKCS#1).
    pub fn from_pem(cert_pem: &str, key_pem: &str) -> Result<Self, String> {
        let key = SigningKey::from_pem(key_pem)?;
        let cert_der = pem_to_der(cert_pem)?;
        let (_, cert) = x509_parser::parse_x509_certificate(&cert_der)
            .map_err(|e| format!("the certificate does not parse: {e}"))?;
        let issuer = DistinguishedName::from_x509(cert.issuer());
        let key_id = format!(
            "SN={},CA={}",
            serial_hex(cert.raw_serial()),
            issuer.to_rfc2253()
        );
        Ok(SigningCredentials {
            key,
            cert_der,
            key_id,
        })
    }

    /// True when the private key is the one the certificate's public key belongs to.
    pub fn key_matches_certificate(&self) -> bool {
        crate::signing::certificate::TppCertificate::from_der(&self.cert_der)
            .ok()
            .and_then(|c| c.rsa_public_key)
            .is_some_and(|theirs| theirs == self.key.public_key())
    }

    /// The certificate signed with, parsed (its fingerprint and organisation say which TPP this is).
    pub fn certificate(
        &self,
    ) -> Result<
        crate::signing::certificate::TppCertificate,
        crate::signing::certificate::CertificateError,
    > {
        crate::signing::certificate::TppCertificate::from_der(&self.cert_der)
    }

    /// Reads `cert.pem` and `key.pem` from a directory made by `xs2a-sandbox cert issue`.
    pub fn from_dir(dir: &Path) -> Result<Self, String> {
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name))
                .map_err(|e| format!("cannot read {}: {e}", dir.join(name).display()))
        };
        Self::from_pem(&read("cert.pem")?, &read("key.pem")?)
    }

    /// The value of TPP-Signature-Certificate: base64 of the DER.
    pub fn certificate_header(&self) -> String {
        STANDARD.encode(&self.cert_der)
    }

    /// `SN=<serial>,CA=<issuer>` as the interface writes it (docs/interface.md#signing-every-request).
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// Signs arbitrary bytes with RSA-SHA256 (PKCS#1 v1.5), in ring.
    pub fn sign_bytes(&self, message: &[u8]) -> Vec<u8> {
        self.key.sign(message)
    }

    /// Adds X-Request-ID and Date (each when absent), Digest, TPP-Signature-Certificate and Signature
    /// to `headers` for a request with this method, path and query, and body, dated `now`; returns the
    /// signing string it signed.
    pub fn sign(
        &self,
        method: &str,
        path_and_query: &str,
        headers: &mut (impl HeaderSink + ?Sized),
        body: &[u8],
        now: OffsetDateTime,
        options: &SignOptions,
    ) -> String {
        if !headers.has("date") {
            headers.set("date", http_date::format(now));
        }
        if !body.is_empty() || options.digest_without_body {
            headers.set(
                "digest",
                match options.digest {
                    DigestAlgorithm::Sha256 => digest::sha256(body),
                    DigestAlgorithm::Sha512 => digest::sha512(body),
                },
            );
        }
        headers.set("tpp-signature-certificate", self.certificate_header());
        if !headers.has("x-request-id") {
            headers.set("x-request-id", uuid::Uuid::new_v4().to_string());
        }

        let names = options.signed_headers.clone().unwrap_or_else(|| {
            let mut names = Vec::new();
            if options.request_target {
                names.push(signing_string::REQUEST_TARGET.to_owned());
            }
            names.extend(
                super::steps::SIGNING_CANDIDATES
                    .iter()
                    .filter(|name| headers.has(name))
                    .map(|name| name.to_string()),
            );
            names
        });
        let text = signing_string::build(&names, method, path_and_query, headers)
            .expect("the signer lists only headers the request carries");
        let signature = self.sign_bytes(text.as_bytes());
        let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let key_id = options.key_id.as_deref().unwrap_or(&self.key_id);
        let mut value = signature_header::format(key_id, "rsa-sha256", &name_refs, &signature);
        // docs/interface.md#signing-every-request, item 6: a value with non-ASCII characters (e.g. an issuer named "Bærum CA") must be
        // RFC 2047-wrapped; header values cannot carry it raw.
        if options.rfc2047 || !value.is_ascii() {
            value = rfc2047::encode_utf8(&value);
        }
        headers.set("signature", value);
        text
    }
}

/// The DER inside a PEM certificate (the first CERTIFICATE block).
pub fn pem_to_der(pem: &str) -> Result<Vec<u8>, String> {
    super::rsa_sha256::pem_block(pem, "CERTIFICATE")?
        .ok_or_else(|| "no -----BEGIN CERTIFICATE----- block found".to_owned())
}
