//! The report as a whole: the leftovers rule, the catalogue, the JSON Schema, JUnit, HTML, and the docs.

use super::*;
use crate::conformance::model::Verdict::*;
use crate::conformance::rules::catalogue;

#[test]
fn a_refusal_no_rule_explains_is_left_for_review() {
    let report = report_of(vec![
        x("GET", "/v1/accounts/a1/transactions").refused(
            400,
            "QUERY_PARAMETER_REQUIRED",
            "bookingStatus",
            "bookingStatus is required",
        ),
        x("GET", "/v1/accounts").asks_sca("a1", "CONSENT_INVALID"),
    ]);
    assert_eq!(verdict(&report, "NO-GEN-001"), (Review, vec![1]));
    assert!(report.rule("NO-GEN-001").unwrap().evidence[0]
        .note
        .contains("QUERY_PARAMETER_REQUIRED at bookingStatus"));
}

#[test]
fn an_empty_selection_exercises_nothing() {
    let report = report_of(vec![]);
    assert!(report.results().all(|r| r.verdict == NotExercised));
    assert_eq!(report.verdict, NotExercised);
    assert_eq!(report.counts.not_exercised as usize, catalogue().len());
}

#[test]
fn sandbox_calls_are_counted_but_graded_by_no_rule() {
    let report = report_of(vec![
        x("GET", "/v1/sandbox/customers").signed(),
        x("GET", "/v1/sandbox/customers?limit=1")
            .signed()
            .gate_refused("signature", "does not verify"),
    ]);
    assert_eq!(report.selection.sandbox_exchanges, 2);
    assert_eq!(findings(&report), vec![]);
    assert_eq!(
        verdict(&report, "NO-PRE-002").0,
        Passed,
        "pre-flight reads every request"
    );
}

#[test]
fn rule_ids_are_stable_unique_and_grouped() {
    let rules = catalogue();
    let mut ids: Vec<&str> = rules.iter().map(|r| r.id).collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "duplicate rule ids");
    for rule in rules {
        let prefix = match rule.group {
            Group::Preflight => "NO-PRE-",
            Group::Signing => "NO-SIG-",
            Group::Headers => "NO-HDR-",
            Group::ScaConsent => "NO-SCA-",
            Group::Payments => "NO-PAY-",
            Group::Robustness => "NO-ROB-",
            Group::General => "NO-GEN-",
        };
        assert!(
            rule.id.starts_with(prefix),
            "{} in {:?}",
            rule.id,
            rule.group
        );
        assert_eq!(rule.id.len(), "NO-XXX-000".len(), "{}", rule.id);
    }
}

fn busy_report() -> Report {
    report_of(vec![
        x("GET", "/v1/accounts").ais("psu-1").signed(),
        x("POST", STRAKS)
            .header("PSU-ID", "psu-1")
            .body(payment(json!(10)))
            .signed()
            .refused(
                400,
                "FORMAT_ERROR",
                "instructedAmount.amount",
                "<number> & more",
            ),
        x("GET", "/v1/accounts/<script>alert(1)</script>")
            .ais("psu-1")
            .signed()
            .refused(404, "NOT_FOUND", "", "No such path <b>here</b>"),
    ])
}

#[test]
fn the_report_validates_against_its_json_schema() {
    let schema: Value = serde_json::from_str(include_str!(
        "../../../../../fixtures/schema/conformance-report.schema.json"
    ))
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    for report in [busy_report(), report_of(vec![])] {
        let value = serde_json::to_value(&report).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        let back: Report = serde_json::from_value(value).unwrap();
        assert_eq!(back, report);
    }
    assert_eq!(schema["properties"]["version"]["const"], model::VERSION);
    let mut broken = serde_json::to_value(busy_report()).unwrap();
    broken["groups"][0]["rules"][0]["verdict"] = json!("SORT_OF");
    assert!(!validator.is_valid(&broken), "the schema checks verdicts");
}

#[test]
fn junit_has_a_case_per_rule_failures_for_failed_and_skips_for_not_exercised() {
    let report = busy_report();
    let xml = crate::conformance::junit::report(&report);
    assert_eq!(xml.matches("<testcase ").count(), catalogue().len());
    assert_eq!(
        xml.matches("<failure ").count(),
        report.counts.failed as usize
    );
    assert_eq!(
        xml.matches("<skipped ").count(),
        report.counts.not_exercised as usize
    );
    assert!(xml.contains("name=\"NO-PAY-006 Amounts are strings\""));
    assert!(!xml.contains("<script>"), "escaped");
    assert_eq!(xml.matches("<testsuite ").count(), 7);
}

#[test]
fn html_is_self_contained_and_escapes_what_it_quotes() {
    let html = crate::conformance::html::report(&busy_report());
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        !html.contains("<script"),
        "no scripts, and quoted paths escaped"
    );
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        !html.contains("src=") && !html.contains("href=\"http"),
        "nothing fetched"
    );
    assert!(html.contains("NO-PAY-006"));
    assert!(html.contains("@media print"));
}

#[test]
fn docs_list_every_rule_with_its_spec_section() {
    let docs = include_str!("../../../../../docs/conformance.md");
    for rule in catalogue() {
        let line = docs
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", rule.id)))
            .unwrap_or_else(|| panic!("docs/conformance.md has no row for {}", rule.id));
        assert!(
            line.contains(rule.spec),
            "{}: the docs' row does not name '{}'",
            rule.id,
            rule.spec
        );
    }
}

use crate::conformance::model::{self, Group};
