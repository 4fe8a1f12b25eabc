//! Signing rules, part two: the signature verifies, the headers the request carries are signed (and no
//! others), and the Signature and certificate are written the way the bank documents them (what the
//! sandbox tolerates with a WARNING, production may refuse).

use super::signing::{each_signed, signature, signs};
use super::{Grade, Grader, Rule, Tally, UNSIGNED_FLOW};
use crate::conformance::context::Context;
use crate::conformance::model::Group;
use xs2a_core::signing::steps::SIGNING_CANDIDATES;

pub static RULES: [Rule; 4] = [
    Rule {
        id: "NO-SIG-006",
        group: Group::Signing,
        title: "Every request is signed and its signature verifies",
        spec: "Authentication › Request signing 1, 4, 8-11",
        checks: "The signing headers are present, the Signature header parses, the algorithm fits the certificate, every listed header is there, the Digest matches the body and the RSA-SHA256 signature verifies over the signing string.",
        production: "Refuses a request that is not signed or whose signature fails validation (400).",
        graded: "FAILED for each bank call the gate refused at the required-headers, signature-header, algorithm, signed-headers, digest or signature step (Digest left out on a body and Date are graded by NO-SIG-002 and NO-SIG-003, keyId by NO-SIG-004, the certificate by pre-flight); PASSED otherwise.",
        grader: Grader::Traffic(verifies),
    },
    Rule {
        id: "NO-SIG-007",
        group: Group::Signing,
        title: "Headers the request carries are signed",
        spec: "Authentication › Request signing 7",
        checks: "x-request-id, psu-id, psu-corporate-id and tpp-redirect-uri are listed among the signed headers whenever the request carries them.",
        production: "The bank names them as the headers to sign when present; the sandbox accepts an unsigned one with a WARNING, production may refuse it.",
        graded: "WARNING for each bank call that carries one of them unsigned; PASSED otherwise.",
        grader: Grader::Traffic(carried_signed),
    },
    Rule {
        id: "NO-SIG-008",
        group: Group::Signing,
        title: "Signature and certificate are written as documented",
        spec: "Authentication › Request signing 3, 6, 7, 10",
        checks: "algorithm is exactly rsa-sha256; signed header names are lower case; TPP-Signature-Certificate is the plain base64 of the DER (no PEM armour); a Signature with non-ASCII characters is RFC 2047-wrapped.",
        production: "The sandbox accepts each of these with a WARNING; production may refuse them.",
        graded: "WARNING for each bank call with one of them; PASSED otherwise.",
        grader: Grader::Traffic(canonical),
    },
    Rule {
        id: "NO-SIG-009",
        group: Group::Signing,
        title: "Only the documented headers are signed",
        spec: "Authentication › Request signing 7 (Berlin Group: no other entries may be included)",
        checks: "The headers part lists (request-target) and the candidates only: date, digest, x-request-id, psu-id, psu-corporate-id, tpp-redirect-uri.",
        production: "Berlin Group allows no other entries; the sandbox accepts one (accept, psu-ip-address, content-type) with a WARNING, production may refuse the request.",
        graded: "WARNING for each bank call whose Signature lists another header; PASSED otherwise.",
        grader: Grader::Traffic(only_candidates),
    },
];

/// Gate steps whose refusals this rule grades (the others have rules of their own).
const STEPS: [&str; 6] = [
    "required headers",
    "signature header",
    "algorithm",
    "signed headers",
    "digest",
    "signature",
];

fn verifies(ctx: &Context) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    for call in ctx.bank().filter(|c| c.x.gate.is_some()) {
        tally.seen();
        let Some(step) = call.refused_at() else {
            continue;
        };
        if !STEPS.contains(&step) {
            continue;
        }
        let has_body = call
            .x
            .request_body
            .as_deref()
            .is_some_and(|b| !b.is_empty());
        let digest_left_out = has_body
            && (!call.has("Digest") || signature(call).is_some_and(|p| !signs(&p, "digest")));
        if digest_left_out && matches!(step, "required headers" | "signed headers") {
            continue; // NO-SIG-002's
        }
        let cause = call
            .x
            .gate
            .as_ref()
            .and_then(|g| g.likely_cause.clone())
            .unwrap_or_else(|| {
                call.errors()
                    .first()
                    .map(|e| e.2.to_owned())
                    .unwrap_or_default()
            });
        tally.fail(call.evidence(format!("refused at the gate's {step} step: {cause}")));
    }
    tally.grade("signed bank calls", "No bank call reached the gate.")
}

/// The headers the bank names for signing when present (Date and Digest have rules of their own).
const CARRIED: [&str; 4] = [
    "x-request-id",
    "psu-id",
    "psu-corporate-id",
    "tpp-redirect-uri",
];

fn carried_signed(ctx: &Context) -> Grade {
    each_signed(ctx, |call, params, tally| {
        let unsigned: Vec<&str> = CARRIED
            .iter()
            .copied()
            .filter(|name| call.has(name) && !signs(params, name))
            .collect();
        if !unsigned.is_empty() {
            tally.warn(call.evidence(format!(
                "carries {} but does not sign it",
                unsigned.join(", ")
            )));
        }
    })
}

fn canonical(ctx: &Context) -> Grade {
    each_signed(ctx, |call, params, tally| {
        let mut found = Vec::new();
        if params.algorithm != "rsa-sha256" {
            found.push(format!(
                "algorithm is '{}', not rsa-sha256",
                params.algorithm
            ));
        }
        if params.headers.iter().any(|h| h.to_ascii_lowercase() != *h) {
            found.push("signed header names are not all lower case".to_owned());
        }
        if call
            .header("TPP-Signature-Certificate")
            .is_some_and(|c| c.contains("-----BEGIN"))
        {
            found.push("the certificate comes with PEM armour".to_owned());
        }
        if call.header("Signature").is_some_and(|s| !s.is_ascii()) && !params.was_wrapped {
            found.push(
                "the Signature has non-ASCII characters without the RFC 2047 wrapper".to_owned(),
            );
        }
        if !found.is_empty() {
            tally.warn(call.evidence(found.join("; ")));
        }
    })
}

fn only_candidates(ctx: &Context) -> Grade {
    each_signed(ctx, |call, params, tally| {
        let beyond: Vec<String> = params
            .headers
            .iter()
            .map(|h| h.to_ascii_lowercase())
            .filter(|h| h != "(request-target)" && !SIGNING_CANDIDATES.contains(&h.as_str()))
            .collect();
        if !beyond.is_empty() {
            tally.warn(call.evidence(format!(
                "signs {}, outside the documented candidates",
                beyond.join(", ")
            )));
        }
    })
}
