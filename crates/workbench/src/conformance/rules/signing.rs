//! Signing rules, part one: what the signature covers and names — (request-target), Digest on a body,
//! the Date of each request and its drift, keyId naming the certificate exactly, and X-Request-ID
//! unique per request. Graded over the bank's interface (what production sees) and only where the
//! traffic keeps the signing headers (not a flow file).

use super::preflight::{median, skew};
use super::{named, Grade, Grader, Rule, Tally, UNSIGNED_FLOW};
use crate::conformance::context::{Call, Context};
use crate::conformance::model::Group;
use std::collections::HashMap;
use xs2a_core::signing::key_id::issuer::{compare_issuer, IssuerMatch};
use xs2a_core::signing::key_id::parse_key_id;
use xs2a_core::signing::key_id::serial::{compare_serial, SerialMatch};
use xs2a_core::signing::signature_header::{self, SignatureParams};

pub static RULES: [Rule; 5] = [
    Rule {
        id: "NO-SIG-001",
        group: Group::Signing,
        title: "The signature covers the request target",
        spec: "Authentication › Request signing 7",
        checks: "Every Signature lists (request-target), so that it covers the method, path and query.",
        production: "Accepts a signature without it (the bank lists it as optional, and its own signing proxy leaves it out); the signature then does not bind the request to its endpoint, and the same headers verify on another path within the Date window.",
        graded: "WARNING for each bank call whose Signature does not list (request-target); PASSED when all do.",
        grader: Grader::Traffic(request_target),
    },
    Rule {
        id: "NO-SIG-002",
        group: Group::Signing,
        title: "Digest is sent and signed on every request with a body",
        spec: "Authentication › Request signing 7 and 11; Common header set (Digest)",
        checks: "A request with a body carries Digest and lists digest among the signed headers.",
        production: "Refuses it (400): without a signed Digest the body is not covered by the signature.",
        graded: "FAILED for each bank call with a body that has no Digest or does not sign it; PASSED otherwise.",
        grader: Grader::Traffic(digest_signed),
    },
    Rule {
        id: "NO-SIG-003",
        group: Group::Signing,
        title: "Each request's Date is fresh, and does not drift",
        spec: "Authentication › Request signing 2; Limits (clock deviation 60 s)",
        checks: "Each Date is within 60 s of the bank's clock and within 30 s of the app's usual offset (a Date made for this request, not kept from an earlier one); over the session the offset moves by less than 10 s.",
        production: "Refuses a Date more than 60 s off (400); a Date reused from an earlier signature fails once it ages, and a drifting clock fails one day.",
        graded: "FAILED for a request refused at the date step or 30 s off the app's usual offset; WARNING when the offset drifts by 10 s or more over the selection; PASSED otherwise.",
        grader: Grader::Traffic(date),
    },
    Rule {
        id: "NO-SIG-004",
        group: Group::Signing,
        title: "keyId names the certificate exactly",
        spec: "Authentication › Request signing 5",
        checks: "keyId is SN=<the serial in upper-case hex>,CA=<the issuer exactly as RFC 2253 writes it>.",
        production: "Compares keyId with the certificate; the sandbox tolerates another order, spelling or subset of the issuer (and a lower-case serial) with a WARNING, production may refuse them; a keyId naming another certificate is refused (400).",
        graded: "FAILED for a keyId refused by the gate or naming another certificate; WARNING for one the gate only tolerated (CA string not byte for byte the issuer, serial written otherwise); PASSED otherwise.",
        grader: Grader::Traffic(key_id),
    },
    Rule {
        id: "NO-SIG-005",
        group: Group::Signing,
        title: "X-Request-ID is unique per request",
        spec: "Common header set (X-Request-ID: unique identifier of the call)",
        checks: "No X-Request-ID is used for two different requests (another method, path, query or body). Resending the very same request with its id is not counted.",
        production: "Uses the id to trace and deduplicate calls: a reused id makes two calls one in its logs, and may answer the second with the first's result.",
        graded: "FAILED for each request that reuses an earlier, different request's X-Request-ID; PASSED otherwise.",
        grader: Grader::Traffic(request_id),
    },
];

/// The parsed Signature header of a call.
pub fn signature(call: &Call) -> Option<SignatureParams> {
    signature_header::parse(call.header("Signature")?).ok()
}

/// Whether the Signature lists a header (in any case).
pub fn signs(params: &SignatureParams, name: &str) -> bool {
    params.headers.iter().any(|h| h.eq_ignore_ascii_case(name))
}

/// Grades every signed bank call with `judge`, which warns or fails on the tally (a flow without the
/// signing headers is not exercised).
pub fn each_signed(
    ctx: &Context,
    mut judge: impl FnMut(&Call, &SignatureParams, &mut Tally),
) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    for call in ctx.bank() {
        let Some(params) = signature(call) else {
            continue;
        };
        tally.seen();
        judge(call, &params, &mut tally);
    }
    tally.grade("signed bank calls", "No signed bank call.")
}

fn request_target(ctx: &Context) -> Grade {
    each_signed(ctx, |call, params, tally| {
        if !signs(params, "(request-target)") {
            tally.warn(call.evidence(format!(
                "the Signature lists '{}' without (request-target)",
                params.headers.join(" ")
            )));
        }
    })
}

fn digest_signed(ctx: &Context) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    for call in ctx.bank() {
        let has_body = call
            .x
            .request_body
            .as_deref()
            .is_some_and(|b| !b.is_empty())
            || call.x.request_body_binary;
        if !has_body {
            continue;
        }
        tally.seen();
        if !call.has("Digest") {
            tally.fail(call.evidence("a request with a body and no Digest header"));
        } else if signature(call).is_some_and(|p| !signs(&p, "digest")) {
            tally.fail(call.evidence("Digest is sent but not listed among the signed headers"));
        }
    }
    tally.grade("bank calls with a body", "No bank call with a body.")
}

fn date(ctx: &Context) -> Grade {
    if !ctx.signed || !ctx.timed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let timed: Vec<(&Call, f64)> = ctx.bank().filter_map(|c| skew(c).map(|s| (c, s))).collect();
    let mut all: Vec<f64> = timed.iter().map(|(_, s)| *s).collect();
    let Some(usual) = median(&mut all) else {
        return Grade::not_exercised(
            "No bank call with a Date header the bank's clock could judge.",
        );
    };
    let mut tally = Tally::default();
    let mut in_line: Vec<(&Call, f64)> = Vec::new();
    for (call, skew) in &timed {
        tally.seen();
        if call.refused_at() == Some("date") {
            tally.fail(call.evidence(format!(
                "Date is {:.0} s from the bank's clock: refused (at most 60 s)",
                skew.abs()
            )));
        } else if (skew - usual).abs() > 30.0 {
            tally.fail(call.evidence(format!(
                "Date is {:.0} s from the bank's clock where the app's other requests are {:.0} s: a Date not made for this request",
                skew, usual
            )));
        } else {
            in_line.push((call, *skew));
        }
    }
    if let (Some(first), Some(last)) = (in_line.first(), in_line.last()) {
        let drift = last.1 - first.1;
        if drift.abs() >= 10.0 {
            tally.warn(
                first
                    .0
                    .evidence(format!("the Date offset is {:.0} s here", first.1)),
            );
            tally.warn(last.0.evidence(format!(
                "and {:.0} s here: the app's clock drifted {:.0} s over the selection",
                last.1, drift
            )));
        }
    }
    tally.grade("dated bank calls", "No bank call with a Date header.")
}

fn key_id(ctx: &Context) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    for call in ctx.bank() {
        if let Some(text) = call.failed_at("keyId") {
            tally.seen();
            let text = text.trim_start_matches("Request signature check failed at step 'keyId': ");
            tally.fail(call.evidence(format!("the gate refused keyId: {text}")));
            continue;
        }
        let (Some(params), Some(certificate)) = (signature(call), ctx.certificate(call)) else {
            continue;
        };
        let Ok(key) = parse_key_id(&params.key_id) else {
            continue;
        };
        tally.seen();
        let issuer = certificate.issuer.to_rfc2253();
        match compare_issuer(key.issuer, &certificate.issuer) {
            IssuerMatch::Mismatch(reason) => {
                tally.fail(call.evidence(format!("keyId's CA names another issuer: {reason}")))
            }
            IssuerMatch::Tolerated(_) if key.issuer != issuer => {
                tally.warn(call.evidence(format!(
                    "keyId's CA= is '{}'; the issuer, as RFC 2253 writes it, is '{issuer}'",
                    key.issuer
                )))
            }
            _ => {}
        }
        match compare_serial(key.serial, &certificate.serial) {
            SerialMatch::Mismatch(reason) => tally.fail(call.evidence(reason)),
            SerialMatch::Tolerated(notes) if !notes.is_empty() => {
                tally.warn(call.evidence(notes.join(" ")))
            }
            _ => {}
        }
    }
    tally.grade("signed bank calls", "No signed bank call.")
}

fn request_id(ctx: &Context) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    let mut first: HashMap<&str, &Call> = HashMap::new();
    for call in ctx.bank() {
        let Some(id) = call.header("X-Request-ID") else {
            continue;
        };
        tally.seen();
        match first.get(id) {
            None => {
                first.insert(id, call);
            }
            Some(earlier) => {
                let same = earlier.x.method == call.x.method
                    && earlier.x.target() == call.x.target()
                    && earlier.x.request_body == call.x.request_body;
                if !same {
                    tally.fail(call.evidence(format!(
                        "X-Request-ID {id} was already used by {}",
                        named(earlier)
                    )));
                }
            }
        }
    }
    tally.grade(
        "bank calls with an X-Request-ID",
        "No bank call carried an X-Request-ID.",
    )
}
