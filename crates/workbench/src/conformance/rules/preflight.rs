//! Pre-flight: configuration mistakes, said first so that they do not drown the report — the
//! certificate's PSD2 roles, its CA (trusted, valid), the app's clock, and the shape of its redirect URI.
//! These read every request of the TPP (mock-data calls sign with the same certificate and clock).

use super::{Grade, Grader, Rule, Tally, UNSIGNED_FLOW};
use crate::conformance::context::Context;
use crate::conformance::model::Group;
use xs2a_core::signing::qc_statements::Psd2Role;

pub static RULES: [Rule; 4] = [
    Rule {
        id: "NO-PRE-001",
        group: Group::Preflight,
        title: "The certificate has the PSD2 roles the app uses",
        spec: "What the service does 7; Endpoints (AISP, PISP)",
        checks: "Every certificate the app signs with carries the ETSI PSD2 QCStatement, with PSP_AI for account information calls and PSP_PI for payment and basket calls.",
        production: "Refuses a request whose certificate lacks the role (403 FORBIDDEN), and checks the TPP's registration for it against the central register on every request.",
        graded: "FAILED for each bank call whose certificate lacks the role it needs, each refusal for missing roles; PASSED when every call's certificate has its role; NOT EXERCISED without signed calls.",
        grader: Grader::Traffic(roles),
    },
    Rule {
        id: "NO-PRE-002",
        group: Group::Preflight,
        title: "The certificate is trusted and valid",
        spec: "What the service does 7; Authentication › Request signing 3",
        checks: "The certificate chains to a CA the bank trusts, is valid at the bank's time, and parses.",
        production: "Validates the eIDAS certificate on every request and refuses an untrusted, expired or unusable one (400).",
        graded: "FAILED for each request the gate refused at its certificate step for anything but roles; PASSED otherwise.",
        grader: Grader::Traffic(trusted),
    },
    Rule {
        id: "NO-PRE-003",
        group: Group::Preflight,
        title: "The app's clock is right",
        spec: "Authentication › Request signing 2; Limits (clock deviation 60 s)",
        checks: "The typical (median) difference between the app's Date headers and the bank's clock: the app's machine keeps time.",
        production: "Refuses a Date more than 60 seconds from its clock (400); an app whose clock is off fails on every request.",
        graded: "FAILED beyond 60 s, WARNING beyond 10 s (a drifting clock crosses 60 s soon), PASSED within 10 s. Requests accepted against the machine's time after a move of the sandbox clock are left out.",
        grader: Grader::Traffic(clock),
    },
    Rule {
        id: "NO-PRE-004",
        group: Group::Preflight,
        title: "The redirect URI has a usable shape",
        spec: "Authentication › SCA 2-3; Errors (TPP-Redirect-URI an absolute URI)",
        checks: "Every TPP-Redirect-URI is an absolute https URI without a fragment, at most 2,048 bytes.",
        production: "Sends the PSU's browser there after SCA with the result in its query: a malformed address is refused (400 FORMAT_ERROR); one that is not https exposes the psu-id on the way.",
        graded: "FAILED for a value that is not an absolute URI, has a fragment or is too long (or was refused); WARNING for a scheme other than https; PASSED otherwise.",
        grader: Grader::Traffic(redirect),
    },
];

fn roles(ctx: &Context) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    for call in &ctx.calls {
        if call.refused_at() == Some("certificate")
            && call
                .errors()
                .iter()
                .any(|(_, _, text)| text.contains("no PSD2 roles"))
        {
            tally.seen();
            tally.fail(call.evidence("the certificate carries no PSD2 roles"));
            continue;
        }
        if !call.is_bank() {
            continue;
        }
        let Some(certificate) = ctx.certificate(call) else {
            continue;
        };
        let needed = if call.op.is_ais() {
            Some(Psd2Role::PspAi)
        } else if call.op.is_pis() {
            Some(Psd2Role::PspPi)
        } else {
            None
        };
        let Some(role) = needed else { continue };
        tally.seen();
        if !certificate.has_role(role) {
            let has: Vec<&str> = certificate.roles().iter().map(|r| r.as_str()).collect();
            tally.fail(call.evidence(format!(
                "this call needs {}; the certificate has {}",
                role.as_str(),
                if has.is_empty() {
                    "none".to_owned()
                } else {
                    has.join(", ")
                }
            )));
        }
    }
    tally.grade(
        "calls that need a role",
        "No signed account information or payment call.",
    )
}

fn trusted(ctx: &Context) -> Grade {
    if !ctx.signed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let mut tally = Tally::default();
    for call in ctx.calls.iter().filter(|c| c.x.gate.is_some()) {
        tally.seen();
        let Some(text) = call.failed_at("certificate") else {
            continue;
        };
        if text.contains("no PSD2 roles") {
            continue;
        }
        tally.fail(call.evidence(format!(
            "the gate refused the certificate: {}",
            text.trim_start_matches("Request signature check failed at step 'certificate': ")
        )));
    }
    tally.grade("signed requests", "No signed request.")
}

/// A Date header's distance from the bank's clock when the request arrived, in seconds; None when the
/// gate accepted a distance over 60 s (it compared with the machine's time: the sandbox clock was moved).
pub fn skew(call: &crate::conformance::context::Call) -> Option<f64> {
    let sent = xs2a_core::signing::http_date::parse(call.header("Date")?).ok()?;
    let skew = (sent - call.x.at?).as_seconds_f64();
    let accepted_far = skew.abs() > 60.0 && call.refused_at() != Some("date");
    (!accepted_far).then_some(skew)
}

/// The median of some values (None for none).
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(|a, b| a.total_cmp(b));
    Some(values[values.len() / 2])
}

fn clock(ctx: &Context) -> Grade {
    if !ctx.signed || !ctx.timed {
        return Grade::not_exercised(UNSIGNED_FLOW);
    }
    let timed: Vec<(&crate::conformance::context::Call, f64)> = ctx
        .calls
        .iter()
        .filter_map(|c| skew(c).map(|s| (c, s)))
        .collect();
    let mut skews: Vec<f64> = timed.iter().map(|(_, s)| *s).collect();
    let Some(typical) = median(&mut skews) else {
        return Grade::not_exercised("No request with a Date header the bank's clock could judge.");
    };
    let Some((example, _)) = timed
        .iter()
        .min_by(|a, b| (a.1 - typical).abs().total_cmp(&(b.1 - typical).abs()))
    else {
        return Grade::not_exercised("No request with a Date header.");
    };
    let direction = if typical < 0.0 { "behind" } else { "ahead of" };
    let said = format!(
        "the app's Date headers are typically {:.0} s {direction} the bank's clock",
        typical.abs()
    );
    let exercised = timed.len() as u32;
    let (verdict, summary) = if typical.abs() > 60.0 {
        (
            crate::conformance::model::Verdict::Failed,
            format!("{said}: more than the 60 s the bank allows. Synchronise the machine's clock (NTP)."),
        )
    } else if typical.abs() > 10.0 {
        (
            crate::conformance::model::Verdict::Warning,
            format!("{said}: within the 60 s allowed, but a clock this far off drifts past it. Synchronise the machine's clock (NTP)."),
        )
    } else {
        return Grade::of(
            crate::conformance::model::Verdict::Passed,
            format!("{said} (over {exercised} requests)."),
            exercised,
            Vec::new(),
        );
    };
    Grade::of(verdict, summary, exercised, vec![example.evidence(said)])
}

/// What is wrong with a redirect URI's shape, if anything: (fatal, reason).
pub fn redirect_problem(uri: &str) -> Option<(bool, String)> {
    if uri.len() > 2048 {
        return Some((
            true,
            format!("it is {} bytes long; at most 2,048", uri.len()),
        ));
    }
    let Some((scheme, rest)) = uri.split_once("://") else {
        return Some((true, "it is not an absolute URI (scheme://host/...)".into()));
    };
    let scheme_ok = !scheme.is_empty()
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if !scheme_ok || host.is_empty() {
        return Some((true, "it is not an absolute URI (scheme://host/...)".into()));
    }
    if uri.contains('#') {
        return Some((
            true,
            "it has a fragment (#...): the bank appends the result to the query, and a fragment would swallow it".into(),
        ));
    }
    if !scheme.eq_ignore_ascii_case("https") {
        return Some((
            false,
            format!("its scheme is {scheme}, not https: the psu-id travels in the query to this address"),
        ));
    }
    None
}

fn redirect(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    let mut judged: std::collections::HashMap<&str, Option<(bool, String)>> = Default::default();
    for call in ctx.bank() {
        let refused = call.errors().iter().any(|(code, path, _)| {
            *code == "FORMAT_ERROR" && path.eq_ignore_ascii_case("TPP-Redirect-URI")
        });
        let Some(uri) = call.header("TPP-Redirect-URI") else {
            continue;
        };
        tally.seen();
        if refused {
            tally.fail(call.evidence("the bank refused this TPP-Redirect-URI"));
            continue;
        }
        // Said once per address, at its first use.
        if judged.contains_key(uri) {
            continue;
        }
        let problem = redirect_problem(uri);
        judged.insert(uri, problem.clone());
        match problem {
            Some((true, reason)) => {
                tally.fail(call.evidence(format!("TPP-Redirect-URI {uri}: {reason}")))
            }
            Some((false, reason)) => {
                tally.warn(call.evidence(format!("TPP-Redirect-URI {uri}: {reason}")))
            }
            None => {}
        }
    }
    tally.grade(
        "requests with a TPP-Redirect-URI",
        "No bank call carried a TPP-Redirect-URI.",
    )
}
