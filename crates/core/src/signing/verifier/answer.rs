//! The refusal the gate answers with, made from the failed steps: one ERROR per problem, the first in the
//! steps' order being the refusal (the order is the contract). Under the sandbox profile the others
//! follow it, and the first says which other steps passed and which could not be checked and why; under
//! production only the first is said, as the bank does. The signing string the sandbox computed goes in
//! the text of the signature step's ERROR (after "Signing string computed by the sandbox"), not in an
//! entry of its own (docs/reference/errors.md). A request with no Signature at all gets no summary: it
//! is told how to sign.

use super::run::Run;
use crate::domain::refusal::{Refusal, MAX_TEXT_CHARS};
use crate::signing::steps::Step;

/// The refusal for these failures (at least one).
pub(super) fn refusal(failures: Vec<(Step, Refusal)>, run: &Run, every_failure: bool) -> Refusal {
    let mut failures = failures;
    failures.sort_by_key(|(step, _)| *step as usize);
    let failed: Vec<Step> = failures.iter().map(|(step, _)| *step).collect();
    let mut failures = failures.into_iter().map(|(step, mut refusal)| {
        if step == Step::Signature {
            if let Some(signing_string) = &run.signing_string {
                refusal.text = format!(
                    "{} Signing string computed by the sandbox (lines joined by \\n): {}",
                    refusal.text,
                    signing_string.replace('\n', "\\n")
                );
            }
        }
        (step, refusal)
    });
    let (first_step, mut first) = failures.next().expect("a refusal has a failed step");
    if every_failure {
        // An unsigned request is told how to sign; what its other steps found would only crowd that out.
        let others = if run.unsigned {
            String::new()
        } else {
            summary(&failed, run)
        };
        first.text = with_summary(&first.text, first_step, &others);
        first = first.with_messages(failures.flat_map(|(_, refusal)| refusal.messages()));
    }
    first.with_messages(run.tolerated.iter().map(|t| t.warning.clone()))
}

/// Which other steps passed and which could not be checked, grouped by reason.
fn summary(failed: &[Step], run: &Run) -> String {
    if run.not_checked.is_empty() {
        let others = Step::ALL.len() - failed.len();
        return match others {
            0 => String::new(),
            _ if failed.len() == 1 => "Every other step passed.".to_owned(),
            _ => "Every step not named in these errors passed.".to_owned(),
        };
    }
    let passed: Vec<&str> = Step::ALL
        .into_iter()
        .filter(|step| run.passed(*step))
        .map(Step::name)
        .collect();
    let mut parts = Vec::new();
    if !passed.is_empty() {
        parts.push(format!("{} passed", listed(&passed)));
    }
    let mut reasons: Vec<&str> = Vec::new();
    for (_, reason) in &run.not_checked {
        if !reasons.contains(&reason.as_str()) {
            reasons.push(reason);
        }
    }
    for reason in reasons {
        let steps: Vec<&str> = run
            .not_checked
            .iter()
            .filter(|(_, r)| r == reason)
            .map(|(step, _)| step.name())
            .collect();
        parts.push(format!(
            "{} could not be checked because {reason}",
            listed(&steps)
        ));
    }
    format!("Other steps: {}.", parts.join("; "))
}

/// "a", "a and b", "a, b and c".
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The first ERROR's text with the summary after its reason, the reason shortened when both would not
/// fit in a message's 512 characters: the summary is what a client reads to know what else to fix. The
/// signature step's signing string stays last (cut at the limit when it is long; the traffic log and
/// `xs2a-sandbox verify` have it whole).
fn with_summary(text: &str, step: Step, summary: &str) -> String {
    if summary.is_empty() {
        return text.to_owned();
    }
    const MARK: &str = " Signing string computed by the sandbox";
    let (reason, signing_string) = match (step, text.find(MARK)) {
        (Step::Signature, Some(at)) => text.split_at(at),
        _ => (text, ""),
    };
    let room = MAX_TEXT_CHARS.saturating_sub(summary.chars().count() + 1);
    let reason = if reason.chars().count() > room {
        let mut cut: String = reason.chars().take(room.saturating_sub(1)).collect();
        cut.push('…');
        cut
    } else {
        reason.to_owned()
    };
    format!("{reason} {summary}{signing_string}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_sentences() {
        assert_eq!(listed(&["date"]), "date");
        assert_eq!(listed(&["date", "digest"]), "date and digest");
        assert_eq!(listed(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn a_long_reason_gives_way_to_the_summary() {
        let reason = "x".repeat(600);
        let text = with_summary(&reason, Step::Date, "Every other step passed.");
        assert!(text.ends_with("… Every other step passed."), "{text}");
        assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
    }

    #[test]
    fn the_signing_string_stays_after_the_summary() {
        let text = with_summary(
            "failed. Signing string computed by the sandbox (lines joined by \\n): date: x",
            Step::Signature,
            "Every other step passed.",
        );
        assert_eq!(
            text,
            "failed. Every other step passed. Signing string computed by the sandbox (lines joined by \\n): date: x"
        );
    }
}
