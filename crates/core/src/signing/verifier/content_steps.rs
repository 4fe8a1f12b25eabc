//! The steps that check what was signed: the signed-header list and the signing string built from it,
//! the Digest against the body, and the RSA-SHA256 signature over the signing string.

use super::request_steps::Unavailable;
use super::run::Run;
use super::RequestToVerify;
use crate::domain::refusal::{Code, Refusal};
use crate::domain::tolerance::Tolerance;
use crate::signing::certificate::TppCertificate;
use crate::signing::digest::{self, DigestProblem};
use crate::signing::headers::{visible_ascii, HeaderSource};
use crate::signing::signature_header::SignatureParams;
use crate::signing::steps::{Step, SIGNING_CANDIDATES};
use crate::signing::{rsa_sha256, signing_string};

/// The signed-header list covers what it must, and the signing string is built from it. The string is
/// built whatever the list's verdict (when every listed header can be read: `blocked` names one that
/// cannot), so that the signature is still checked over what was sent and a refusal of the list itself
/// (say Date left out) still shows what the sandbox verified, beside the string the client signed.
pub(super) fn signed_headers(
    params: &SignatureParams,
    request: &RequestToVerify,
    blocked: Option<Unavailable>,
    run: &mut Run,
) -> Result<(), Refusal> {
    let rules = check_signed_headers(params, request.headers, !request.body.is_empty(), run);
    if blocked.is_none() {
        match signing_string::build(
            &params.headers,
            request.method,
            request.path_and_query,
            request.headers,
        ) {
            Ok(built) => run.signing_string = Some(built),
            // A listed header the request lacks: the list's own problem, unless it has a worse one.
            Err(reason) => {
                rules?;
                return Err(Refusal::new(Code::BadRequest, Some("Signature"), reason));
            }
        }
    }
    rules?;
    run.pass(Step::SignedHeaders, || params.headers.join(" "));
    Ok(())
}

/// The Digest, when sent, matches the body bytes received.
pub(super) fn digest(request: &RequestToVerify, run: &mut Run) -> Result<(), Refusal> {
    let Some(value) = request.headers.first("digest") else {
        run.pass(Step::Digest, || "no body, no Digest");
        return Ok(());
    };
    let value = visible_ascii(value).unwrap_or_default();
    match digest::verify(value, request.body) {
        Ok(()) => {
            run.pass(Step::Digest, || "matches the body");
            Ok(())
        }
        Err(DigestProblem::Malformed(reason)) => Err(Refusal::format("Digest", reason)),
        Err(DigestProblem::Mismatch { expected }) => Err(Refusal::new(
            Code::BadRequest,
            Some("Digest"),
            format!(
                "Digest does not match the {} body bytes received; for these bytes it is {expected}. \
                 Hash the exact bytes you send, after any serialisation.",
                request.body.len()
            ),
        )),
    }
}

/// The signature verifies with the certificate's RSA key over the signing string the sandbox built.
pub(super) fn signature(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    let key = tpp
        .rsa_public_key
        .as_deref()
        .expect("RSA key checked in the algorithm step");
    let signing_string = run
        .signing_string
        .as_deref()
        .expect("built in the signed-headers step");
    if !rsa_sha256::verify(key, signing_string.as_bytes(), &params.signature) {
        return Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            // Short: the signing string itself follows in the same 512-character text (`answer`).
            format!(
                "The signature does not verify with the certificate's key (SN={}) over the signing string \
                 the sandbox computed: compare it byte for byte with yours (values, order, lower-case \
                 names, path and query).",
                tpp.serial_hex,
            ),
        ));
    }
    run.pass(Step::Signature, || "RSA-SHA256 (PKCS#1 v1.5) verifies");
    Ok(())
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
    let beyond: Vec<&str> = seen
        .iter()
        .map(String::as_str)
        .filter(|name| *name != "(request-target)" && !SIGNING_CANDIDATES.contains(name))
        .collect();
    if !beyond.is_empty() {
        run.tolerate(
            Tolerance::SignedHeaderBeyondCandidates,
            "Signature",
            format!(
                "the headers part lists {}, outside the headers the interface names for signing ({}); \
                 Berlin Group allows no other entries, and production may refuse.",
                beyond.join(", "),
                SIGNING_CANDIDATES.join(", ")
            ),
        );
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
