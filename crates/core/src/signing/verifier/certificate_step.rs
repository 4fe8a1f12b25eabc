//! The certificate step: the TPP-Signature-Certificate header read (once per distinct certificate, then
//! found by its text), chained to a trusted CA that has not expired, valid at the sandbox clock's time,
//! and carrying PSD2 roles. Reading and judging are apart: a certificate that is read but may not be
//! used still lends its key to the keyId, algorithm and signature steps.

use super::run::Run;
use super::Verifier;
use crate::domain::refusal::{Code, Refusal};
use crate::domain::tolerance::Tolerance;
use crate::signing::certificate::decode_certificate_header;
use crate::signing::http_date;
use crate::signing::steps::Step;
use crate::signing::trust::{CachedCertificate, ChainVerdict};
use std::sync::Arc;
use time::OffsetDateTime;

const HEADER: &str = "TPP-Signature-Certificate";

impl Verifier {
    /// Reads the header into a parsed certificate (cached by the header's text). Fails only when there
    /// is no certificate to read a key from; whether it may be used is [`Verifier::certificate_usable`].
    pub(super) fn read_certificate(
        &self,
        header: &str,
        run: &mut Run,
    ) -> Result<Arc<CachedCertificate>, Refusal> {
        let cached = match self.cache.get_by_header(header) {
            Some(seen) => seen,
            None => {
                let decoded = decode_certificate_header(header)
                    .map_err(|e| Refusal::format(HEADER, e.to_string()))?;
                let cached = self.cache.get_or_verify(&self.trust(), &decoded.der);
                if decoded.was_pem {
                    run.tolerate(Tolerance::PemArmouredCertificate, HEADER, "TPP-Signature-Certificate came with PEM armour; it should be the plain base64 of the DER. Production may refuse it.");
                } else {
                    self.cache.remember_header(header, &cached);
                }
                cached
            }
        };
        if let Err(reason) = &cached.certificate {
            let text = if reason.starts_with(HEADER) {
                reason.clone()
            } else {
                format!("TPP-Signature-Certificate is not a usable X.509 certificate: {reason}")
            };
            return Err(Refusal::format(HEADER, text));
        }
        Ok(cached)
    }

    /// A parsed certificate chains to a trusted CA that has not expired, is valid at the sandbox clock's
    /// time and carries PSD2 roles. When it does not, the steps after it still check the Signature with
    /// its key, so that one answer says whether the rest of the request is right.
    pub(super) fn certificate_usable(
        &self,
        cached: &CachedCertificate,
        now: OffsetDateTime,
        run: &mut Run,
    ) -> Result<(), Refusal> {
        let tpp = cached
            .certificate
            .as_ref()
            .expect("read_certificate passes only a parsed certificate");
        if let ChainVerdict::Untrusted(reason) = &cached.chain {
            return Err(Refusal::new(
                Code::BadRequest,
                Some(HEADER),
                format!("The certificate is not trusted: {reason}"),
            ));
        }
        if let ChainVerdict::Trusted { ca_subject } = &cached.chain {
            if let Some(ca_end) = cached.issuing_ca_not_after.filter(|end| now > *end) {
                return Err(Refusal::new(
                    Code::BadRequest,
                    Some(HEADER),
                    format!(
                        "The certificate's issuing CA ({ca_subject}) expired at {}, before the sandbox clock's {}.",
                        http_date::format(ca_end),
                        http_date::format(now)
                    ),
                ));
            }
        }
        if now < tpp.not_before || now > tpp.not_after {
            return Err(Refusal::new(
                Code::BadRequest,
                Some(HEADER),
                format!(
                    "The certificate (SN={}) is valid from {} to {}, and the sandbox clock says {}.",
                    tpp.serial_hex,
                    http_date::format(tpp.not_before),
                    http_date::format(tpp.not_after),
                    http_date::format(now)
                ),
            ));
        }
        if tpp.roles().is_empty() {
            return Err(Refusal::new(
                Code::BadRequest,
                Some(HEADER),
                "The certificate carries no PSD2 roles: it needs the ETSI TS 119 495 QCStatement (0.4.0.19495.2) \
                 with at least one of PSP_AS, PSP_PI, PSP_AI, PSP_IC. `xs2a-sandbox cert issue` makes one.",
            ));
        }
        run.pass(Step::Certificate, || {
            let roles: Vec<&str> = tpp.roles().iter().map(|r| r.as_str()).collect();
            format!("trusted, valid, roles {}", roles.join(","))
        });
        Ok(())
    }
}
