//! Payment rules: no logical duplicates made by retries, status polled at most once per
//! [`POLL_SECONDS`], structured remittance with a valid KID, no deprecated fields or endpoints, amounts
//! as strings, and payment requests the bank's validation accepts.

use super::{named, Grade, Grader, Rule, Tally, UNTIMED_FLOW};
use crate::conformance::context::{Call, Context, Elapsed};
use crate::conformance::model::Group;
use crate::conformance::operation::Op;
use serde_json::Value;
use std::collections::HashMap;
use xs2a_core::bank::pis::validation::remittance::is_kid_type;
use xs2a_core::domain::Kid;

/// A payment's or basket's status is read at most once per this many seconds (the choice the report
/// grades by, docs/conformance.md): statuses change when the PSU finishes SCA (a redirect tells the app)
/// or at a batch run, five times a day, so faster polling only loads the bank.
pub const POLL_SECONDS: f64 = 10.0;

pub static RULES: [Rule; 7] = [
    Rule {
        id: "NO-PAY-001",
        group: Group::Payments,
        title: "No logical duplicate from a retry",
        spec: "Endpoints › 3 (allowLogicalDuplicate)",
        checks: "The app does not send the same payment (same product, debtor, creditor, amount, remittance and date) again within 24 hours after it was created — the retry after a timeout that would have made a duplicate.",
        production: "Refuses a logical duplicate within 24 hours (409 CONFLICT naming the first payment) unless allowLogicalDuplicate=true, which creates a second payment.",
        graded: "FAILED for each creation refused as a logical duplicate; REVIEW for each one created again with allowLogicalDuplicate=true (was a second payment meant?); PASSED otherwise.",
        grader: Grader::Traffic(duplicates),
    },
    Rule {
        id: "NO-PAY-002",
        group: Group::Payments,
        title: "Statuses are polled at most once per 10 seconds",
        spec: "States and transitions; Endpoints (GET …/status)",
        checks: "A payment's, basket's or authorisation's status is read again only 10 s or more after the previous read of it, unless the app itself changed it in between (SCA ended, authorisation started, deleted).",
        production: "Statuses change at SCA (the redirect tells the app) and at batch runs; the bank's rate limits answer fast polling with 429.",
        graded: "FAILED for a polling loop (three or more reads of one resource each under 10 s apart); WARNING for a single quick re-read; REVIEW when the sandbox clock stood still between reads; PASSED otherwise.",
        grader: Grader::Traffic(polling),
    },
    Rule {
        id: "NO-PAY-003",
        group: Group::Payments,
        title: "Structured remittance carries a valid KID",
        spec: "Resources › Payment request (remittanceInformationStructured); Errors (KID errors 400)",
        checks: "A structured reference of type KID or OCR (or of no type on a domestic product) is a KID with a valid mod 10 or mod 11 check digit, and structured and unstructured remittance are not both sent.",
        production: "Refuses an empty KID (400 KID_MISSING) and a wrong one (400 KID_INVALID).",
        graded: "FAILED for each invalid KID or KID refusal; PASSED otherwise; NOT EXERCISED without structured remittance.",
        grader: Grader::Traffic(kid),
    },
    Rule {
        id: "NO-PAY-004",
        group: Group::Payments,
        title: "No deprecated fields",
        spec: "Resources › Address (city deprecated); Versioning › Announced changes",
        checks: "creditorAddress uses townName, not the deprecated city.",
        production: "Still accepts city with a deprecation WARNING; it is replaced by townName in payment APIs and will go.",
        graded: "WARNING for each payment that sends city; PASSED otherwise; NOT EXERCISED without a creditorAddress.",
        grader: Grader::Traffic(deprecated_fields),
    },
    Rule {
        id: "NO-PAY-005",
        group: Group::Payments,
        title: "No deprecated endpoints",
        spec: "Endpoints › Other operations (POST /v1/consents deprecated); Versioning › Announced changes",
        checks: "The app uses /v1/bank-offered-consents, not the deprecated POST /v1/consents, nor any endpoint the bank answers with a Deprecation header.",
        production: "Still answers POST /v1/consents, with a Deprecation header and a Link to its successor; it will go.",
        graded: "WARNING for each call to a deprecated endpoint; PASSED otherwise.",
        grader: Grader::Traffic(deprecated_endpoints),
    },
    Rule {
        id: "NO-PAY-006",
        group: Group::Payments,
        title: "Amounts are strings",
        spec: "Resources › Payment request (instructedAmount.amount: string); Versioning (amount-as-string)",
        checks: "Every amount the app sends (instructedAmount.amount, in bulk orders too) is a JSON string such as \"125.50\", never a number.",
        production: "Refuses a number (400 FORMAT_ERROR): amount-as-string is the default since release 1.7.6.",
        graded: "FAILED for each amount sent as a number; PASSED otherwise.",
        grader: Grader::Traffic(amounts),
    },
    Rule {
        id: "NO-PAY-007",
        group: Group::Payments,
        title: "Payment and basket requests pass the bank's validation",
        spec: "Resources › Payment request; Signing basket; Limits; Errors",
        checks: "Payment, fee-information and basket requests meet the field rules (required fields, lengths, code lists, precision, execution dates, basket size and mix, a known product).",
        production: "Refuses each with 400 (or 404 PRODUCT_UNKNOWN) naming the field.",
        graded: "FAILED for each such request refused at a body field or product, apart from what NO-PAY-001/003/006 and the header rules grade; PASSED otherwise.",
        grader: Grader::Traffic(validated),
    },
];

fn is_creation(call: &Call) -> bool {
    matches!(call.op, Op::PaymentCreate { .. })
}

/// allowLogicalDuplicate=true in the query.
fn allows_duplicate(call: &Call) -> bool {
    call.x.query.as_deref().is_some_and(|q| {
        q.split('&')
            .any(|p| p.eq_ignore_ascii_case("allowLogicalDuplicate=true"))
    })
}

fn duplicates(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    // (path, body) -> the first creation of it that the bank accepted.
    let mut created: HashMap<(String, Option<Value>), &Call> = HashMap::new();
    for call in ctx.bank().filter(|c| is_creation(c)) {
        tally.seen();
        let key = (call.x.path.clone(), call.request.clone());
        let refused_as_duplicate = call.x.status == 409
            && call
                .errors()
                .iter()
                .any(|(_, _, text)| text.contains("logical duplicate"));
        if refused_as_duplicate {
            let first = created
                .get(&key)
                .map(|c| format!(", {} created it", named(c)))
                .unwrap_or_default();
            tally.fail(call.evidence(format!(
                "the same payment again: the bank refused it as a logical duplicate{first}"
            )));
            continue;
        }
        if !(200..300).contains(&call.x.status) {
            continue;
        }
        if let Some(first) = created.get(&key) {
            let within_a_day = match (first.x.at, call.x.at) {
                (Some(a), Some(b)) => b - a < time::Duration::hours(24),
                _ => true,
            };
            if within_a_day && allows_duplicate(call) {
                tally.review(call.evidence(format!(
                    "created again with allowLogicalDuplicate=true, the same payment as {}",
                    named(first)
                )));
            }
        } else {
            created.insert(key, call);
        }
    }
    tally.grade("payment creations", "No payment was created.")
}

/// Reads of a resource's status, and what resets the count (the app's own changes, SCA endings).
fn polling(ctx: &Context) -> Grade {
    if !ctx.timed {
        return Grade::not_exercised(UNTIMED_FLOW);
    }
    let mut tally = Tally::default();
    // resource -> (last read, quick reads in a row)
    let mut last: HashMap<String, (&Call, u32)> = HashMap::new();
    let mut endings = ctx.scas.iter().peekable();
    for call in ctx.bank() {
        // An SCA that ended changes the status: the next read is expected.
        while endings.next_if(|e| e.pos < call.pos).is_some() {
            last.clear();
        }
        let Some(resource) = call.op.payment_resource() else {
            continue;
        };
        if !call.op.is_status_read() {
            last.remove(&resource);
            continue;
        }
        tally.seen();
        let Some((previous, quick)) = last.get(&resource).copied() else {
            last.insert(resource, (call, 0));
            continue;
        };
        match ctx.between(previous, call) {
            Elapsed::Seconds(s) if s < POLL_SECONDS => {
                let quick = quick + 1;
                let note = format!(
                    "{resource} read again {s:.1} s after {} (at most once per {POLL_SECONDS:.0} s)",
                    named(previous)
                );
                if quick >= 2 {
                    tally.fail(call.evidence(format!("{note}: a polling loop")));
                } else {
                    tally.warn(call.evidence(note));
                }
                last.insert(resource, (call, quick));
            }
            Elapsed::StoodStill => {
                tally.review(call.evidence(format!(
                    "{resource} read again while the sandbox clock stood still: how long the app waited cannot be told"
                )));
                last.insert(resource, (call, quick));
            }
            _ => {
                last.insert(resource, (call, 0));
            }
        }
    }
    tally.grade(
        "status reads",
        "No payment, basket or authorisation status was read.",
    )
}

/// Every order of a payment body: the body itself, or each of a bulk payment's `payments`.
fn orders(body: &Value) -> Vec<(String, &Value)> {
    match body["payments"].as_array() {
        Some(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| (format!("payments[{i}]."), item))
            .collect(),
        None => vec![(String::new(), body)],
    }
}

fn kid(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx.bank().filter(|c| is_creation(c)) {
        if call
            .errors()
            .iter()
            .any(|(code, _, _)| matches!(*code, "KID_MISSING" | "KID_INVALID"))
        {
            tally.seen();
            let (code, path, _) = call.errors()[0];
            tally.fail(call.evidence(format!("the bank refused the KID at {path} ({code})")));
            continue;
        }
        let Some(body) = &call.request else { continue };
        let domestic = call.x.path.contains("norwegian");
        for (prefix, order) in orders(body) {
            let mut references: Vec<(String, &Value)> = Vec::new();
            if order["remittanceInformationStructured"].is_object() {
                references.push((
                    format!("{prefix}remittanceInformationStructured"),
                    &order["remittanceInformationStructured"],
                ));
            }
            for (i, item) in order["remittanceInformationStructuredArray"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                references.push((
                    format!("{prefix}remittanceInformationStructuredArray[{i}]"),
                    item,
                ));
            }
            for (path, reference) in references {
                tally.seen();
                if !is_kid_type(reference["referenceType"].as_str(), domestic) {
                    continue;
                }
                let text = reference["reference"].as_str().unwrap_or_default();
                if let Err(error) = Kid::parse(text) {
                    tally.fail(call.evidence(format!(
                        "{path}.reference '{text}' is not a valid KID: {error}"
                    )));
                }
            }
        }
    }
    tally.grade(
        "structured references",
        "No payment with structured remittance.",
    )
}

fn deprecated_fields(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx.bank().filter(|c| is_creation(c)) {
        let Some(body) = &call.request else { continue };
        for (prefix, order) in orders(body) {
            let address = &order["creditorAddress"];
            if !address.is_object() {
                continue;
            }
            tally.seen();
            if !address["city"].is_null() {
                tally.warn(call.evidence(format!(
                    "{prefix}creditorAddress.city is deprecated: send townName"
                )));
            }
        }
    }
    tally.grade("creditor addresses", "No payment with a creditorAddress.")
}

fn deprecated_endpoints(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx.bank() {
        tally.seen();
        if matches!(call.op, Op::ConsentCreate { deprecated: true }) {
            tally.warn(
                call.evidence(
                    "POST /v1/consents is deprecated: use POST /v1/bank-offered-consents",
                ),
            );
        } else if call.response_header("Deprecation").is_some() {
            tally.warn(
                call.evidence("the bank marked this endpoint deprecated (Deprecation header)"),
            );
        }
    }
    tally.grade("bank calls", "No bank call.")
}

/// Every `…amount` the body sends, with its path.
fn amounts_in<'v>(value: &'v Value, path: String, found: &mut Vec<(String, &'v Value)>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                let here = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                if key == "amount" && !item.is_object() {
                    found.push((here.clone(), item));
                }
                amounts_in(item, here, found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                amounts_in(item, format!("{path}[{i}]"), found);
            }
        }
        _ => {}
    }
}

fn amounts(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx
        .bank()
        .filter(|c| is_creation(c) || matches!(c.op, Op::FeeInformation))
    {
        let Some(body) = &call.request else { continue };
        let mut found = Vec::new();
        amounts_in(body, String::new(), &mut found);
        for (path, amount) in found {
            tally.seen();
            if amount.is_number() {
                tally.fail(call.evidence(format!(
                    "{path} is the number {amount}; send it as the string \"{amount}\""
                )));
            }
        }
    }
    tally.grade("amounts sent", "No payment or fee request with an amount.")
}

/// Codes the other rules grade.
const GRADED_ELSEWHERE: [&str; 3] = ["KID_MISSING", "KID_INVALID", "HTTP_HEADER_REQUIRED"];

fn validated(ctx: &Context) -> Grade {
    let mut tally = Tally::default();
    for call in ctx
        .bank()
        .filter(|c| is_creation(c) || matches!(c.op, Op::FeeInformation | Op::BasketCreate))
    {
        tally.seen();
        if !(call.x.status == 400
            || (call.x.status == 404 && call.code() == Some("PRODUCT_UNKNOWN")))
        {
            continue;
        }
        if call.refused_at().is_some() {
            continue; // the gate's: the signing rules grade it
        }
        let Some((code, path, text)) = call.errors().first().copied() else {
            continue;
        };
        let number_amount = path.ends_with("amount")
            && call
                .request
                .as_ref()
                .is_some_and(|b| b.pointer(&pointer_of(path)).is_some_and(Value::is_number));
        if GRADED_ELSEWHERE.contains(&code) || number_amount {
            continue;
        }
        tally.fail(call.evidence(format!("refused {code} at {path}: {text}")));
    }
    tally.grade(
        "payment, fee and basket requests",
        "No payment, fee or basket request.",
    )
}

/// A JSON pointer for a path such as `payments[0].instructedAmount.amount`.
fn pointer_of(path: &str) -> String {
    let mut pointer = String::new();
    for part in path.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((name, rest)) => (name, Some(rest.trim_end_matches(']'))),
            None => (part, None),
        };
        if !name.is_empty() {
            pointer.push('/');
            pointer.push_str(name);
        }
        if let Some(index) = index {
            pointer.push('/');
            pointer.push_str(index);
        }
    }
    pointer
}
