//! The steps in the order of [`crate::signing::steps::STEPS`], each run when what it reads is there. A
//! failed step does not stop the others: a missing Date leaves the certificate, keyId, algorithm, the
//! signed-header list, the Digest and the signature over what was sent to be checked; a certificate that
//! is read but may not be used (untrusted, expired, without roles) still lends its key to keyId, algorithm
//! and signature. A step whose input is missing is recorded as not checked, with the reason.

use super::request_steps::{self, Unavailable};
use super::run::Run;
use super::{content_steps, signer_steps, RequestToVerify, Times, Verifier};
use crate::domain::refusal::Refusal;
use crate::signing::certificate::TppCertificate;
use crate::signing::signature_header::SignatureParams;
use crate::signing::steps::Step;
use crate::signing::trust::CachedCertificate;
use std::sync::Arc;

/// Every step run: the certificate when all passed, or the failures in the order they were found.
pub(super) type Outcome = Result<Arc<CachedCertificate>, Vec<(Step, Refusal)>>;

impl Verifier {
    pub(super) fn run_steps(
        &self,
        request: &RequestToVerify,
        times: Times,
        run: &mut Run,
    ) -> Outcome {
        let mut failures: Vec<(Step, Refusal)> = Vec::new();
        let mut note = |step: Step, result: Result<(), Refusal>| {
            if let Err(refusal) = result {
                failures.push((step, refusal));
            }
        };
        let (sent, verdict) = request_steps::required_headers(request, run);
        note(
            Step::RequiredHeaders,
            run.record(Step::RequiredHeaders, verdict),
        );

        match sent.date {
            Ok(date) => note(
                Step::Date,
                run.step(Step::Date, |run| request_steps::date(date, times, run)),
            ),
            Err(unavailable) => run.not_checked(Step::Date, unavailable.reason()),
        }

        // The parsed certificate (used or not) and why there is none.
        let certificate: Result<Arc<CachedCertificate>, String> = match sent.certificate {
            Ok(header) => {
                match run.step(Step::Certificate, |run| self.read_certificate(header, run)) {
                    Ok(cached) => {
                        let usable = run.step(Step::Certificate, |run| {
                            self.certificate_usable(&cached, times.now, run)
                        });
                        note(Step::Certificate, usable);
                        Ok(cached)
                    }
                    Err(refusal) => {
                        note(Step::Certificate, Err(refusal));
                        Err("the certificate could not be read".to_owned())
                    }
                }
            }
            Err(unavailable) => {
                run.not_checked(Step::Certificate, unavailable.reason());
                Err(unavailable.reason())
            }
        };
        let key: Result<&TppCertificate, String> = match &certificate {
            Ok(cached) => Ok(cached
                .certificate
                .as_ref()
                .expect("read_certificate passes only a parsed certificate")),
            Err(reason) => Err(reason.clone()),
        };

        let params: Result<SignatureParams, String> = match &sent.signature {
            Ok(value) => match run.step(Step::SignatureHeader, |run| {
                signer_steps::signature_header(value, run)
            }) {
                Ok(params) => Ok(params),
                Err(refusal) => {
                    note(Step::SignatureHeader, Err(refusal));
                    Err("the Signature header could not be read".to_owned())
                }
            },
            Err(unavailable) => {
                run.unsigned = unavailable.is_missing();
                run.not_checked(Step::SignatureHeader, unavailable.reason());
                Err(unavailable.reason())
            }
        };

        match (&params, &key) {
            (Ok(params), Ok(tpp)) => {
                note(
                    Step::KeyId,
                    run.step(Step::KeyId, |run| signer_steps::key_id(params, tpp, run)),
                );
                note(
                    Step::Algorithm,
                    run.step(Step::Algorithm, |run| {
                        signer_steps::algorithm(params, tpp, run)
                    }),
                );
            }
            (Err(reason), _) | (_, Err(reason)) => {
                run.not_checked(Step::KeyId, reason.clone());
                run.not_checked(Step::Algorithm, reason.clone());
            }
        }

        // The signed-header list, and the signing string when every listed header can be read.
        let mut blocked: Option<Unavailable> = None;
        match &params {
            Ok(params) => {
                blocked = sent.unavailable_among(&params.headers);
                note(
                    Step::SignedHeaders,
                    run.step(Step::SignedHeaders, |run| {
                        content_steps::signed_headers(params, request, blocked, run)
                    }),
                );
            }
            Err(reason) => run.not_checked(Step::SignedHeaders, reason.clone()),
        }

        match sent.digest {
            None => note(
                Step::Digest,
                run.step(Step::Digest, |run| content_steps::digest(request, run)),
            ),
            Some(unavailable) => run.not_checked(Step::Digest, unavailable.reason()),
        }

        let signature_input = match (&params, &key) {
            (Err(reason), _) | (_, Err(reason)) => Err(reason.clone()),
            (Ok(_), Ok(tpp)) if tpp.rsa_public_key.is_none() => Err(format!(
                "the certificate's key is {}, not RSA",
                tpp.key_algorithm
            )),
            (Ok(params), Ok(tpp)) => match (blocked, run.signing_string.is_some()) {
                (Some(unavailable), _) => Err(unavailable.reason()),
                (None, false) => Err("the signing string could not be built".to_owned()),
                (None, true) => Ok((params, *tpp)),
            },
        };
        match signature_input {
            // Checked with the certificate's RSA key whatever the algorithm was named.
            Ok((params, tpp)) => note(
                Step::Signature,
                run.step(Step::Signature, |run| {
                    content_steps::signature(params, tpp, run)
                }),
            ),
            Err(reason) => run.not_checked(Step::Signature, reason),
        }

        match certificate {
            Ok(cached) if failures.is_empty() => Ok(cached),
            _ => Err(failures),
        }
    }
}
