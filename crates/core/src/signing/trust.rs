//! Which CAs the sandbox trusts, whether a TPP certificate chains to one of them, and a cache so that
//! the parse and signature check happen once per distinct certificate rather than once per request.
//! Only one level is checked (TPP certificate issued directly by a trusted CA), as with the bank's own
//! test CA; validity periods are the caller's to check against the sandbox clock.

use std::sync::Arc;

use dashmap::DashMap;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use x509_parser::prelude::parse_x509_certificate;

use super::certificate::{pem_blocks, CertificateError, TppCertificate};
use super::distinguished_name::DistinguishedName;

/// The bundled test CA's certificate (its key is public too: see fixtures/certs/README.md).
pub fn bundled_test_ca_pem() -> &'static str {
    include_str!("../../../../fixtures/certs/ca/cert.pem")
}

/// The verdict on a certificate's chain, worded for tppMessages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainVerdict {
    Trusted { ca_subject: String },
    Untrusted(String),
}

struct TrustedCa {
    der: Vec<u8>,
    subject: DistinguishedName,
    not_after: OffsetDateTime,
}

/// The CA certificates TPP certificates must be issued by.
#[derive(Default)]
pub struct TrustStore {
    cas: Vec<TrustedCa>,
}

impl TrustStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// A store trusting only the bundled test CA, which issued the fixture TPP certificates.
    pub fn with_bundled_test_ca() -> Self {
        let mut store = Self::new();
        store
            .add_pem(bundled_test_ca_pem())
            .expect("the bundled test CA certificate is valid PEM");
        store
    }

    /// Adds every certificate in a PEM text; returns how many.
    pub fn add_pem(&mut self, pem: &str) -> Result<usize, String> {
        let blocks = pem_blocks(pem).map_err(|e| e.to_string())?;
        if blocks.is_empty() {
            return Err("no -----BEGIN CERTIFICATE----- block found".into());
        }
        for der in &blocks {
            self.add_der(der)?;
        }
        Ok(blocks.len())
    }

    pub fn add_der(&mut self, der: &[u8]) -> Result<(), String> {
        let (_, cert) =
            parse_x509_certificate(der).map_err(|e| format!("not a CA certificate: {e}"))?;
        self.cas.push(TrustedCa {
            der: der.to_vec(),
            subject: DistinguishedName::from_x509(cert.subject()),
            not_after: cert.validity().not_after.to_datetime(),
        });
        Ok(())
    }

    /// RFC 2253 subjects of the trusted CAs.
    pub fn ca_subjects(&self) -> Vec<String> {
        self.cas.iter().map(|ca| ca.subject.to_rfc2253()).collect()
    }

    /// When the trusted CA with this RFC 2253 subject expires; the caller decides against its clock.
    pub fn ca_not_after(&self, ca_subject: &str) -> Option<OffsetDateTime> {
        self.cas
            .iter()
            .find(|ca| ca.subject.to_rfc2253() == ca_subject)
            .map(|ca| ca.not_after)
    }

    /// Whether the certificate was issued by a trusted CA: its issuer must equal the CA's subject and its
    /// signature must verify with the CA's key. Several CAs may share a name (key rollover); any will do.
    pub fn check_chain(&self, cert_der: &[u8]) -> ChainVerdict {
        let cert = match parse_x509_certificate(cert_der) {
            Ok((_, cert)) => cert,
            Err(e) => {
                return ChainVerdict::Untrusted(format!("The certificate cannot be read: {e}."))
            }
        };
        let issuer = DistinguishedName::from_x509(cert.issuer());
        let named: Vec<&TrustedCa> = self.cas.iter().filter(|ca| ca.subject == issuer).collect();
        if named.is_empty() {
            let self_signed = if cert.subject() == cert.issuer() {
                " It is self-signed."
            } else {
                ""
            };
            let trusted = match self.ca_subjects() {
                list if list.is_empty() => "The sandbox trusts no CA.".to_string(),
                list => format!("Trusted CAs: \"{}\".", list.join("\"; \"")),
            };
            return ChainVerdict::Untrusted(format!(
                "The certificate's issuer \"{issuer}\" is not a CA this sandbox trusts.{self_signed} {trusted}"
            ));
        }
        let mut failure = String::new();
        for ca in named {
            let Ok((_, ca_cert)) = parse_x509_certificate(&ca.der) else {
                continue;
            };
            match cert.verify_signature(Some(ca_cert.public_key())) {
                Ok(()) => {
                    return ChainVerdict::Trusted {
                        ca_subject: ca.subject.to_rfc2253(),
                    }
                }
                Err(e) => failure = e.to_string(),
            }
        }
        ChainVerdict::Untrusted(format!(
            "The certificate names the trusted CA \"{issuer}\" as its issuer, but its signature does not verify with that CA's key ({failure}); it was signed by another key using the same name."
        ))
    }
}

/// The parse result and chain verdict of one distinct certificate.
#[derive(Debug)]
pub struct CachedCertificate {
    pub certificate: Result<TppCertificate, String>,
    pub chain: ChainVerdict,
    /// When the trusted CA that issued it expires (for a trusted chain), looked up once here rather than
    /// by name on every request.
    pub issuing_ca_not_after: Option<OffsetDateTime>,
}

/// Caps memory: a sandbox sees a handful of TPP certificates, so reaching this means something is
/// sending throw-away certificates; clearing everything is then cheaper than tracking recency, and costs
/// only a re-verification of the few certificates in real use.
const CACHE_CAPACITY: usize = 10_000;

/// Parsed certificates and chain verdicts by the SHA-256 of their DER, and the same entries by the exact
/// text of the TPP-Signature-Certificate header they came in: a TPP sends the same header with every
/// request, so a request costs one hash of that text instead of a base64 decode and a SHA-256 of the DER.
/// Verdicts depend on the trust store: call [`CertificateCache::clear`] when it changes.
#[derive(Default)]
pub struct CertificateCache {
    entries: DashMap<[u8; 32], Arc<CachedCertificate>>,
    by_header: DashMap<Box<str>, Arc<CachedCertificate>>,
}

impl CertificateCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The entry of a header text seen before (see [`CertificateCache::remember_header`]).
    pub fn get_by_header(&self, header: &str) -> Option<Arc<CachedCertificate>> {
        self.by_header.get(header).map(|hit| Arc::clone(&hit))
    }

    /// Files an entry under the header text it was read from. Only texts that decode without a warning
    /// (plain base64) are filed, so that a header needing one (PEM armour) is read, and warned about,
    /// every time.
    pub fn remember_header(&self, header: &str, entry: &Arc<CachedCertificate>) {
        if self.by_header.len() >= CACHE_CAPACITY {
            self.by_header.clear();
        }
        self.by_header.insert(header.into(), Arc::clone(entry));
    }

    pub fn get_or_verify(&self, trust: &TrustStore, der: &[u8]) -> Arc<CachedCertificate> {
        let key: [u8; 32] = Sha256::digest(der).into();
        if let Some(hit) = self.entries.get(&key) {
            return Arc::clone(&hit);
        }
        // Computed outside the map's locks: two racing requests may both verify, which is harmless.
        let chain = trust.check_chain(der);
        let issuing_ca_not_after = match &chain {
            ChainVerdict::Trusted { ca_subject } => trust.ca_not_after(ca_subject),
            ChainVerdict::Untrusted(_) => None,
        };
        let entry = Arc::new(CachedCertificate {
            certificate: TppCertificate::from_der(der).map_err(|e| match e {
                CertificateError::NotACertificate(reason) => {
                    super::certificate_hints::not_a_certificate(der, &reason)
                }
                other => other.to_string(),
            }),
            chain,
            issuing_ca_not_after,
        });
        if self.entries.len() >= CACHE_CAPACITY {
            self.entries.clear();
        }
        self.entries.insert(key, Arc::clone(&entry));
        entry
    }

    /// How many distinct certificates are cached.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&self) {
        self.entries.clear();
        self.by_header.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::certificate::pem_blocks;
    use crate::signing::issue::{tpp_request_defaults, CertificateAuthority};
    use crate::signing::qc_statements::Psd2Role;
    use time::macros::datetime;

    const TEST_CA: &str = "CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO";

    fn der(pem: &str) -> Vec<u8> {
        pem_blocks(pem).unwrap().remove(0)
    }

    #[test]
    fn the_bundled_test_ca_subject_in_rfc2253_form() {
        let ca_der = der(bundled_test_ca_pem());
        let (_, ca) = parse_x509_certificate(&ca_der).unwrap();
        assert_eq!(
            DistinguishedName::from_x509(ca.subject()).to_rfc2253(),
            TEST_CA
        );
        let store = TrustStore::with_bundled_test_ca();
        assert_eq!(store.ca_subjects(), vec![TEST_CA.to_string()]);
        assert_eq!(
            store.ca_not_after(TEST_CA),
            Some(datetime!(2045-01-01 00:00 UTC))
        );
        assert_eq!(store.ca_not_after("CN=other"), None);
    }

    #[test]
    fn fixture_tpp_certificates_chain_to_the_bundled_ca() {
        let store = TrustStore::with_bundled_test_ca();
        for pem in [
            include_str!("../../../../fixtures/certs/aisp/cert.pem"),
            include_str!("../../../../fixtures/certs/pisp/cert.pem"),
            include_str!("../../../../fixtures/certs/aisp-pisp/cert.pem"),
            include_str!("../../../../fixtures/certs/expired/cert.pem"),
            include_str!("../../../../fixtures/certs/no-roles/cert.pem"),
            include_str!("../../../../fixtures/certs/bank/cert.pem"),
        ] {
            assert_eq!(
                store.check_chain(&der(pem)),
                ChainVerdict::Trusted {
                    ca_subject: TEST_CA.into()
                }
            );
        }
    }

    #[test]
    fn the_untrusted_fixture_names_its_issuer_and_the_trusted_cas() {
        let store = TrustStore::with_bundled_test_ca();
        let untrusted = der(include_str!(
            "../../../../fixtures/certs/untrusted/cert.pem"
        ));
        let ChainVerdict::Untrusted(why) = store.check_chain(&untrusted) else {
            panic!()
        };
        assert!(
            why.contains("\"CN=Untrusted Test CA\" is not a CA this sandbox trusts"),
            "{why}"
        );
        assert!(why.contains(TEST_CA), "{why}");

        let mut both = TrustStore::with_bundled_test_ca();
        assert_eq!(
            both.add_pem(include_str!(
                "../../../../fixtures/certs/untrusted-ca/cert.pem"
            )),
            Ok(1)
        );
        assert_eq!(
            both.check_chain(&untrusted),
            ChainVerdict::Trusted {
                ca_subject: "CN=Untrusted Test CA".into()
            }
        );
    }

    #[test]
    fn an_empty_store_and_self_signed_certificates_are_explained() {
        let ca = der(bundled_test_ca_pem());
        let ChainVerdict::Untrusted(why) = TrustStore::new().check_chain(&ca) else {
            panic!()
        };
        assert!(
            why.contains("self-signed") && why.contains("trusts no CA"),
            "{why}"
        );
        let ChainVerdict::Untrusted(why) = TrustStore::new().check_chain(b"junk") else {
            panic!()
        };
        assert!(why.contains("cannot be read"), "{why}");
        assert!(TrustStore::new().add_pem("no pem here").is_err());
    }

    #[test]
    fn a_ca_with_the_same_name_but_another_key_is_caught() {
        let impostor = CertificateAuthority::generate(
            "xs2a-sandbox Test CA",
            "xs2a-sandbox",
            datetime!(2025-01-01 00:00 UTC),
            datetime!(2045-01-01 00:00 UTC),
        )
        .unwrap();
        let request = tpp_request_defaults(
            "Impostor AS",
            vec![Psd2Role::PspAi],
            datetime!(2026-01-01 00:00 UTC),
        );
        let issued = impostor.issue_tpp(&request).unwrap();
        let ChainVerdict::Untrusted(why) =
            TrustStore::with_bundled_test_ca().check_chain(&issued.cert_der)
        else {
            panic!()
        };
        assert!(why.contains("signature does not verify"), "{why}");
    }

    #[test]
    fn header_texts_lead_to_their_entry_until_cleared() {
        let store = TrustStore::with_bundled_test_ca();
        let cache = CertificateCache::new();
        let aisp = der(include_str!("../../../../fixtures/certs/aisp/cert.pem"));
        assert!(cache.get_by_header("MIIB").is_none());
        let entry = cache.get_or_verify(&store, &aisp);
        cache.remember_header("MIIB", &entry);
        assert!(Arc::ptr_eq(&cache.get_by_header("MIIB").unwrap(), &entry));
        assert!(cache.get_by_header("MIIC").is_none());
        cache.clear();
        assert!(cache.get_by_header("MIIB").is_none());
    }

    #[test]
    fn the_cache_verifies_each_certificate_once() {
        let store = TrustStore::with_bundled_test_ca();
        let cache = CertificateCache::new();
        let aisp = der(include_str!("../../../../fixtures/certs/aisp/cert.pem"));
        let first = cache.get_or_verify(&store, &aisp);
        let second = cache.get_or_verify(&store, &aisp);
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(cache.len(), 1);
        assert!(first
            .certificate
            .as_ref()
            .unwrap()
            .has_role(Psd2Role::PspAi));
        assert_eq!(
            first.issuing_ca_not_after,
            Some(datetime!(2045-01-01 00:00 UTC))
        );
        let junk = cache.get_or_verify(&store, b"junk");
        assert!(junk.certificate.is_err() && matches!(junk.chain, ChainVerdict::Untrusted(_)));
        assert_eq!(junk.issuing_ca_not_after, None);
        assert_eq!(cache.len(), 2);
        cache.clear();
        assert!(cache.is_empty());
    }
}
