//! A JUnit XML report of a replay, the format CI systems read: one test suite named after the flow file
//! (its stem, also every case's classname), one test case per step named `<n> <METHOD> <path template>`
//! (or `<n> <step name>`), and for a failure a message that shows the first differences themselves.

use super::compare::Difference;
use super::Step;
use std::fmt::Write;
use xs2a_core::domain::error::count;

/// How many differences the failure message shows (the details hold them all).
pub const SHOWN_DIFFERENCES: usize = 3;

/// The test case name of step `n` (from 1): its name when the flow gives one, else its method and the
/// documented path template it calls (`/v1/{service}/{product}/{paymentId}/status`), so that cases keep
/// their names from run to run whatever ids the run made. `template_for` finds the template in the
/// service's OpenAPI document (`api::openapi::template_for`), which sits above this module.
pub fn case_name(n: usize, step: &Step, template_for: TemplateFor) -> String {
    match step {
        Step::Exchange(e) => match &e.name {
            Some(name) => format!("{n:02} {name}"),
            None => format!(
                "{n:02} {} {}",
                e.request.method.to_ascii_uppercase(),
                path_template(&e.request.path, template_for)
            ),
        },
        Step::Sca(_) => format!("{n:02} SCA POST /v1/sandbox/sca/{{authorisationId}}"),
    }
}

/// Finds the documented path template that serves a concrete path (no query).
pub type TemplateFor = fn(&str) -> Option<&'static str>;

/// The OpenAPI path template a concrete path is served by (literal segments preferred), the query left
/// out; a path the document does not know keeps its literal segments, ids replaced by `{id}`.
pub fn path_template(path_and_query: &str, template_for: TemplateFor) -> String {
    let path = path_and_query.split('?').next().unwrap_or_default();
    let path = match path.strip_prefix(xs2a_core::bank::mock::PLATFORM_PREFIX) {
        Some(rest) => format!("/v1{rest}"),
        None => path.to_owned(),
    };
    match template_for(&path) {
        Some(template) => template.to_owned(),
        None => super::compare::redact_uuids(&path).replace("<id>", "{id}"),
    }
}

/// A failure's one-line message: the first differences, `pointer: expected → actual`, then how many more.
/// The status and the answer's `tppMessages` come first: they say why the step went otherwise.
pub fn failure_message(differences: &[Difference]) -> String {
    let rank = |d: &Difference| match d.pointer.as_str() {
        "" => 0,
        p if p.starts_with("/tppMessages") => 1,
        _ => 2,
    };
    let mut first: Vec<&Difference> = differences.iter().collect();
    first.sort_by_key(|d| rank(d));
    let shown: Vec<String> = first
        .into_iter()
        .take(SHOWN_DIFFERENCES)
        .map(|d| {
            if d.pointer.is_empty() {
                format!("{} → {}", d.expected, d.actual)
            } else {
                format!("{}: {} → {}", d.pointer, d.expected, d.actual)
            }
        })
        .collect();
    let mut message = format!(
        "{} from the recording: {}",
        count(differences.len(), "difference"),
        shown.join("; ")
    );
    if differences.len() > SHOWN_DIFFERENCES {
        let _ = write!(
            message,
            "; and {} more",
            differences.len() - SHOWN_DIFFERENCES
        );
    }
    message
}

/// How one step of a replay went.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The test case's name ([`case_name`]).
    pub name: String,
    pub seconds: f64,
    /// None when it passed; else the failure's one-line message and its details.
    pub failure: Option<(String, String)>,
}

/// Text escaped for XML 1.0 (double-quoted attributes and character data) by maud's escaper, the one the
/// crate's HTML goes through (`&`, `<`, `>`, `"`); control characters XML 1.0 cannot hold become `?` first.
pub fn escape(text: &str) -> String {
    let allowed: String = text
        .chars()
        .map(|c| match c {
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => '?',
            c => c,
        })
        .collect();
    let mut out = String::with_capacity(allowed.len());
    maud::Escaper::new(&mut out)
        .write_str(&allowed)
        .expect("writing to a String does not fail");
    out
}

/// The report of suite `suite` (the flow file's stem, also every case's classname).
pub fn report(suite: &str, cases: &[CaseResult]) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let total: f64 = cases.iter().map(|c| c.seconds).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">",
        cases.len()
    );
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" time=\"{total:.3}\">",
        escape(suite),
        cases.len()
    );
    for case in cases {
        let name = escape(&case.name);
        let _ = write!(
            xml,
            "    <testcase classname=\"{}\" name=\"{name}\" time=\"{:.3}\"",
            escape(suite),
            case.seconds
        );
        match &case.failure {
            None => xml.push_str("/>\n"),
            Some((message, details)) => {
                let _ = writeln!(
                    xml,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                    escape(message),
                    escape(details)
                );
            }
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_counted_and_escaped() {
        let xml = report(
            "flow <a>",
            &[
                CaseResult {
                    name: "GET /v1/accounts".into(),
                    seconds: 0.01,
                    failure: None,
                },
                CaseResult {
                    name: "POST /v1/payments".into(),
                    seconds: 0.02,
                    failure: Some(("1 difference".into(), "/x: expected \"a\" & b".into())),
                },
            ],
        );
        assert!(xml.contains("tests=\"2\" failures=\"1\""));
        assert!(xml.contains("flow &lt;a&gt;"));
        assert!(xml.contains("expected &quot;a&quot; &amp; b"));
        assert_eq!(escape("bell\u{7}\ttab"), "bell?\ttab");
    }

    #[test]
    fn the_message_shows_the_first_three_differences_and_counts_the_rest() {
        let d = |p: &str| Difference {
            pointer: p.into(),
            expected: "\"a\"".into(),
            actual: "\"b\"".into(),
        };
        let status = Difference {
            pointer: String::new(),
            expected: "status 201".into(),
            actual: "status 409".into(),
        };
        assert_eq!(
            failure_message(&[d("/x"), d("/y"), d("/tppMessages/0/text"), status.clone(), d("/w")]),
            "5 differences from the recording: status 201 → status 409; /tppMessages/0/text: \"a\" → \"b\"; /x: \"a\" → \"b\"; and 2 more"
        );
        assert_eq!(
            failure_message(&[d("/x")]),
            "1 difference from the recording: /x: \"a\" → \"b\""
        );
    }
}
