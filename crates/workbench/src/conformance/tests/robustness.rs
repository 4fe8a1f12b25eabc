//! Robustness rules.

use super::*;
use crate::conformance::model::Verdict::*;

fn expired() -> X {
    x("GET", "/v1/accounts/a1/transactions")
        .header("PSU-ID", "psu-1")
        .refused(
            401,
            "CONSENT_EXPIRED",
            "PSU-IP-Address",
            "read it with the PSU present",
        )
}

#[test]
fn reading_on_after_consent_expired_fails_until_a_new_sca() {
    let report = report_of(vec![
        expired(),
        x("GET", "/v1/accounts/a1/balances").header("PSU-ID", "psu-1"),
    ]);
    assert_eq!(verdict(&report, "NO-ROB-001"), (Failed, vec![2]));
    let renewed = report_of(vec![
        expired(),
        automated_sca("a9", "SUCCEEDED", "psu-1", "s1", "PRIVATE"),
        x("GET", "/v1/accounts/a1/balances").header("PSU-ID", "psu-1"),
    ]);
    assert_eq!(verdict(&renewed, "NO-ROB-001").0, Passed);
    assert_eq!(verdict(&report_of(vec![]), "NO-ROB-001").0, NotExercised);
}

fn limited(retry_after: Option<&str>) -> X {
    let refused = x("GET", "/v1/accounts/a1/balances")
        .header("PSU-ID", "psu-1")
        .refused(429, "ACCESS_EXCEEDED", "", "limit");
    match retry_after {
        Some(value) => refused.answer_header("Retry-After", value),
        None => refused,
    }
}

#[test]
fn calling_again_before_retry_after_fails_and_after_it_passes() {
    let again = |at: f64| {
        x("GET", "/v1/accounts/a1/balances")
            .header("PSU-ID", "psu-1")
            .at(at)
    };
    let early = report_of(vec![limited(Some("30")), again(5.0)]);
    assert_eq!(verdict(&early, "NO-ROB-002"), (Failed, vec![2]));
    let patient = report_of(vec![limited(Some("30")), again(31.0)]);
    assert_eq!(verdict(&patient, "NO-ROB-002").0, Passed);
    let frozen = report_of(vec![limited(Some("30")), again(0.0)]);
    assert_eq!(verdict(&frozen, "NO-ROB-002"), (Review, vec![2]));
    let blind = report_of(vec![limited(None), limited(None).at(1.0)]);
    assert_eq!(verdict(&blind, "NO-ROB-002"), (Failed, vec![2]));
}

#[test]
fn retry_after_as_a_date_counts_from_the_answer() {
    let report = report_of(vec![
        limited(Some("Mon, 01 Jun 2026 12:01:00 GMT")),
        x("GET", "/v1/accounts/a1/balances").at(30.0),
    ]);
    assert_eq!(verdict(&report, "NO-ROB-002").0, Failed);
}

#[test]
fn hammering_a_503_fails_and_shrinking_waits_warn() {
    let down = |at: f64| {
        x("GET", "/v1/accounts")
            .at(at)
            .status(503)
            .answer(json!({"tppMessages": []}))
    };
    let hammer = report_of(vec![down(0.0), down(0.2)]);
    assert_eq!(verdict(&hammer, "NO-ROB-003"), (Failed, vec![2]));
    let shrinking = report_of(vec![down(0.0), down(8.0), down(16.0), down(20.0)]);
    assert_eq!(verdict(&shrinking, "NO-ROB-003"), (Warning, vec![4]));
    let backing = report_of(vec![down(0.0), down(2.0), down(6.0), down(14.0)]);
    assert_eq!(verdict(&backing, "NO-ROB-003").0, Passed);
    let announced = report_of(vec![
        down(0.0).answer_header("Retry-After", "120"),
        x("GET", "/v1/accounts").at(60.0),
    ]);
    assert_eq!(verdict(&announced, "NO-ROB-003"), (Failed, vec![2]));
}

#[test]
fn after_a_timed_out_payment_call_a_blind_repeat_fails_and_a_status_read_first_passes() {
    let authorise = || x("POST", &format!("{STRAKS}/p1/authorisations")).status(201);
    let status = || x("GET", &format!("{STRAKS}/p1/status"));
    let blind = report_of(vec![authorise().duration(31_000), authorise().at(40.0)]);
    assert_eq!(verdict(&blind, "NO-ROB-004"), (Failed, vec![2]));
    let careful = report_of(vec![
        authorise().duration(31_000),
        status().at(35.0),
        authorise().at(40.0),
    ]);
    assert_eq!(verdict(&careful, "NO-ROB-004").0, Passed);
    let mut duplicate = x("POST", STRAKS)
        .b_p()
        .body(payment(json!("5.00")))
        .at(40.0);
    duplicate.0.query = Some("allowLogicalDuplicate=true".into());
    let recreated = report_of(vec![
        x("POST", STRAKS)
            .b_p()
            .body(payment(json!("5.00")))
            .status(504),
        duplicate,
    ]);
    assert_eq!(verdict(&recreated, "NO-ROB-004"), (Failed, vec![2]));
}

#[test]
fn restarting_a_cancelled_sca_at_once_fails_and_later_passes() {
    let created = |at: f64, auth: &str| {
        x("POST", STRAKS)
            .b_p()
            .body(payment(json!("7.00")))
            .at(at)
            .status(201)
            .answer(json!({"paymentId": format!("p-{auth}"),
                "_links": {"scaRedirect": {"href": format!("http://h/sca/{auth}")}}}))
    };
    let cancelled = |at: f64, auth: &str| automated_sca(auth, "CANCELLED", "", "s1", "").at(at);
    let blind = report_of(vec![
        created(0.0, "a1"),
        cancelled(5.0, "a1"),
        created(6.0, "a2"),
    ]);
    assert_eq!(verdict(&blind, "NO-ROB-005"), (Failed, vec![3]));
    let chosen = report_of(vec![
        created(0.0, "a1"),
        cancelled(5.0, "a1"),
        created(60.0, "a2"),
    ]);
    assert_eq!(verdict(&chosen, "NO-ROB-005").0, Passed);
}
