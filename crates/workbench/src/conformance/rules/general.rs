//! The leftovers: every refusal the bank gave that no other rule explains, for a person to judge — so
//! that a report with all rules PASSED cannot hide a 400 nobody graded.

use super::{Cited, Grade, Grader, Rule, Tally};
use crate::conformance::context::Context;
use crate::conformance::model::Group;

pub static RULES: [Rule; 1] = [Rule {
    id: "NO-GEN-001",
    group: Group::General,
    title: "Every refusal is accounted for",
    spec: "Errors",
    checks: "Each call the bank refused (4xx, 5xx) is either explained by a rule above, a request for SCA (401 with a scaRedirect), or an answer the robustness rules grade the app's reaction to (429, 503, CONSENT_EXPIRED).",
    production: "Refuses what breaks its rules with tppMessages naming the code and the field; the same request fails there too.",
    graded: "REVIEW for each refusal no other rule cited, with the bank's code and text; PASSED when there is none.",
    grader: Grader::Leftovers(leftovers),
}];

fn leftovers(ctx: &Context, cited: &Cited) -> Grade {
    let mut tally = Tally::default();
    for call in ctx.bank() {
        tally.seen();
        if call.x.status < 400 {
            continue;
        }
        if cited.contains(&(call.x.exchange_id, call.x.step)) {
            continue;
        }
        let asks_for_sca = call.x.status == 401 && call.sca_redirect().is_some();
        let reaction_graded = matches!(call.x.status, 429 | 503)
            || matches!(call.code(), Some("CONSENT_EXPIRED" | "CONSENT_INVALID"));
        if asks_for_sca || reaction_graded {
            continue;
        }
        let said = match call.errors().first() {
            Some((code, path, text)) if !path.is_empty() => format!("{code} at {path}: {text}"),
            Some((code, _, text)) => format!("{code}: {text}"),
            None => "no tppMessages".to_owned(),
        };
        tally.review(call.evidence(format!("refused {}, {said}", call.x.status)));
    }
    tally.grade("bank calls", "No bank call.")
}
