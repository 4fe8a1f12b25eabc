//! The request gate's logic, free of any web framework: checks one request step by step and either
//! identifies the TPP (certificate, PSD2 roles, warnings) or says at which step and why it is refused.
//!
//! Steps, in order (the table in [`crate::signing::steps`]; one function each): required headers, Date
//! window ([`request_steps`]), certificate — decode, parse, chain, validity, PSD2 roles
//! ([`certificate_step`]) —, Signature header, keyId, algorithm ([`signer_steps`]), signed-header list,
//! Digest, RSA-SHA256 signature ([`content_steps`]); [`sequence`] runs each whose input is there,
//! whatever failed before it, and [`answer`] makes the refusal. Every refusal is 400 (docs/interface.md#signing-every-request: missing
//! or failing signatures are 400). The certificate's parse and chain verdict are cached, found by the
//! header's text, so a request costs one RSA verification.

mod answer;
mod certificate_step;
mod content_steps;
mod request_steps;
mod run;
mod sequence;
mod signer_steps;

use super::certificate::TppCertificate;
use super::headers::HeaderSource;
use super::qc_statements::Psd2Role;
/// The steps' table lives in [`crate::signing::steps`]; named here too, where callers look for the
/// gate's parts.
pub use super::steps::{Step, SIGNING_CANDIDATES};
use super::trust::{CachedCertificate, CertificateCache, TrustStore};
use crate::domain::clock::Clock;
use crate::domain::refusal::{Refusal, TppMessage};
use crate::domain::tolerance::Tolerated;
use run::Run;
use std::borrow::Cow;
use std::sync::{Arc, RwLock};
use time::{Duration, OffsetDateTime};

/// The allowed clock deviation of the Date header (docs/interface.md#limits).
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
    /// Things production refuses, accepted under the sandbox profile (`crate::domain::tolerance`; the gate judges
    /// them with `rehearsal::tolerance`).
    pub tolerated: Vec<Tolerated>,
}

impl VerifiedTpp {
    /// A bundled TPP's certificate (`test_credentials::TPP_CERTIFICATES`, by directory name: "aisp",
    /// "pisp", ...) as the gate verifies it, trusted and with nothing tolerated: for tests that call an
    /// operation behind the gate without signing a request.
    pub fn bundled(dir: &str) -> Option<VerifiedTpp> {
        let (_, _, pem, _) = super::test_credentials::TPP_CERTIFICATES
            .iter()
            .find(|(name, ..)| *name == dir)?;
        let der = super::certificate::pem_blocks(pem)
            .ok()?
            .into_iter()
            .next()?;
        Some(VerifiedTpp {
            certificate: Arc::new(CachedCertificate {
                certificate: Ok(TppCertificate::from_der(&der).ok()?),
                chain: super::trust::ChainVerdict::Trusted {
                    ca_subject: "the bundled test CA".into(),
                },
                issuing_ca_not_after: None,
            }),
            tolerated: Vec::new(),
        })
    }

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

/// What one step found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Passed, with a note (what was found).
    Passed(Cow<'static, str>),
    /// Failed, with the refusal's text.
    Failed(String),
    /// Not run, because something it reads is missing or unusable: "could not be checked because …".
    NotChecked(String),
}

/// The outcome of a check with its per-step verdicts, for the CLI and the workbench.
#[derive(Debug)]
pub struct Report {
    /// Each step's verdict, in the order they ran.
    pub steps: Vec<(Step, Verdict)>,
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
        let outcome = match self.run_steps(request, times, &mut run) {
            Ok(cached) => Ok(VerifiedTpp {
                certificate: cached,
                tolerated: std::mem::take(&mut run.tolerated),
            }),
            Err(failures) => Err(answer::refusal(failures, &run, every_failure)),
        };
        Report {
            steps: run.steps,
            signing_string: run.signing_string,
            outcome,
        }
    }
}
