//! The gate's verdict as the traffic log keeps it: each step with the rule it checks (in the interface's
//! words), what was found, the signing string the sandbox computed, and — for a refusal — the likely cause
//! said plainly. The gate leaves what it found in a [`GateSlot`] the capture put on the request (moving it,
//! no copy); the verdict is written out from it on the log's writer thread.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use xs2a_core::domain::refusal::{Code, Refusal, TppMessage};
use xs2a_core::signing::steps::{Step, STEPS};
use xs2a_core::signing::verifier::{Report, Verdict, VerifiedTpp};
use xs2a_workbench::traffic::model::{GateStep, GateVerdict, TppRef};

/// Where the gate leaves its findings for the capture.
#[derive(Clone, Default)]
pub struct GateSlot(pub Arc<Mutex<Option<GateFindings>>>);

/// What the gate found, as it found it: turned into a [`GateRecord`] off the request path.
#[derive(Debug)]
pub struct GateFindings {
    steps: Vec<(Step, Verdict)>,
    signing_string: Option<String>,
    warnings: Vec<TppMessage>,
    tpp: Option<VerifiedTpp>,
}

/// Splits a report into the gate's outcome and the findings the traffic log keeps.
pub fn findings(report: Report) -> (Result<VerifiedTpp, Refusal>, GateFindings) {
    let warnings = match &report.outcome {
        Ok(verified) => verified.warnings(),
        Err(refusal) => refusal
            .more
            .iter()
            .filter(|m| m.category == xs2a_core::domain::refusal::Category::Warning)
            .cloned()
            .collect(),
    };
    let findings = GateFindings {
        steps: report.steps,
        signing_string: report.signing_string,
        warnings,
        tpp: report.outcome.as_ref().ok().cloned(),
    };
    (report.outcome, findings)
}

/// What the gate found.
#[derive(Debug, Clone)]
pub struct GateRecord {
    pub verdict: GateVerdict,
    pub failed_step: Option<String>,
    pub tpp: Option<TppRef>,
}

/// The rule each step checks and the header it reads (also served by `GET /workbench/api/gate`), from
/// the steps' table in [`xs2a_core::signing::steps`].
pub fn rule(step: Step) -> (&'static str, Option<&'static str>) {
    let definition = step.definition();
    (definition.checks, definition.header)
}

/// The codes a refusal at `step` can carry (every gate refusal is a 400), from the same table: the
/// verifier checks its refusals against it (in debug builds, so every test of a refusal does) and
/// `GET /workbench/api/gate` serves it.
pub fn refusal_codes(step: Step) -> &'static [Code] {
    step.definition().refusal_codes
}

/// Why an answer the gate accepted is not a success, said plainly: the handler's first error (code, field
/// and text), or the SCA the PSU still has to do. None for a success.
pub fn handler_cause(
    status: u16,
    tpp_messages: &[serde_json::Value],
    answer: Option<&serde_json::Value>,
) -> Option<String> {
    if status < 300 {
        return None;
    }
    let error = tpp_messages
        .iter()
        .find(|m| m["category"] != "WARNING")
        .or_else(|| tpp_messages.first());
    if let Some(message) = error {
        let code = message["code"].as_str().unwrap_or("an error");
        let at = message["path"]
            .as_str()
            .map(|p| format!(" at {p}"))
            .unwrap_or_default();
        let text = message["text"]
            .as_str()
            .map(|t| format!(": {t}"))
            .unwrap_or_default();
        return Some(format!(
            "The gate accepted the request; the handler refused it with {code}{at}{text}"
        ));
    }
    if status == 401 && answer.is_some_and(|a| a["_links"]["scaRedirect"].is_object()) {
        return Some(
            "The gate accepted the request; the PSU must authenticate first: send them to _links.scaRedirect."
                .to_owned(),
        );
    }
    Some(format!(
        "The gate accepted the request; the handler answered {status} without a message."
    ))
}

/// The likely cause of a refusal at `step`, said plainly.
fn likely_cause(step: Step, detail: &str) -> String {
    let lower = detail.to_lowercase();
    match step {
        Step::RequiredHeaders => "A signing header is missing (or sent twice).".to_owned(),
        Step::Date => "Date skew: the Date header is not within 60 seconds of the bank's clock (or is not an RFC 7231 date).".to_owned(),
        Step::Certificate if lower.contains("expired") || lower.contains("valid from") => {
            "The certificate is not valid at the bank's clock's time (expired, or not yet valid).".to_owned()
        }
        Step::Certificate if lower.contains("trust") => "The certificate was issued by a CA the sandbox does not trust.".to_owned(),
        Step::Certificate => "The certificate cannot be used: see the detail.".to_owned(),
        Step::KeyId if lower.contains("issuer") || lower.contains("ca=") => {
            "CA string mismatch: keyId's CA= does not name the certificate's issuer.".to_owned()
        }
        Step::KeyId => "keyId's SN= does not name the certificate's serial number.".to_owned(),
        Step::SignedHeaders => "A header the request carries is missing from the signed list (or a listed header is absent).".to_owned(),
        Step::Digest => "Digest over a different body: the Digest does not match the bytes sent.".to_owned(),
        Step::Signature => "The signature does not verify: the client signed a different signing string (compare them line by line) or used another key than the certificate's (wrong key).".to_owned(),
        Step::Algorithm => "The algorithm named is not the certificate's: send algorithm=\"rsa-sha256\" (an RSA key signing SHA-256).".to_owned(),
        Step::SignatureHeader => "The Signature header is malformed: see the detail.".to_owned(),
    }
}

/// The verdict of what the gate found.
pub fn record(findings: GateFindings) -> GateRecord {
    let GateFindings {
        steps: found_steps,
        signing_string,
        warnings,
        tpp,
    } = findings;
    let mut steps = Vec::with_capacity(STEPS.len() + warnings.len());
    let mut failed = None;
    let mut found_steps = found_steps;
    for definition in &STEPS {
        let step = definition.step;
        let found = found_steps
            .iter_mut()
            .find(|(s, _)| *s == step)
            .map(|(_, verdict)| std::mem::replace(verdict, Verdict::Passed(Cow::Borrowed(""))));
        let (outcome, detail) = match found {
            Some(Verdict::Passed(note)) => ("passed", Some(note).filter(|n| !n.is_empty())),
            // Not run because what it reads is missing: shown skipped, with the reason.
            Some(Verdict::NotChecked(reason)) => ("skipped", Some(Cow::Owned(reason))),
            Some(Verdict::Failed(reason)) => {
                // The first failed step is the refusal's; later ones are shown failed beside it.
                if failed.is_none() {
                    failed = Some((step, reason.clone()));
                }
                ("failed", Some(Cow::Owned(reason)))
            }
            None => ("skipped", None),
        };
        steps.push(GateStep {
            step: definition.name.into(),
            outcome: outcome.into(),
            header: definition.header.map(Into::into),
            rule: definition.checks.into(),
            detail,
        });
    }
    for warning in warnings {
        steps.push(GateStep {
            step: "warning".into(),
            outcome: "warning".into(),
            header: warning.path.map(Into::into),
            rule: "Accepted, but production might refuse it.".into(),
            detail: warning.text.map(Into::into),
        });
    }
    let signed_headers = signing_string
        .as_deref()
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.split_once(':').map(|(n, _)| n.to_owned()))
        .collect();
    let tpp = tpp.map(|verified| {
        let certificate = verified.tpp();
        TppRef {
            organisation_id: verified.tpp_id(),
            name: verified.tpp_name(),
            subject: certificate.subject_rfc2253.clone(),
        }
    });
    GateRecord {
        failed_step: failed.as_ref().map(|(s, _)| s.name().to_owned()),
        verdict: GateVerdict {
            steps,
            signing_string,
            signed_headers,
            likely_cause: failed.map(|(step, reason)| likely_cause(step, &reason)),
        },
        tpp,
    }
}
