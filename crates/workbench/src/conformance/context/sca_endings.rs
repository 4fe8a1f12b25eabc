//! How each SCA of the selection ended, read from what the traffic shows: the bank's pages send the PSU's
//! browser back to the TPP-Redirect-URI with a 303 (success: psu-id, tpp-session-id, context; failure:
//! system, status, code, message), the automation endpoint answers the same in JSON, and a flow file keeps
//! the PSU's choices as an SCA step. The national identity number comes from the identify form, the
//! automation's body, or the X-PSU-IDENTITY the TPP preset.

use super::{query_of, Context, ScaEnding, ScaOutcome};
use crate::conformance::model::Evidence;
use crate::conformance::observed::RecordedSca;
use crate::conformance::operation::Op;
use std::collections::HashMap;

fn param<'p>(pairs: &'p [(String, String)], name: &str) -> Option<&'p str> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The outcome a redirect back to the TPP says.
fn outcome_of_redirect(pairs: &[(String, String)], cancelled_here: bool) -> Option<ScaOutcome> {
    if param(pairs, "psu-id").is_some() {
        return Some(ScaOutcome::Succeeded);
    }
    let code = param(pairs, "code")?;
    let message = param(pairs, "message").unwrap_or_default().to_lowercase();
    if cancelled_here || (code == "SCA_INVALID" && message.contains("cancel")) {
        Some(ScaOutcome::Cancelled)
    } else {
        Some(ScaOutcome::Failed)
    }
}

fn ending(
    pos: usize,
    authorisation: &str,
    outcome: ScaOutcome,
    pairs: &[(String, String)],
    national_id: Option<String>,
    at: Option<time::OffsetDateTime>,
    evidence: Evidence,
) -> ScaEnding {
    let text = |name: &str| param(pairs, name).map(str::to_owned);
    ScaEnding {
        pos,
        authorisation: authorisation.to_owned(),
        outcome,
        psu_id: text("psu-id"),
        corporate_id: text("psu-corporate-id"),
        session: text("tpp-session-id"),
        context: text("context"),
        national_id,
        at,
        evidence,
    }
}

/// Every SCA ending of the selection, in order.
pub fn find(context: &Context, recorded: &[(usize, &RecordedSca)]) -> Vec<ScaEnding> {
    // The national id the TPP preset on the request that started each SCA.
    let mut national: HashMap<String, String> = HashMap::new();
    for (auth, &index) in &context.sca_started_by {
        if let Some(id) = context.calls[index].header("X-PSU-IDENTITY") {
            national.insert(auth.clone(), id.to_owned());
        }
    }
    let mut endings = Vec::new();
    for call in &context.calls {
        match &call.op {
            Op::ScaPage {
                authorisation,
                step,
            } => {
                if step.as_deref() == Some("identify") {
                    let form: Vec<(String, String)> =
                        serde_urlencoded::from_str(call.x.request_body.as_deref().unwrap_or(""))
                            .unwrap_or_default();
                    if let Some(id) = param(&form, "nationalId") {
                        national.insert(authorisation.clone(), id.to_owned());
                    }
                }
                let Some(location) = call.response_header("location") else {
                    continue;
                };
                if location.contains("/sca/") && !location.contains('?') {
                    continue; // to the next page, not back to the TPP
                }
                let pairs = query_of(location);
                let cancelled = step.as_deref() == Some("cancel");
                if let Some(outcome) = outcome_of_redirect(&pairs, cancelled) {
                    endings.push(ending(
                        call.pos,
                        authorisation,
                        outcome,
                        &pairs,
                        national.get(authorisation).cloned(),
                        call.x.at,
                        call.evidence("the bank sent the PSU back to the TPP-Redirect-URI"),
                    ));
                }
            }
            Op::ScaAutomation { authorisation } if call.x.status == 200 => {
                let Some(answer) = &call.response else {
                    continue;
                };
                let pairs = query_of(answer["redirect"].as_str().unwrap_or_default());
                // SUCCEEDED, CANCELLED or FAILED.
                let outcome = match answer["outcome"].as_str().map(str::to_ascii_uppercase) {
                    Some(o) if o == "SUCCEEDED" => ScaOutcome::Succeeded,
                    Some(o) if o == "CANCELLED" => ScaOutcome::Cancelled,
                    _ => ScaOutcome::Failed,
                };
                let given = call
                    .request
                    .as_ref()
                    .and_then(|b| b["nationalId"].as_str())
                    .map(str::to_owned);
                endings.push(ending(
                    call.pos,
                    authorisation,
                    outcome,
                    &pairs,
                    given.or_else(|| national.get(authorisation).cloned()),
                    call.x.at,
                    call.evidence("the PSU's SCA, automated"),
                ));
            }
            _ => {}
        }
    }
    for (pos, sca) in recorded {
        let outcome = match sca.outcome.as_str() {
            "success" => ScaOutcome::Succeeded,
            "cancel" => ScaOutcome::Cancelled,
            _ => ScaOutcome::Failed,
        };
        endings.push(ScaEnding {
            pos: *pos,
            authorisation: sca.authorisation_id.clone(),
            outcome,
            psu_id: sca.psu_id.clone(),
            corporate_id: None,
            session: None,
            context: sca.context.clone(),
            national_id: sca.national_id.clone(),
            at: None,
            evidence: Evidence {
                exchange_id: None,
                step: Some(sca.step),
                at: None,
                method: "SCA".into(),
                path: format!("authorisation {}", sca.authorisation_id),
                status: 0,
                journeys: Vec::new(),
                note: format!("the PSU's SCA ({})", sca.outcome),
            },
        });
    }
    endings.sort_by_key(|e| e.pos);
    endings
}
