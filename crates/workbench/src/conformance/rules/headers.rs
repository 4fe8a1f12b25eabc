//! Header rules: the headers the bank's sets B (signing baskets) and P (payment creation) require, the
//! redirect URI on every request, PSU-Corporate-ID in corporate context, x-accept-fix, PSU-ID once it is
//! known, well-formed header values, and JSON bodies in UTF-8.

use super::{Grade, Grader, Rule, Tally};
use crate::conformance::context::Context;
use crate::conformance::model::Group;
use crate::conformance::operation::Op;
use std::collections::HashMap;

pub static RULES: [Rule; 8] = [
    Rule {
        id: "NO-HDR-001",
        group: Group::Headers,
        title: "TPP-Redirect-URI on every request",
        spec: "Common header set (TPP-Redirect-URI, B and P); Authentication › SCA 2",
        checks: "Payment creation and basket calls carry TPP-Redirect-URI; every other call to the bank does too, since the TPP cannot know in advance whether SCA is needed.",
        production: "Refuses a payment or basket call without it (400 HTTP_HEADER_REQUIRED); on other calls it cannot offer SCA without it.",
        graded: "FAILED for each B/P call without it; WARNING for each other bank call without it; PASSED otherwise.",
        grader: Grader::Traffic(redirect_uri),
    },
    Rule {
        id: "NO-HDR-002",
        group: Group::Headers,
        title: "PSU-IP-Address on every payment and basket call",
        spec: "Common header set (PSU-IP-Address, B and P)",
        checks: "Payment creation and every basket call carry PSU-IP-Address.",
        production: "Refuses the call without it (400 HTTP_HEADER_REQUIRED).",
        graded: "FAILED for each B/P call without it; PASSED otherwise.",
        grader: Grader::Traffic(psu_ip),
    },
    Rule {
        id: "NO-HDR-003",
        group: Group::Headers,
        title: "TPP-Session-ID on every payment and basket call",
        spec: "Common header set (TPP-Session-ID, B and P); Authentication › TPP-Session-ID rules",
        checks: "Payment creation and every basket call carry TPP-Session-ID.",
        production: "Refuses the call without it (400 HTTP_HEADER_REQUIRED).",
        graded: "FAILED for each B/P call without it; PASSED otherwise.",
        grader: Grader::Traffic(session_id),
    },
    Rule {
        id: "NO-HDR-004",
        group: Group::Headers,
        title: "PSU-Corporate-ID in corporate context",
        spec: "What the service does › Private and corporate context",
        checks: "After an SCA in corporate context, later calls for that PSU in that TPP-Session-ID carry PSU-Corporate-ID beside PSU-ID.",
        production: "Refuses a corporate user's call without it (400).",
        graded: "FAILED for each such call without it (or refused for it); PASSED otherwise; NOT EXERCISED without a corporate SCA.",
        grader: Grader::Traffic(corporate_id),
    },
    Rule {
        id: "NO-HDR-005",
        group: Group::Headers,
        title: "x-accept-fix on every payment and basket call",
        spec: "Common header set (x-accept-fix, B and P); Versioning › Early activation",
        checks: "Payment creation and basket calls carry x-accept-fix, naming only published fixes.",
        production: "Requires the header on these calls (400 HTTP_HEADER_REQUIRED); an unknown fix name is ignored with a WARNING.",
        graded: "FAILED for each B/P call without it; WARNING for a fix name the bank has not published; PASSED otherwise.",
        grader: Grader::Traffic(accept_fix),
    },
    Rule {
        id: "NO-HDR-006",
        group: Group::Headers,
        title: "PSU-ID once obtained, not X-PSU-IDENTITY again",
        spec: "Authentication › SCA 5; Redirect after successful SCA (psu-id)",
        checks: "Once an SCA gave the TPP a psu-id, later calls for that PSU send it as PSU-ID — not the national identity number in X-PSU-IDENTITY, and not nothing — and every PSU-ID sent is one the bank gave this TPP.",
        production: "A psu-id stays valid and identifies the PSU on all later requests; a PSU-ID it never gave this TPP is refused (401 PSU_CREDENTIALS_INVALID).",
        graded: "FAILED for each call that sends X-PSU-IDENTITY for a PSU whose psu-id the TPP has, that names no PSU in a session whose psu-id it has, or whose PSU-ID the bank refused; PASSED otherwise; NOT EXERCISED before any psu-id.",
        grader: Grader::Traffic(psu_id),
    },
    Rule {
        id: "NO-HDR-007",
        group: Group::Headers,
        title: "Header values are well formed",
        spec: "Common header set (types); Errors",
        checks: "PSU-ID and PSU-Device-ID are UUIDs, PSU-IP-Address an IP address, PSU-Context PRIVATE or CORPORATE, TPP-Redirect-Preferred true or false, and so on.",
        production: "Refuses a malformed value (400 FORMAT_ERROR naming the header).",
        graded: "FAILED for each bank call refused with FORMAT_ERROR at a header other than the signing headers and TPP-Redirect-URI (graded elsewhere); PASSED otherwise.",
        grader: Grader::Traffic(well_formed),
    },
    Rule {
        id: "NO-HDR-008",
        group: Group::Headers,
        title: "Bodies are JSON in UTF-8",
        spec: "What the service does 1",
        checks: "Every request body is JSON, encoded as UTF-8, sent as application/json.",
        production: "Supports JSON only: XML or another media type is refused (415), text that is not UTF-8 or not JSON is refused (400).",
        graded: "FAILED for each bank call whose body is not UTF-8, not JSON, or sent as another media type; PASSED otherwise.",
        grader: Grader::Traffic(json_bodies),
    },
];

/// A B/P call without `header`: FAILED each; returns the tally.
fn required_on_b_p(ctx: &Context, header: &str) -> Tally {
    let mut tally = Tally::default();
    for call in ctx.bank().filter(|c| c.op.in_set_b_or_p()) {
        tally.seen();
        if !call.has(header) {
            tally.fail(call.evidence(format!("a payment or basket call without {header}")));
        }
    }
    tally
}

const NO_B_P: &str = "No payment creation or basket call.";

fn redirect_uri(ctx: &Context) -> Grade {
    let mut tally = required_on_b_p(ctx, "TPP-Redirect-URI");
    for call in ctx.bank().filter(|c| !c.op.in_set_b_or_p()) {
        tally.seen();
        if !call.has("TPP-Redirect-URI") {
            tally.warn(call.evidence(
                "a call without TPP-Redirect-URI: the bank could not offer SCA if it needed it",
            ));
        }
    }
    tally.grade("bank calls", "No bank call.")
}

fn psu_ip(ctx: &Context) -> Grade {
    required_on_b_p(ctx, "PSU-IP-Address").grade("payment and basket calls", NO_B_P)
}

fn session_id(ctx: &Context) -> Grade {
    required_on_b_p(ctx, "TPP-Session-ID").grade("payment and basket calls", NO_B_P)
}

fn corporate_id(ctx: &Context) -> Grade {
    // (session, psu-id) -> where its SCA said CORPORATE (or PRIVATE again).
    let mut tally = Tally::default();
    let mut corporate: HashMap<(String, String), bool> = HashMap::new();
    let mut endings = ctx.completed().peekable();
    for call in ctx.bank() {
        while let Some(end) = endings.next_if(|e| e.pos < call.pos) {
            if let (Some(session), Some(psu)) = (&end.session, &end.psu_id) {
                corporate.insert(
                    (session.clone(), psu.clone()),
                    end.context.as_deref() == Some("CORPORATE"),
                );
            }
        }
        let refused = call.errors().iter().any(|(code, path, _)| {
            *code == "HTTP_HEADER_REQUIRED" && path.eq_ignore_ascii_case("PSU-Corporate-ID")
        });
        let key = (
            call.header("TPP-Session-ID").unwrap_or_default().to_owned(),
            call.header("PSU-ID").unwrap_or_default().to_owned(),
        );
        if refused || corporate.get(&key) == Some(&true) {
            tally.seen();
            if refused || !call.has("PSU-Corporate-ID") {
                tally.fail(call.evidence(
                    "the PSU acts in corporate context here, and the call has no PSU-Corporate-ID",
                ));
            }
        }
    }
    tally.grade(
        "calls in corporate context",
        "No SCA in corporate context: nothing to grade.",
    )
}

/// The fixes the bank has published (docs/reference/ais-sca.md#the-rules-each-with-a-test).
pub const PUBLISHED_FIXES: [&str; 4] = [
    "amount-as-string",
    "cardaccount-switch-originalamount-and-transactionamount",
    "longer-names",
    "cash-account-type-iso",
];

fn accept_fix(ctx: &Context) -> Grade {
    let mut tally = required_on_b_p(ctx, "x-accept-fix");
    for call in ctx.bank() {
        let Some(value) = call.header("x-accept-fix") else {
            continue;
        };
        let unknown: Vec<&str> = value
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty() && !PUBLISHED_FIXES.contains(n))
            .collect();
        if !unknown.is_empty() {
            tally.warn(call.evidence(format!(
                "x-accept-fix names {}, which the bank has not published",
                unknown.join(", ")
            )));
        }
    }
    tally.grade("payment and basket calls", NO_B_P)
}

/// Operations that name a PSU (and so want PSU-ID once it is known).
fn names_a_psu(op: &Op) -> bool {
    matches!(
        op,
        Op::AccountList { .. }
            | Op::Account { .. }
            | Op::Agreements
            | Op::ConsentRead
            | Op::PaymentCreate { .. }
            | Op::BasketCreate
    )
}

fn psu_id(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    let mut by_national: HashMap<String, String> = HashMap::new();
    let mut by_session: HashMap<String, String> = HashMap::new();
    let mut endings = ctx.completed().peekable();
    for call in ctx.bank() {
        while let Some(end) = endings.next_if(|e| e.pos < call.pos) {
            if let Some(psu) = &end.psu_id {
                if let Some(national) = &end.national_id {
                    by_national.insert(national.clone(), psu.clone());
                }
                if let Some(session) = &end.session {
                    by_session.insert(session.clone(), psu.clone());
                }
            }
        }
        if call.errors().iter().any(|(code, path, _)| {
            *code == "PSU_CREDENTIALS_INVALID" && path.eq_ignore_ascii_case("PSU-ID")
        }) {
            tally.seen();
            tally.fail(call.evidence("the bank never gave this TPP the PSU-ID sent"));
            continue;
        }
        if call.has("PSU-ID") {
            if !by_national.is_empty() || !by_session.is_empty() {
                tally.seen();
            }
            continue;
        }
        if let Some(national) = call.header("X-PSU-IDENTITY") {
            if let Some(psu) = by_national.get(national) {
                tally.seen();
                tally.fail(call.evidence(format!(
                    "X-PSU-IDENTITY again for a PSU whose psu-id ({psu}) the TPP already has"
                )));
            }
            continue;
        }
        let session_psu = call
            .header("TPP-Session-ID")
            .and_then(|s| by_session.get(s));
        if let (Some(psu), true) = (session_psu, names_a_psu(&call.op)) {
            tally.seen();
            tally.fail(call.evidence(format!(
                "no PSU-ID, though the SCA in this TPP-Session-ID gave the psu-id {psu}"
            )));
        }
    }
    tally.grade(
        "calls after a psu-id was obtained",
        "No SCA gave the TPP a psu-id in the selection.",
    )
}

/// The signing headers (graded by the signing rules) and TPP-Redirect-URI (pre-flight).
const GRADED_ELSEWHERE: [&str; 6] = [
    "date",
    "signature",
    "digest",
    "tpp-signature-certificate",
    "x-request-id",
    "tpp-redirect-uri",
];

fn well_formed(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx.bank() {
        tally.seen();
        let bad: Vec<&str> = call
            .errors()
            .iter()
            .filter(|(code, path, _)| {
                *code == "FORMAT_ERROR"
                    && !GRADED_ELSEWHERE.contains(&path.to_ascii_lowercase().as_str())
                    && call.has(path)
            })
            .map(|(_, path, _)| *path)
            .collect();
        if let Some(header) = bad.first() {
            let text = call
                .errors()
                .iter()
                .find(|e| e.1 == *header)
                .map(|e| e.2.to_owned())
                .unwrap_or_default();
            tally.fail(call.evidence(format!("the bank refused the header {header}: {text}")));
        }
    }
    tally.grade("bank calls", "No bank call.")
}

fn json_bodies(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx.bank() {
        let body = call.x.request_body.as_deref().filter(|b| !b.is_empty());
        if body.is_none() && !call.x.request_body_binary {
            continue;
        }
        tally.seen();
        let media = call.header("Content-Type").unwrap_or_default();
        let json_media = media.to_ascii_lowercase().contains("json");
        if call.x.request_body_binary {
            tally.fail(call.evidence("the body is not UTF-8 text"));
        } else if call.request.is_none() {
            tally.fail(call.evidence("the body is not JSON"));
        } else if !json_media || call.x.status == 415 {
            tally.fail(call.evidence(format!(
                "the body is sent as '{}', not application/json",
                if media.is_empty() {
                    "(no Content-Type)"
                } else {
                    media
                }
            )));
        }
    }
    tally.grade("bank calls with a body", "No bank call with a body.")
}
