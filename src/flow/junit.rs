//! A JUnit XML report of a replay (one test case per step), the format CI systems read.

use std::fmt::Write;

/// How one step of a replay went.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub name: String,
    pub seconds: f64,
    /// None when it passed; else the failure's one-line message and its details.
    pub failure: Option<(String, String)>,
}

/// Text escaped for XML 1.0 (attributes and character data); control characters XML cannot hold become `?`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The report of suite `suite` (the flow's name).
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
    for (i, case) in cases.iter().enumerate() {
        let name = escape(&format!("{:02} {}", i + 1, case.name));
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
    }
}
