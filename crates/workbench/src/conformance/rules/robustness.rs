//! Robustness rules: how the app reacts when the bank says no — CONSENT_EXPIRED, 429, 503, a payment call
//! that timed out, an SCA that failed or was cancelled. Graded from what the traffic shows (the answer,
//! its Retry-After, when the next request came), so they work whether a conformance run's fault plan
//! injected the answer or the bank gave it; times are the sandbox clock's, so a clock that stood still
//! (frozen) makes a wait unmeasurable (REVIEW), never a failure.

use super::{named, Grade, Grader, Rule, Tally, UNTIMED_FLOW};
use crate::conformance::context::{Call, Context, Elapsed, ScaOutcome};
use crate::conformance::model::Group;
use crate::conformance::operation::Op;
use time::OffsetDateTime;

/// An answer slower than this is taken as a timeout: a client that waited so long has given up.
pub const TIMEOUT_SECONDS: u64 = 30;
/// A retry sooner than this after a failed or cancelled SCA was not chosen by a person.
pub const BLIND_RETRY_SECONDS: f64 = 10.0;
/// Without Retry-After, the least back-off after a 503.
pub const MIN_BACKOFF_SECONDS: f64 = 1.0;

pub static RULES: [Rule; 5] = [
    Rule {
        id: "NO-ROB-001",
        group: Group::Robustness,
        title: "After CONSENT_EXPIRED the app stops reading until a new SCA",
        spec: "Authentication › TPP-Session-ID rules 4; User-not-present access; Errors (CONSENT_EXPIRED)",
        checks: "After a 401 CONSENT_EXPIRED, no further account read for that PSU (or, without the PSU, that account) until the PSU completed a new SCA (or read the account online).",
        production: "Answers every such read 401 until the PSU renews the consent with SCA; reads without the PSU need an online read with SCA in the last 90 days.",
        graded: "FAILED for each read made after such an answer before a new SCA; PASSED otherwise; NOT EXERCISED without such an answer.",
        grader: Grader::Traffic(consent_expired),
    },
    Rule {
        id: "NO-ROB-002",
        group: Group::Robustness,
        title: "After 429 the app waits for Retry-After",
        spec: "Limits; Errors (ACCESS_EXCEEDED)",
        checks: "After a 429, the next call to the same endpoint comes no sooner than Retry-After says; without Retry-After, the app does not call again into the same refusal.",
        production: "Answers 429 ACCESS_EXCEEDED while a limit is used up (the PSU-not-present reads, rate limits), with Retry-After when it knows when.",
        graded: "FAILED for a call sooner than Retry-After, or one that met the same 429 again; REVIEW when the sandbox clock stood still; PASSED otherwise; NOT EXERCISED without a 429.",
        grader: Grader::Traffic(too_many),
    },
    Rule {
        id: "NO-ROB-003",
        group: Group::Robustness,
        title: "After a 503 the app backs off",
        spec: "Errors; What the service does (maintenance)",
        checks: "After a 503, the next call to the bank waits at least Retry-After (or 1 s without it), and repeated 503s are met with waits that do not shrink.",
        production: "Answers 503 during maintenance, with the time it ends; hammering it delays everyone's recovery.",
        graded: "FAILED for a call sooner than Retry-After (or 1 s); WARNING when waits shrink over three or more 503s in a row; REVIEW when the sandbox clock stood still; PASSED otherwise; NOT EXERCISED without a 503.",
        grader: Grader::Traffic(unavailable),
    },
    Rule {
        id: "NO-ROB-004",
        group: Group::Robustness,
        title: "After a timeout on a payment the app reads the status before retrying",
        spec: "Endpoints › 3 (allowLogicalDuplicate); GET …/status",
        checks: "When a payment or basket call timed out (no answer, 408/504, or an answer slower than 30 s), the app reads the payment's status before it repeats a change to it, and does not re-create it with allowLogicalDuplicate=true.",
        production: "May have done what the timed-out call asked; repeating it blindly makes a second payment, or a second authorisation.",
        graded: "FAILED for a repeat without a status read in between, or a re-creation with allowLogicalDuplicate=true; PASSED otherwise; NOT EXERCISED without a timeout.",
        grader: Grader::Traffic(timeouts),
    },
    Rule {
        id: "NO-ROB-005",
        group: Group::Robustness,
        title: "After SCA failed or was cancelled the app does not retry blindly",
        spec: "Authentication › Redirect after failed SCA",
        checks: "After an SCA ends failed or cancelled, the app does not start the same SCA again within 10 s (no person chose that), nor loop through three failed SCAs of one purpose.",
        production: "Sends the PSU back with system, status, code and message; each new SCA asks the PSU to authenticate again.",
        graded: "FAILED for a restart within 10 s, or a third failed SCA of one purpose; REVIEW when the sandbox clock stood still; PASSED otherwise; NOT EXERCISED without a failed or cancelled SCA.",
        grader: Grader::Traffic(sca_retry),
    },
];

fn is_account_read(op: &Op) -> bool {
    matches!(op, Op::AccountList { .. } | Op::Account { .. })
}

fn consent_expired(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    // The PSU (or account, without the PSU) refused, and since where.
    let mut blocked: Vec<(String, usize)> = Vec::new();
    for call in ctx.bank() {
        // A completed SCA of the PSU, or an online read of the account, lifts the block.
        blocked.retain(|(key, since)| {
            let renewed = ctx
                .completed()
                .any(|e| e.pos > *since && e.pos < call.pos && e.psu_id.as_deref() == Some(key));
            !renewed
        });
        let key = match (call.header("PSU-ID"), &call.op) {
            (Some(psu), _) => psu.to_owned(),
            (None, Op::Account { id, .. }) => format!("account {id}"),
            _ => continue,
        };
        if is_account_read(&call.op) {
            // A read with the PSU present that the bank answered: the PSU is back online with SCA.
            if call.psu_present() && (200..300).contains(&call.x.status) {
                blocked.retain(|(k, _)| *k != key);
            }
            if let Some((_, since)) = blocked.iter().find(|(k, _)| *k == key) {
                let first = ctx.calls.iter().find(|c| c.pos == *since);
                tally.fail(call.evidence(format!(
                    "read again after {} answered that the consent expired, with no new SCA",
                    first.map(named).unwrap_or_default()
                )));
                continue;
            }
        }
        // Only the renewal: CONSENT_INVALID is the ordinary start of a consent journey (no consent yet),
        // after which a read before the PSU's SCA is asked for SCA again, which NO-SCA-001 follows.
        if call.code() == Some("CONSENT_EXPIRED") {
            tally.seen();
            blocked.push((key, call.pos));
        }
    }
    tally.grade(
        "CONSENT_EXPIRED answers",
        "No CONSENT_EXPIRED answer (a conformance run's plan can expire a consent).",
    )
}

/// Retry-After in seconds: a number, or an HTTP date (taken from the answer's time).
fn retry_after(call: &Call) -> Option<f64> {
    let value = call.response_header("Retry-After")?.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Some(seconds.max(0.0));
    }
    let until: OffsetDateTime = xs2a_core::signing::http_date::parse(value).ok()?;
    let answered = call.answered_at()?;
    Some((until - answered).as_seconds_f64().max(0.0))
}

fn too_many(ctx: &Context) -> Grade {
    if !ctx.timed {
        return Grade::not_exercised(UNTIMED_FLOW);
    }
    let mut tally = Tally::default();
    let bank: Vec<&Call> = ctx.bank().collect();
    for (i, call) in bank.iter().enumerate() {
        if call.x.status != 429 {
            continue;
        }
        tally.seen();
        let Some(next) = bank[i + 1..]
            .iter()
            .find(|c| c.x.method == call.x.method && c.x.path == call.x.path)
        else {
            continue;
        };
        match (retry_after(call), ctx.between(call, next)) {
            (Some(wait), Elapsed::Seconds(s)) if s < wait => tally.fail(next.evidence(format!(
                "called again {s:.1} s after a 429 whose Retry-After said {wait:.0} s"
            ))),
            (Some(_), Elapsed::StoodStill) => tally.review(next.evidence(
                "called again after a 429 while the sandbox clock stood still: how long the app waited cannot be told",
            )),
            (None, _) if next.x.status == 429 => tally.fail(next.evidence(format!(
                "called again into the same 429 after {}: without Retry-After, wait out the limit",
                named(call)
            ))),
            _ => {}
        }
    }
    tally.grade(
        "429 answers",
        "No 429 answer (a conformance run's plan can inject one with Retry-After).",
    )
}

fn unavailable(ctx: &Context) -> Grade {
    if !ctx.timed {
        return Grade::not_exercised(UNTIMED_FLOW);
    }
    let mut tally = Tally::default();
    let bank: Vec<&Call> = ctx.bank().collect();
    let mut waits: Vec<f64> = Vec::new();
    for (i, call) in bank.iter().enumerate() {
        if call.x.status != 503 {
            if (200..500).contains(&call.x.status) {
                waits.clear();
            }
            continue;
        }
        tally.seen();
        let Some(next) = bank.get(i + 1) else {
            continue;
        };
        let least = retry_after(call).unwrap_or(MIN_BACKOFF_SECONDS);
        match ctx.between(call, next) {
            Elapsed::Seconds(s) if s < least => tally.fail(next.evidence(format!(
                "called the bank {s:.1} s after a 503 (wait at least {least:.0} s)"
            ))),
            Elapsed::Seconds(s) => {
                if waits.len() >= 2 && waits.last().is_some_and(|w| s < *w) {
                    tally.warn(next.evidence(format!(
                        "waited {s:.1} s after another 503, less than the {:.1} s before: back off more, not less",
                        waits.last().copied().unwrap_or_default()
                    )));
                }
                waits.push(s);
            }
            Elapsed::StoodStill => tally.review(next.evidence(
                "called again after a 503 while the sandbox clock stood still: how long the app waited cannot be told",
            )),
            Elapsed::Unknown => {}
        }
    }
    tally.grade(
        "503 answers",
        "No 503 answer (a conformance run's plan can inject a maintenance window).",
    )
}

/// A payment or basket call the app most likely gave up on.
fn timed_out(call: &Call) -> bool {
    let payment_call = matches!(
        call.op,
        Op::PaymentCreate { .. }
            | Op::PaymentAuthorise { .. }
            | Op::PaymentDelete { .. }
            | Op::BasketCreate
            | Op::BasketAuthorise { .. }
            | Op::BasketDelete { .. }
    );
    payment_call
        && (matches!(call.x.status, 0 | 408 | 504)
            || call
                .x
                .duration_ms
                .is_some_and(|d| d >= TIMEOUT_SECONDS * 1000))
}

fn timeouts(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    let bank: Vec<&Call> = ctx.bank().collect();
    for (i, call) in bank.iter().enumerate() {
        if !timed_out(call) {
            continue;
        }
        tally.seen();
        let resource = call.op.payment_resource();
        for later in &bank[i + 1..] {
            if matches!(call.op, Op::PaymentCreate { .. }) {
                let same = later.op == call.op && later.request == call.request;
                if same {
                    if later
                        .x
                        .query
                        .as_deref()
                        .is_some_and(|q| q.contains("allowLogicalDuplicate=true"))
                    {
                        tally.fail(later.evidence(format!(
                            "re-created with allowLogicalDuplicate=true after {} timed out: a second payment",
                            named(call)
                        )));
                    }
                    break;
                }
                continue;
            }
            if later.op.payment_resource() != resource {
                continue;
            }
            if later.op.is_status_read() {
                break; // it looked before it leapt
            }
            if later.op == call.op {
                tally.fail(later.evidence(format!(
                    "repeated after {} timed out, without reading the status first",
                    named(call)
                )));
                break;
            }
        }
    }
    tally.grade(
        "payment calls that timed out",
        "No payment call timed out (a conformance run's plan can hold an answer back).",
    )
}

/// What an SCA was for, so that a new SCA for the same thing is recognised: the order a payment or
/// basket creation sent (a re-created payment has a new id but the same order), or the consent or user
/// lookup of a TPP-Session-ID.
fn purpose(ctx: &Context, call: &Call) -> String {
    let created = |key: &str, id: &str| {
        ctx.calls
            .iter()
            .find(|c| c.response.as_ref().is_some_and(|b| b[key] == id))
            .map(|c| purpose(ctx, c))
    };
    let body = call.x.request_body.clone().unwrap_or_default();
    match &call.op {
        Op::PaymentCreate { .. } => format!("payment {} {body}", call.x.path),
        Op::BasketCreate => format!("basket {body}"),
        Op::PaymentAuthorise { id } => {
            created("paymentId", id).unwrap_or_else(|| format!("payment {id}"))
        }
        Op::BasketAuthorise { id } => {
            created("basketId", id).unwrap_or_else(|| format!("basket {id}"))
        }
        op => format!(
            "{} {}",
            if *op == Op::UserLookup {
                "user"
            } else {
                "consent"
            },
            call.header("TPP-Session-ID").unwrap_or_default()
        ),
    }
}

fn sca_retry(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    let mut failures: std::collections::HashMap<String, u32> = Default::default();
    for ending in ctx
        .scas
        .iter()
        .filter(|e| e.outcome != ScaOutcome::Succeeded)
    {
        let Some(&start) = ctx.sca_started_by.get(&ending.authorisation) else {
            continue;
        };
        tally.seen();
        let wanted = purpose(ctx, &ctx.calls[start]);
        let count = failures.entry(wanted.clone()).or_default();
        *count += 1;
        let retry = ctx.calls.iter().find(|c| {
            c.pos > ending.pos
                && c.is_bank()
                && c.sca_redirect().is_some()
                && purpose(ctx, c) == wanted
        });
        let Some(retry) = retry else { continue };
        let how = if ending.outcome == ScaOutcome::Cancelled {
            "cancelled"
        } else {
            "failed"
        };
        if *count >= 3 {
            tally.fail(retry.evidence(format!(
                "a new SCA after the {count}th {how} one of the same purpose: a loop"
            )));
            continue;
        }
        let elapsed = match (ending.at, retry.x.at) {
            (Some(a), Some(b)) if a == b => Elapsed::StoodStill,
            (Some(a), Some(b)) => Elapsed::Seconds((b - a).as_seconds_f64()),
            _ => Elapsed::Unknown,
        };
        match elapsed {
            Elapsed::Seconds(s) if s < BLIND_RETRY_SECONDS => tally.fail(retry.evidence(format!(
                "started the same SCA again {s:.1} s after the PSU's SCA {how}: no person chose that"
            ))),
            Elapsed::StoodStill => tally.review(retry.evidence(format!(
                "started the same SCA again after it {how}, while the sandbox clock stood still"
            ))),
            _ => {}
        }
    }
    tally.grade(
        "failed or cancelled SCAs",
        "No SCA failed or was cancelled (a conformance run's plan can make the PSU cancel).",
    )
}
