//! The request gate's logic, free of any web framework: checks one request step by step and either
//! identifies the TPP (certificate, PSD2 roles, warnings) or says at which step and why it is refused.
//!
//! Steps, in order: required headers, Date window, certificate (decode, parse, chain, validity, PSD2
//! roles), Signature header, keyId, algorithm, signed-header list, Digest, RSA-SHA256 signature. Every
//! refusal is 400 (SPEC.md: missing or failing signatures are 400). The certificate's parse and chain
//! verdict are cached by the hash of its DER, so a request costs one RSA verification.

use super::certificate::{decode_certificate_header, TppCertificate};
use super::digest::{self, DigestProblem};
use super::distinguished_name::{compare_issuer, compare_serial, IssuerMatch, SerialMatch};
use super::headers::{visible_ascii, HeaderSource};
use super::qc_statements::Psd2Role;
use super::signature_header::{self, SignatureParams};
use super::trust::{CachedCertificate, CertificateCache, ChainVerdict, TrustStore};
use super::{http_date, signing_string};
use crate::clock::Clock;
use crate::refusal::{Code, Refusal, TppMessage};
use crate::rehearsal::tolerance::{Tolerance, Tolerated};
use std::borrow::Cow;
use std::sync::{Arc, RwLock};
use time::{Duration, OffsetDateTime};

/// SPEC.md: the allowed clock deviation of the Date header.
pub const MAX_CLOCK_SKEW: Duration = Duration::seconds(60);

/// Headers SPEC.md names as candidates for signing; carried ones should be signed.
pub const SIGNING_CANDIDATES: [&str; 6] = [
    "date",
    "digest",
    "x-request-id",
    "psu-id",
    "psu-corporate-id",
    "tpp-redirect-uri",
];

/// The steps of the check, named in refusals and in `xs2a-sandbox verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    RequiredHeaders,
    Date,
    Certificate,
    SignatureHeader,
    KeyId,
    Algorithm,
    SignedHeaders,
    Digest,
    Signature,
}

impl Step {
    pub const ALL: [Step; 9] = [
        Step::RequiredHeaders,
        Step::Date,
        Step::Certificate,
        Step::SignatureHeader,
        Step::KeyId,
        Step::Algorithm,
        Step::SignedHeaders,
        Step::Digest,
        Step::Signature,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::RequiredHeaders => "required headers",
            Step::Date => "date",
            Step::Certificate => "certificate",
            Step::SignatureHeader => "signature header",
            Step::KeyId => "keyId",
            Step::Algorithm => "algorithm",
            Step::SignedHeaders => "signed headers",
            Step::Digest => "digest",
            Step::Signature => "signature",
        }
    }
}

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
    /// Things production refuses, accepted under the sandbox profile (`rehearsal::tolerance`).
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

    /// Checks a request at the sandbox clock's time.
    pub fn verify(&self, request: &RequestToVerify, clock: &Clock) -> Result<VerifiedTpp, Refusal> {
        let times = Times {
            now: clock.now(),
            machine: clock.machine_now(),
        };
        self.check(request, times, false).outcome
    }

    /// Checks a request at the sandbox clock's time and records every step's verdict (the traffic log
    /// keeps it; one pass, so no extra signature verification).
    pub fn verify_explained(&self, request: &RequestToVerify, clock: &Clock) -> Report {
        let times = Times {
            now: clock.now(),
            machine: clock.machine_now(),
        };
        self.check(request, times, true)
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
        )
    }

    fn check(&self, request: &RequestToVerify, times: Times, explain: bool) -> Report {
        let mut run = Run {
            explain,
            steps: Vec::new(),
            tolerated: Vec::new(),
            signing_string: None,
        };
        let outcome = self.run_steps(request, times, &mut run);
        let outcome = outcome.map_err(|error| {
            let mut error = error.with_messages(run.tolerated.iter().map(|t| t.warning.clone()));
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

    fn run_steps(
        &self,
        request: &RequestToVerify,
        times: Times,
        run: &mut Run,
    ) -> Result<VerifiedTpp, Refusal> {
        let now = times.now;
        let headers = request.headers;
        let header = |name: &str| {
            headers
                .first(name)
                .map(|v| visible_ascii(v).ok_or_else(|| name.to_owned()))
        };

        // Required headers: each sent once, every missing one named at once.
        if let Err(error) = super::required_headers::check(headers, !request.body.is_empty()) {
            return run.fail(Step::RequiredHeaders, error);
        }
        let mut present = Vec::with_capacity(4);
        let mut raw_signature = None;
        for name in [
            "X-Request-ID",
            "Date",
            "TPP-Signature-Certificate",
            "Signature",
        ] {
            match header(name) {
                None => return run.fail(Step::RequiredHeaders, Refusal::header_required(name)),
                Some(Err(_)) if name == "Signature" => {
                    let raw = headers.first(name).unwrap_or_default();
                    if let Some((text, charset)) = signature_header::decode_raw_octets(raw) {
                        run.tolerate(Tolerance::RawSignatureBytes, name, format!("The Signature header carries raw non-ASCII bytes (as the bank platform's signing proxy sends an issuer such as L=Tromsø in keyId); the sandbox read them as {charset}. The interface asks for the RFC 2047 wrapper (=?utf-8?B?...?=) around such a value, and production may refuse raw bytes."));
                        raw_signature = Some(text);
                        present.push("");
                        continue;
                    }
                    return run.fail(Step::RequiredHeaders, Refusal::format(name, format!("{name} holds control characters")));
                }
                Some(Err(_)) => {
                    return run.fail(
                        Step::RequiredHeaders,
                        Refusal::format(name, format!("{name} holds bytes that are not visible ASCII; RFC 2047-wrap non-ASCII values")),
                    )
                }
                Some(Ok(value)) => present.push(value),
            }
        }
        let [_request_id, date, certificate_header, signature] = present[..] else {
            unreachable!("four headers were collected")
        };
        let signature = raw_signature.as_deref().unwrap_or(signature);
        let has_body = !request.body.is_empty();
        if has_body && !headers.has("digest") {
            return run.fail(
                Step::RequiredHeaders,
                Refusal::new(
                    Code::HttpHeaderRequired,
                    Some("Digest"),
                    "The header Digest is required on a request with a body: SHA-256=<base64 of the SHA-256 of the body bytes>.",
                ),
            );
        }
        run.pass(Step::RequiredHeaders, || {
            "X-Request-ID, Date, TPP-Signature-Certificate and Signature are present"
        });

        // Date window.
        let sent = match http_date::parse(date) {
            Ok(sent) => sent,
            Err(reason) => return run.fail(Step::Date, Refusal::format("Date", reason)),
        };
        // Against the sandbox clock, or the machine's when a trainer has moved the clock (TPP apps sign
        // with their own machine's time).
        let skew = sent - now;
        let machine_skew = sent - times.machine;
        if skew.abs() > MAX_CLOCK_SKEW && machine_skew.abs() > MAX_CLOCK_SKEW {
            let direction = if skew.is_positive() {
                "ahead of"
            } else {
                "behind"
            };
            return run.fail(
                Step::Date,
                Refusal::new(
                    Code::BadRequest,
                    Some("Date"),
                    format!(
                        "Date is {} s {direction} the sandbox clock ({}); at most 60 s are allowed. \
                         If you moved the sandbox clock, sign with its time (GET /v1/sandbox/clock).",
                        skew.whole_seconds().abs(),
                        http_date::format(now)
                    ),
                ),
            );
        }
        run.pass(Step::Date, || {
            format!("{} s from the sandbox clock", skew.whole_seconds())
        });

        // Certificate.
        let cached = match self.certificate(certificate_header, now, run) {
            Ok(cached) => cached,
            Err(error) => return run.fail(Step::Certificate, error),
        };
        let tpp = cached
            .certificate
            .as_ref()
            .expect("checked by certificate()");

        // Signature header.
        let params = match signature_header::parse(signature) {
            Ok(params) => params,
            Err(reason) => {
                return run.fail(Step::SignatureHeader, Refusal::format("Signature", reason))
            }
        };
        run.pass(Step::SignatureHeader, || {
            format!(
                "keyId, algorithm, headers and signature present{}",
                if params.was_wrapped {
                    " (RFC 2047 wrapped)"
                } else {
                    ""
                }
            )
        });

        // keyId.
        if let Err(error) = check_key_id(&params, tpp, run) {
            return run.fail(Step::KeyId, error);
        }
        run.pass(Step::KeyId, || "serial and issuer match the certificate");

        // Algorithm.
        if let Err(error) = check_algorithm(&params, tpp, run) {
            return run.fail(Step::Algorithm, error);
        }
        run.pass(Step::Algorithm, || params.algorithm.clone());

        // Signed headers and the signing string. The string is computed first where the listed headers
        // allow it, so that a refusal of the list itself (say Digest left out) still shows what the
        // sandbox would have verified, beside the string the client signed.
        let computable = signing_string::build(
            &params.headers,
            request.method,
            request.path_and_query,
            headers,
        );
        if let Err(error) = check_signed_headers(&params, headers, has_body, run) {
            run.signing_string = computable.ok();
            return run.fail(Step::SignedHeaders, error);
        }
        let signing_string = match computable {
            Ok(text) => text,
            Err(reason) => {
                return run.fail(
                    Step::SignedHeaders,
                    Refusal::new(Code::BadRequest, Some("Signature"), reason),
                )
            }
        };
        run.signing_string = Some(signing_string);
        run.pass(Step::SignedHeaders, || params.headers.join(" "));

        // Digest.
        if let Some(value) = headers.first("digest") {
            let value = visible_ascii(value).unwrap_or_default();
            match digest::verify(value, request.body) {
                Ok(()) => run.pass(Step::Digest, || "matches the body"),
                Err(DigestProblem::Malformed(reason)) => {
                    return run.fail(Step::Digest, Refusal::format("Digest", reason))
                }
                Err(DigestProblem::Mismatch { expected }) => {
                    return run.fail(
                        Step::Digest,
                        Refusal::new(
                            Code::BadRequest,
                            Some("Digest"),
                            format!(
                                "Digest does not match the {} body bytes received; for these bytes it is {expected}. \
                                 Hash the exact bytes you send, after any serialisation.",
                                request.body.len()
                            ),
                        ),
                    )
                }
            }
        } else {
            run.pass(Step::Digest, || "no body, no Digest");
        }

        // The signature itself.
        let key = tpp
            .rsa_public_key
            .as_deref()
            .expect("RSA key checked in the algorithm step");
        let signing_string = run.signing_string.as_deref().expect("set above");
        let public_key = ring::signature::UnparsedPublicKey::new(
            &ring::signature::RSA_PKCS1_2048_8192_SHA256,
            key,
        );
        if public_key
            .verify(signing_string.as_bytes(), &params.signature)
            .is_err()
        {
            return run.fail(
                Step::Signature,
                Refusal::new(
                    Code::BadRequest,
                    Some("Signature"),
                    format!(
                        "The signature does not verify with the certificate's key (SN={}) over the signing string \
                         the sandbox computed from the headers '{}' (see the next message). Compare it byte for \
                         byte with the string you signed: header values, order, lower-case names, the request \
                         target's path and query.",
                        tpp.serial_hex,
                        params.headers.join(" ")
                    ),
                ),
            );
        }
        run.pass(Step::Signature, || "RSA-SHA256 (PKCS#1 v1.5) verifies");

        Ok(VerifiedTpp {
            certificate: cached,
            tolerated: std::mem::take(&mut run.tolerated),
        })
    }

    fn certificate(
        &self,
        header: &str,
        now: OffsetDateTime,
        run: &mut Run,
    ) -> Result<Arc<CachedCertificate>, Refusal> {
        const HEADER: &str = "TPP-Signature-Certificate";
        let decoded = decode_certificate_header(header)
            .map_err(|e| Refusal::format(HEADER, e.to_string()))?;
        if decoded.was_pem {
            run.tolerate(Tolerance::PemArmouredCertificate, HEADER, "TPP-Signature-Certificate came with PEM armour; it should be the plain base64 of the DER. Production may refuse it.");
        }
        let cached = self.cache.get_or_verify(&self.trust(), &decoded.der);
        let tpp = match &cached.certificate {
            Ok(tpp) => tpp,
            Err(reason) => {
                return Err(Refusal::format(
                    HEADER,
                    format!(
                        "TPP-Signature-Certificate is not a usable X.509 certificate: {reason}"
                    ),
                ))
            }
        };
        if let ChainVerdict::Untrusted(reason) = &cached.chain {
            return Err(Refusal::new(
                Code::BadRequest,
                Some(HEADER),
                format!("The certificate is not trusted: {reason}"),
            ));
        }
        if let ChainVerdict::Trusted { ca_subject } = &cached.chain {
            if let Some(ca_end) = self
                .trust()
                .ca_not_after(ca_subject)
                .filter(|end| now > *end)
            {
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
        let roles: Vec<&str> = tpp.roles().iter().map(|r| r.as_str()).collect();
        run.pass(Step::Certificate, || {
            format!("trusted, valid, roles {}", roles.join(","))
        });
        Ok(cached)
    }
}

fn check_key_id(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    let key_id = signature_header::parse_key_id(&params.key_id)
        .map_err(|r| Refusal::format("Signature", r))?;
    match compare_serial(&key_id.serial, &tpp.serial) {
        SerialMatch::Exact => {}
        SerialMatch::Tolerated(notes) => notes
            .into_iter()
            .for_each(|n| run.tolerate(Tolerance::KeyIdSerialSpelling, "Signature", n)),
        SerialMatch::Mismatch(reason) => {
            return Err(Refusal::new(
                Code::BadRequest,
                Some("Signature"),
                format!("keyId SN does not name the certificate: {reason}"),
            ))
        }
    }
    match compare_issuer(&key_id.issuer, &tpp.issuer) {
        IssuerMatch::Exact => Ok(()),
        IssuerMatch::Tolerated(notes) => {
            notes
                .into_iter()
                .for_each(|n| run.tolerate(Tolerance::KeyIdIssuerSpelling, "Signature", n));
            Ok(())
        }
        IssuerMatch::Mismatch(reason) => Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            format!("keyId CA does not name the certificate's issuer: {reason}"),
        )),
    }
}

fn check_algorithm(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    if tpp.rsa_public_key.is_none() {
        return Err(Refusal::new(
            Code::BadRequest,
            Some("TPP-Signature-Certificate"),
            format!(
                "The certificate's key is {}; this sandbox verifies RSA keys (rsa-sha256) only.",
                tpp.key_algorithm
            ),
        ));
    }
    match params.algorithm.to_ascii_lowercase().as_str() {
        "rsa-sha256" => {
            if params.algorithm != "rsa-sha256" {
                run.tolerate(
                    Tolerance::AlgorithmName,
                    "Signature",
                    format!(
                        "algorithm '{}' should be written 'rsa-sha256'.",
                        params.algorithm
                    ),
                );
            }
            Ok(())
        }
        "hs2019" | "sha256withrsa" => {
            run.tolerate(
                Tolerance::AlgorithmName,
                "Signature",
                format!("algorithm '{}' was read as rsa-sha256 for this RSA certificate; the interface asks for 'rsa-sha256' and production may refuse other names.", params.algorithm),
            );
            Ok(())
        }
        _ => Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            format!(
                "algorithm '{}' is not the certificate's algorithm; use rsa-sha256.",
                params.algorithm
            ),
        )),
    }
}

fn check_signed_headers(
    params: &SignatureParams,
    headers: &dyn HeaderSource,
    has_body: bool,
    run: &mut Run,
) -> Result<(), Refusal> {
    let mut seen: Vec<String> = Vec::with_capacity(params.headers.len());
    for name in &params.headers {
        let lower = name.to_ascii_lowercase();
        if lower != *name {
            run.tolerate(
                Tolerance::SignedHeaderNameCase,
                "Signature",
                format!("signed header names are lower case: write '{lower}', not '{name}'."),
            );
        }
        if seen.contains(&lower) {
            return Err(Refusal::format(
                "Signature",
                format!("the headers part lists '{lower}' twice"),
            ));
        }
        seen.push(lower);
    }
    let signs = |name: &str| seen.iter().any(|s| s == name);
    if !signs("date") {
        return Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            "the headers part must include 'date': an unsigned Date could be replayed.",
        ));
    }
    if has_body && !signs("digest") {
        return Err(Refusal::new(Code::BadRequest, Some("Signature"), "the headers part must include 'digest' on a request with a body, or the body is not covered by the signature."));
    }
    for candidate in SIGNING_CANDIDATES {
        if headers.has(candidate) && !signs(candidate) {
            run.tolerate(
                Tolerance::UnsignedOptionalHeader,
                "Signature",
                format!("the request carries {candidate} but does not sign it; the interface lists it among the headers to sign when present, and production may refuse."),
            );
        }
    }
    Ok(())
}

/// Collects verdicts and warnings while the steps run.
struct Run {
    explain: bool,
    steps: Vec<(Step, Result<Cow<'static, str>, String>)>,
    tolerated: Vec<Tolerated>,
    signing_string: Option<String>,
}

impl Run {
    /// A passed step's note: most are fixed texts, lent rather than copied (this runs for every logged
    /// request).
    fn pass<N: Into<Cow<'static, str>>>(&mut self, step: Step, note: impl FnOnce() -> N) {
        if self.explain {
            self.steps.push((step, Ok(note().into())));
        }
    }

    fn fail<T>(&mut self, step: Step, error: Refusal) -> Result<T, Refusal> {
        let mut error = error;
        error.text = format!(
            "Request signature check failed at step '{}': {}",
            step.name(),
            error.text
        );
        self.steps.push((step, Err(error.text.clone())));
        Err(error)
    }

    /// Accepts something production refuses, noting which tolerance allowed it.
    fn tolerate(&mut self, tolerance: Tolerance, header: &str, text: impl Into<String>) {
        self.tolerated
            .push(Tolerated::new(tolerance, Code::FormatError, header, text));
    }
}
