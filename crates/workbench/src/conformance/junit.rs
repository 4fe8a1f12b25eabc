//! The report as JUnit XML, the format CI systems read: one test suite per group (pre-flight first), one
//! test case per rule, so that CI shows the day a rule goes red. FAILED is a failure, NOT EXERCISED is
//! skipped; WARNING and REVIEW pass, with what they found in the case's output.

use super::model::{Evidence, Report, RuleResult, Verdict};
use crate::flow::junit::escape;
use std::fmt::Write;

fn evidence_lines(result: &RuleResult) -> String {
    let mut text = String::new();
    for e in &result.evidence {
        let _ = writeln!(text, "{}", evidence_line(e));
    }
    if result.evidence_omitted > 0 {
        let _ = writeln!(text, "... and {} more", result.evidence_omitted);
    }
    text
}

/// One line per evidence item: where, what, why.
pub fn evidence_line(e: &Evidence) -> String {
    let place = match (e.exchange_id, e.step) {
        (Some(id), _) => format!("exchange #{id}"),
        (None, Some(step)) => format!("step {step}"),
        _ => "-".to_owned(),
    };
    let at =
        e.at.and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    format!(
        "{place}{at} {} {} -> {}: {}",
        e.method, e.path, e.status, e.note
    )
}

fn case(xml: &mut String, suite: &str, result: &RuleResult) {
    let name = escape(&format!("{} {}", result.id, result.title));
    let _ = write!(
        xml,
        "    <testcase classname=\"conformance.{}\" name=\"{name}\" time=\"0\"",
        escape(suite)
    );
    let about = format!(
        "{}\nBank's documentation: {}\nChecks: {}\nProduction: {}\n",
        result.summary, result.spec_section, result.checks, result.production
    );
    match result.verdict {
        Verdict::Passed => {
            xml.push_str("/>\n");
        }
        Verdict::Failed => {
            let _ = writeln!(
                xml,
                ">\n      <failure type=\"FAILED\" message=\"{}\">{}\n{}</failure>\n    </testcase>",
                escape(&result.summary),
                escape(&about),
                escape(&evidence_lines(result))
            );
        }
        Verdict::NotExercised => {
            let _ = writeln!(
                xml,
                ">\n      <skipped message=\"NOT EXERCISED: {}\"/>\n    </testcase>",
                escape(&result.summary)
            );
        }
        Verdict::Warning | Verdict::Review => {
            let _ = writeln!(
                xml,
                ">\n      <system-out>{}: {}\n{}</system-out>\n    </testcase>",
                result.verdict.label(),
                escape(&about),
                escape(&evidence_lines(result))
            );
        }
    }
}

/// The whole report as JUnit XML.
pub fn report(report: &Report) -> String {
    let suites: Vec<(&str, &str, Vec<&RuleResult>)> =
        std::iter::once(("preflight", "Pre-flight", report.preflight.iter().collect()))
            .chain(
                report
                    .groups
                    .iter()
                    .map(|g| (g.group.key(), g.title.as_str(), g.rules.iter().collect())),
            )
            .collect();
    let total = report.results().count();
    let failures = report.counts.failed;
    let skipped = report.counts.not_exercised;
    let tpp = report
        .selection
        .tpp
        .as_ref()
        .map(|t| {
            format!("{} {}", t.organisation_id, t.name)
                .trim()
                .to_owned()
        })
        .unwrap_or_else(|| "conformance".to_owned());
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"{}\" tests=\"{total}\" failures=\"{failures}\" skipped=\"{skipped}\" errors=\"0\" time=\"0\">",
        escape(&format!("Conformance of {tpp}"))
    );
    for (key, title, rules) in suites {
        let failed = rules
            .iter()
            .filter(|r| r.verdict == Verdict::Failed)
            .count();
        let skipped = rules
            .iter()
            .filter(|r| r.verdict == Verdict::NotExercised)
            .count();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" skipped=\"{skipped}\" errors=\"0\" time=\"0\">",
            escape(title),
            rules.len()
        );
        for rule in rules {
            case(&mut xml, key, rule);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}
