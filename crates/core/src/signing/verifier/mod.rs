//! The request gate's logic, free of any web framework: checks one request step by step and either
//! identifies the TPP (certificate, PSD2 roles, warnings) or says at which step and why it is refused.
//!
//! Steps, in order (the table in [`crate::signing::steps`]; one function each): required headers, Date
//! window ([`request_steps`]), certificate — decode, parse, chain, validity, PSD2 roles
//! ([`certificate_step`]) —, Signature header, keyId, algorithm ([`signer_steps`]), signed-header list,
//! Digest, RSA-SHA256 signature ([`content_steps`]). Every refusal is 400 (SPEC.md: missing or failing
//! signatures are 400). The certificate's parse and chain verdict are cached, found by the header's
//! text, so a request costs one RSA verification.

mod certificate_step;
mod content_steps;
mod request_steps;
mod run;
mod signer_steps;

use super::certificate::TppCertificate;
use super::headers::HeaderSource;
use super::qc_statements::Psd2Role;
/// The steps' table lives in [`crate::signing::steps`]; named here too, where callers look for the
/// gate's parts.
pub use super::steps::{Step, SIGNING_CANDIDATES};
use super::trust::{CachedCertificate, CertificateCache, TrustStore};
use crate::clock::Clock;
use crate::refusal::{Code, Refusal, TppMessage};
use crate::tolerance::Tolerated;
use run::Run;
use std::borrow::Cow;
use std::sync::{Arc, RwLock};
use time::{Duration, OffsetDateTime};

/// SPEC.md: the allowed clock deviation of the Date header.
pub const MAX_CLOCK_SKEW: Duration = Duration::seconds(60);

/// A request as the gate sees it.
pub struct RequestToVerify<'a> {
    pub method: &'a str,
    /// Path and query exactly as sent.
    pub path_and_query: &'a str,
    pub headers: &'a (dyn HeaderSource + Sync),
    pub body: &'a [u8],
}

/// The instants a Date header is compared with.
#[derive(Debug, Clone, Copy)]
struct Times {
    /// The sandbox clock (simulated time).
    now: OffsetDateTime,
    /// The machine's time (equal to `now` unless the clock was moved).
    machine: OffsetDateTime,
}

/// An identified TPP.
#[derive(Debug, Clone)]
pub struct VerifiedTpp {
    pub certificate: Arc<CachedCertificate>,
    /// Things production refuses, accepted under the sandbox profile (`crate::tolerance`; the gate judges
    /// them with `rehearsal::tolerance`).
    pub tolerated: Vec<Tolerated>,
}

impl VerifiedTpp {
    /// The WARNINGs the sandbox profile answers with.
    pub fn warnings(&self) -> Vec<TppMessage> {
        self.tolerated.iter().map(|t| t.warning.clone()).collect()
    }

    /// The parsed certificate (present: verification only succeeds with one).
    pub fn tpp(&self) -> &TppCertificate {
        self.certificate
            .certificate
            .as_ref()
            .expect("a verified request has a parsed certificate")
    }

    pub fn has_role(&self, role: Psd2Role) -> bool {
        self.tpp().roles().contains(&role)
    }

    /// The key a TPP's data is kept under: its organizationIdentifier, or its certificate's SHA-256 when
    /// it has none. A TPP that renews its certificate keeps its PSUs and consents.
    pub fn tpp_id(&self) -> String {
        let certificate = self.tpp();
        certificate
            .organization_identifier
            .clone()
            .unwrap_or_else(|| {
                certificate
                    .der_sha256
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect()
            })
    }

    /// The TPP's name as shown to the PSU: organisation, else common name.
    pub fn tpp_name(&self) -> String {
        let certificate = self.tpp();
        certificate
            .organization
            .clone()
            .or_else(|| certificate.common_name.clone())
            .unwrap_or_else(|| self.tpp_id())
    }
}

/// The outcome of a check with its per-step verdicts, for the CLI and the workbench.
#[derive(Debug)]
pub struct Report {
    /// Each step reached: passed (`Ok`, with a note) or failed (`Err`, with the reason).
    pub steps: Vec<(Step, Result<Cow<'static, str>, String>)>,
    /// The signing string the sandbox computed, once the signed-header list was understood.
    pub signing_string: Option<String>,
    pub outcome: Result<VerifiedTpp, Refusal>,
}

/// The gate: trusted CAs and the certificate cache.
pub struct Verifier {
    trust: RwLock<Arc<TrustStore>>,
    cache: CertificateCache,
}

impl Verifier {
    pub fn new(trust: TrustStore) -> Self {
        Verifier {
            trust: RwLock::new(Arc::new(trust)),
            cache: CertificateCache::default(),
        }
    }

    /// The trusted CAs.
    pub fn trust(&self) -> Arc<TrustStore> {
        self.trust.read().expect("trust lock").clone()
    }

    /// How many distinct certificates have been parsed and chain-checked.
    pub fn cached_certificates(&self) -> usize {
        self.cache.len()
    }

    /// Checks a request at the sandbox clock's time. With `every_failure`, a refusal also names the
    /// other steps that failed (the sandbox profile); without, only the first (the bank's production).
    pub fn verify(
        &self,
        request: &RequestToVerify,
        clock: &Clock,
        every_failure: bool,
    ) -> Result<VerifiedTpp, Refusal> {
        let times = Times {
            now: clock.now(),
            machine: clock.machine_now(),
        };
        self.check(request, times, false, every_failure).outcome
    }

    /// Checks a request at the sandbox clock's time and records every step's verdict (the traffic log
    /// keeps it; one pass, so no extra signature verification).
    pub fn verify_explained(
        &self,
        request: &RequestToVerify,
        clock: &Clock,
        every_failure: bool,
    ) -> Report {
        let times = Times {
            now: clock.now(),
            machine: clock.machine_now(),
        };
        self.check(request, times, true, every_failure)
    }

    /// Checks a request as of `at` and records every step's verdict (slower; for diagnostics).
    pub fn report(&self, request: &RequestToVerify, at: OffsetDateTime) -> Report {
        self.check(
            request,
            Times {
                now: at,
                machine: at,
            },
            true,
            true,
        )
    }

    fn check(
        &self,
        request: &RequestToVerify,
        times: Times,
        explain: bool,
        every_failure: bool,
    ) -> Report {
        let mut run = Run::new(explain);
        let outcome = self.run_steps(request, times, &mut run);
        let outcome = outcome.map_err(|error| {
            let further = std::mem::take(&mut run.also);
            let further = further
                .into_iter()
                .filter(|_| every_failure)
                .flat_map(|refusal| refusal.messages());
            let mut error = error
                .with_messages(further)
                .with_messages(run.tolerated.iter().map(|t| t.warning.clone()));
            if let Some(signing_string) = &run.signing_string {
                error = error.with_messages([TppMessage {
                    category: crate::refusal::Category::Error,
                    code: Code::BadRequest,
                    path: Some("Signature".into()),
                    text: Some(crate::refusal::truncate_text(format!(
                        "Signing string computed by the sandbox (lines joined by \\n): {}",
                        signing_string.replace('\n', "\\n")
                    ))),
                }]);
            }
            error
        });
        Report {
            steps: run.steps,
            signing_string: run.signing_string,
            outcome,
        }
    }

    /// The steps in the order of [`crate::signing::steps::STEPS`], each refusing with its own name. The
    /// first failure is the refusal (the order is the contract); the steps that do not depend on a failed
    /// one still run, and their failures follow it as further ERRORs (`Run::also`), so that one answer
    /// names every problem of the request a client can fix at once. A step that needs what a failed
    /// step would have given (the certificate's key, the parsed Signature header, the signing string) is
    /// not run and shows as skipped.
    fn run_steps(
        &self,
        request: &RequestToVerify,
        times: Times,
        run: &mut Run,
    ) -> Result<VerifiedTpp, Refusal> {
        // Without the headers themselves nothing else can be read.
        let sent = run.step(Step::RequiredHeaders, |run| {
            request_steps::required_headers(request, run)
        })?;
        let mut failures: Vec<(Step, Refusal)> = Vec::new();
        let date = run.step(Step::Date, |run| request_steps::date(sent.date, times, run));
        failures.extend(date.err().map(|r| (Step::Date, r)));
        let cached = match run.step(Step::Certificate, |run| {
            self.certificate_step(sent.certificate, times.now, run)
        }) {
            Ok(cached) => Some(cached),
            Err(refusal) => {
                failures.push((Step::Certificate, refusal));
                None
            }
        };
        let tpp = cached.as_ref().map(|cached| {
            cached
                .certificate
                .as_ref()
                .expect("the certificate step passes only a parsed certificate")
        });
        let params = match run.step(Step::SignatureHeader, |run| {
            signer_steps::signature_header(&sent.signature, run)
        }) {
            Ok(params) => Some(params),
            Err(refusal) => {
                failures.push((Step::SignatureHeader, refusal));
                None
            }
        };
        let mut signing_string_built = false;
        if let Some(params) = &params {
            if let Some(tpp) = tpp {
                let key_id = run.step(Step::KeyId, |run| signer_steps::key_id(params, tpp, run));
                failures.extend(key_id.err().map(|r| (Step::KeyId, r)));
                let algorithm = run.step(Step::Algorithm, |run| {
                    signer_steps::algorithm(params, tpp, run)
                });
                failures.extend(algorithm.err().map(|r| (Step::Algorithm, r)));
            }
            let listed = run.step(Step::SignedHeaders, |run| {
                content_steps::signed_headers(params, request, run)
            });
            signing_string_built = listed.is_ok();
            failures.extend(listed.err().map(|r| (Step::SignedHeaders, r)));
        }
        let digest = run.step(Step::Digest, |run| content_steps::digest(request, run));
        failures.extend(digest.err().map(|r| (Step::Digest, r)));
        if let (Some(params), Some(tpp), true) = (&params, tpp, signing_string_built) {
            // The signature is checked with the certificate's RSA key whatever the algorithm was named.
            if tpp.rsa_public_key.is_some() {
                let signature = run.step(Step::Signature, |run| {
                    content_steps::signature(params, tpp, run)
                });
                failures.extend(signature.err().map(|r| (Step::Signature, r)));
            }
        }
        match (cached, failures.is_empty()) {
            (Some(cached), true) => Ok(VerifiedTpp {
                certificate: cached,
                tolerated: std::mem::take(&mut run.tolerated),
            }),
            _ => {
                // The first failure in the steps' order is the refusal; the others follow it.
                failures.sort_by_key(|(step, _)| *step as usize);
                let mut failures = failures.into_iter().map(|(_, refusal)| refusal);
                let first = failures.next().expect("a failure, or the certificate's");
                run.also = failures.collect();
                Err(first)
            }
        }
    }
}
