//! SCA and consent rules: scaRedirects followed, one PSU per TPP-Session-ID, consents renewed before their
//! 180 days, and the PSU-not-present limit of 4 reads per account and endpoint in 24 hours.

use super::{Grade, Grader, Rule, Tally, UNTIMED_FLOW};
use crate::conformance::context::{Call, Context};
use crate::conformance::model::Group;
use std::collections::{HashMap, HashSet};
use time::{Duration, OffsetDateTime};

pub static RULES: [Rule; 4] = [
    Rule {
        id: "NO-SCA-001",
        group: Group::ScaConsent,
        title: "scaRedirects are followed",
        spec: "Authentication › SCA 1; Resources › Link (scaRedirect)",
        checks: "Every scaRedirect the bank answers leads the PSU to the bank's pages (or, in CI, to the SCA automation); a payment's SCA started again with startAuthorisation counts for the payment.",
        production: "Asks for SCA with 401 and a scaRedirect (or a created payment's link); nothing happens until the PSU is sent there.",
        graded: "FAILED when none of the scaRedirects was followed; REVIEW when some were not (a PSU may give up: a person judges); PASSED when all were.",
        grader: Grader::Traffic(followed),
    },
    Rule {
        id: "NO-SCA-002",
        group: Group::ScaConsent,
        title: "One PSU per TPP-Session-ID",
        spec: "Authentication › SCA 4; TPP-Session-ID rules",
        checks: "A TPP-Session-ID is used for one PSU only (by PSU-ID, and by the psu-id its SCA gave).",
        production: "An SCA is valid for one TPP and one PSU, governed by TPP-Session-ID: a second PSU in the same session is asked for SCA again or mixed up with the first.",
        graded: "FAILED for the first call of each further PSU in a session; PASSED otherwise.",
        grader: Grader::Traffic(one_psu_per_session),
    },
    Rule {
        id: "NO-SCA-003",
        group: Group::ScaConsent,
        title: "Consent renewed before its 180 days run out",
        spec: "Authentication › TPP-Session-ID rules 4; Limits (SCA renewal 180 days)",
        checks: "For each PSU and context, a new SCA renews the consent before 180 days pass since the last one, so that the app never meets CONSENT_EXPIRED for age.",
        production: "Answers 401 CONSENT_EXPIRED (with a scaRedirect) once the SCA behind a consent is 180 days old.",
        graded: "FAILED for each call the bank refused because the consent's SCA was 180 days old, and each call for a PSU past its consent's 180 days; PASSED when a consent was renewed in its last 30 days; NOT EXERCISED when the selection never comes near 180 days (move the sandbox clock to rehearse it).",
        grader: Grader::Traffic(renewed),
    },
    Rule {
        id: "NO-SCA-004",
        group: Group::ScaConsent,
        title: "At most 4 reads per account in 24 hours without the PSU",
        spec: "Authentication › User-not-present access; Limits (calls without PSU present)",
        checks: "Without PSU-IP-Address, balances and transactions of each account are read at most 4 times each per 24 hours.",
        production: "Answers the fifth read in 24 hours with 429 ACCESS_EXCEEDED.",
        graded: "FAILED for each read beyond the fourth in 24 hours (per account and endpoint, by the sandbox clock), and each 429 ACCESS_EXCEEDED; PASSED otherwise.",
        grader: Grader::Traffic(unattended_limit),
    },
];

/// The payment or basket an SCA was started for (its creation's answer, or the path).
fn resource_of(call: &Call) -> Option<String> {
    if let Some(id) = call.response.as_ref().and_then(|b| b["paymentId"].as_str()) {
        return Some(format!("payment:{id}"));
    }
    if let Some(id) = call.response.as_ref().and_then(|b| b["basketId"].as_str()) {
        return Some(format!("basket:{id}"));
    }
    call.op.payment_resource()
}

fn followed(ctx: &Context) -> Grade {
    let mut starts: Vec<(&String, &usize)> = ctx.sca_started_by.iter().collect();
    starts.sort_by_key(|(_, index)| **index);
    // Resources some SCA of which the PSU reached.
    let reached: HashSet<String> = starts
        .iter()
        .filter(|(auth, _)| ctx.sca_reached.contains_key(*auth))
        .filter_map(|(_, index)| resource_of(&ctx.calls[**index]))
        .collect();
    let mut tally = Tally::default();
    let mut missed = 0;
    for (auth, index) in &starts {
        let call = &ctx.calls[**index];
        if !call.is_bank() {
            continue;
        }
        tally.seen();
        let resource = resource_of(call);
        if ctx.sca_reached.contains_key(*auth) || resource.is_some_and(|r| reached.contains(&r)) {
            continue;
        }
        missed += 1;
        tally.review(call.evidence(format!(
            "the scaRedirect of authorisation {auth} was never followed"
        )));
    }
    let mut grade = tally.grade(
        "scaRedirects",
        "The bank asked for no SCA in the selection.",
    );
    if missed > 0 && missed == grade.exercised {
        grade.verdict = crate::conformance::model::Verdict::Failed;
        grade.explains = grade
            .evidence
            .iter()
            .map(|e| (e.exchange_id, e.step))
            .collect();
        grade.summary = format!(
            "None of the {missed} scaRedirects was followed: the app never sent the PSU to the bank's pages."
        );
    }
    grade
}

fn one_psu_per_session(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    let mut psus: HashMap<String, String> = HashMap::new();
    let mut reported: HashSet<(String, String)> = HashSet::new();
    let mut endings = ctx.completed().peekable();
    for call in ctx.bank() {
        let mut seen: Vec<(String, String, Option<&Call>)> = Vec::new();
        while let Some(end) = endings.next_if(|e| e.pos < call.pos) {
            if let (Some(session), Some(psu)) = (&end.session, &end.psu_id) {
                seen.push((session.clone(), psu.clone(), None));
            }
        }
        if let (Some(session), Some(psu)) = (call.header("TPP-Session-ID"), call.header("PSU-ID")) {
            seen.push((session.to_owned(), psu.to_owned(), Some(call)));
        }
        for (session, psu, by) in seen {
            tally.seen();
            match psus.get(&session) {
                None => {
                    psus.insert(session, psu);
                }
                Some(first) if *first != psu => {
                    if reported.insert((session.clone(), psu.clone())) {
                        let note = format!(
                            "TPP-Session-ID {session} is used for PSU {psu}, after PSU {first}"
                        );
                        tally.fail(by.unwrap_or(call).evidence(note));
                    }
                }
                Some(_) => {}
            }
        }
    }
    tally.grade(
        "uses of a session with a PSU",
        "No call named both a TPP-Session-ID and a PSU.",
    )
}

/// How long the SCA behind a consent lasts, and the last stretch in which renewing it is expected.
const CONSENT_LIFE: Duration = Duration::days(180);
const RENEWAL_WINDOW: Duration = Duration::days(30);

fn renewed(ctx: &Context) -> Grade {
    if !ctx.timed {
        return Grade::not_exercised(UNTIMED_FLOW);
    }
    let mut tally = Tally::default();
    // (psu, corporate?) -> the time of the last completed SCA.
    let mut last: HashMap<(String, bool), OffsetDateTime> = HashMap::new();
    let mut endings = ctx.completed().peekable();
    let mut in_window: HashSet<(String, bool)> = HashSet::new();
    for call in ctx.bank() {
        while let Some(end) = endings.next_if(|e| e.pos < call.pos) {
            let (Some(psu), Some(at)) = (&end.psu_id, end.at) else {
                continue;
            };
            let key = (psu.clone(), end.context.as_deref() == Some("CORPORATE"));
            if let Some(before) = last.get(&key) {
                let age = at - *before;
                if age >= CONSENT_LIFE - RENEWAL_WINDOW && age < CONSENT_LIFE {
                    tally.seen(); // renewed in its last 30 days
                }
            }
            last.insert(key, at);
        }
        let aged = call.errors().iter().any(|(code, path, text)| {
            *code == "CONSENT_EXPIRED"
                && !path.eq_ignore_ascii_case("PSU-IP-Address")
                && text.contains("180 days")
        });
        if aged {
            tally.seen();
            tally.fail(call.evidence(
                "the bank refused it: the SCA behind the consent is 180 days old and was not renewed",
            ));
            continue;
        }
        let (Some(psu), Some(at)) = (call.header("PSU-ID"), call.x.at) else {
            continue;
        };
        let key = (psu.to_owned(), call.has("PSU-Corporate-ID"));
        let Some(sca_at) = last.get(&key) else {
            continue;
        };
        let age = at - *sca_at;
        if age >= CONSENT_LIFE {
            tally.seen();
            tally.fail(call.evidence(format!(
                "a call for PSU {psu} {} days after the consent's SCA: it ran out at 180",
                age.whole_days()
            )));
        } else if age >= CONSENT_LIFE - RENEWAL_WINDOW && in_window.insert(key) {
            tally.seen();
        }
    }
    tally.grade(
        "consents near or past 180 days",
        "The selection never comes near a consent's 180 days (move the sandbox clock to rehearse a renewal).",
    )
}

const LIMIT: usize = 4;

fn unattended_limit(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    let mut calls: HashMap<(String, &'static str), Vec<Option<OffsetDateTime>>> = HashMap::new();
    for call in ctx.bank() {
        let Some((account, endpoint)) = call.op.unattended_endpoint() else {
            continue;
        };
        if call.psu_present() {
            continue;
        }
        tally.seen();
        if call.x.status == 429 && call.code() == Some("ACCESS_EXCEEDED") {
            tally.fail(call.evidence(format!(
                "the bank refused a read of {endpoint} without the PSU: the 24-hour limit was used up"
            )));
            continue;
        }
        let earlier = calls.entry((account.to_owned(), endpoint)).or_default();
        let within: usize = match call.x.at {
            Some(at) => earlier
                .iter()
                .filter(|t| t.is_some_and(|t| at - t < Duration::hours(24)))
                .count(),
            None => earlier.len(),
        };
        if within >= LIMIT {
            tally.fail(call.evidence(format!(
                "read {} of account {account}'s {endpoint} without the PSU within 24 hours (at most {LIMIT})",
                within + 1
            )));
        }
        earlier.push(call.x.at);
    }
    tally.grade(
        "reads without the PSU",
        "No balances or transactions read without the PSU present.",
    )
}
