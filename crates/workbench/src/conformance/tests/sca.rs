//! SCA and consent rules.

use super::*;
use crate::conformance::model::Verdict::*;

fn page(auth: &str, step: &str) -> X {
    x("GET", &format!("/sca/{auth}{step}"))
}

#[test]
fn an_sca_redirect_never_followed_fails_and_one_of_two_is_for_review() {
    let asked = |auth: &str| {
        x("GET", "/v1/accounts")
            .ais("")
            .asks_sca(auth, "CONSENT_INVALID")
    };
    let none = report_of(vec![asked("a1")]);
    assert_eq!(verdict(&none, "NO-SCA-001"), (Failed, vec![1]));
    let one = report_of(vec![asked("a1"), page("a1", ""), asked("a2")]);
    assert_eq!(verdict(&one, "NO-SCA-001"), (Review, vec![3]));
    let all = report_of(vec![asked("a1"), page("a1", "")]);
    assert_eq!(verdict(&all, "NO-SCA-001").0, Passed);
}

#[test]
fn a_payment_sca_started_again_with_start_authorisation_counts_as_followed() {
    let report = report_of(vec![
        x("POST", STRAKS).b_p().status(201).answer(
            json!({"paymentId": "p1", "_links": {"scaRedirect": {"href": "http://h/sca/a1"}}}),
        ),
        x("POST", &format!("{STRAKS}/p1/authorisations"))
            .status(201)
            .answer(json!({"_links": {"scaRedirect": {"href": "http://h/sca/a2"}}})),
        automated_sca("a2", "SUCCEEDED", "psu-1", "s1", "PRIVATE"),
    ]);
    assert_eq!(verdict(&report, "NO-SCA-001").0, Passed);
}

#[test]
fn the_same_session_for_two_psus_fails() {
    let report = report_of(vec![
        x("GET", "/v1/accounts").ais("psu-1"),
        x("GET", "/v1/accounts").ais("psu-2"),
        x("GET", "/v1/accounts").ais("psu-2"),
    ]);
    assert_eq!(verdict(&report, "NO-SCA-002"), (Failed, vec![2]));
}

#[test]
fn a_consent_used_past_its_180_days_fails_and_one_renewed_in_time_passes() {
    let day = 86_400.0;
    let sca = |at: f64| automated_sca("a1", "SUCCEEDED", "psu-1", "s1", "PRIVATE").at(at);
    let lapsed = report_of(vec![
        sca(0.0),
        x("GET", "/v1/accounts").ais("psu-1").at(181.0 * day),
    ]);
    assert_eq!(verdict(&lapsed, "NO-SCA-003"), (Failed, vec![2]));
    let renewed = report_of(vec![
        sca(0.0),
        x("GET", "/v1/accounts").ais("psu-1").at(160.0 * day),
        sca(161.0 * day),
        x("GET", "/v1/accounts").ais("psu-1").at(200.0 * day),
    ]);
    assert_eq!(verdict(&renewed, "NO-SCA-003").0, Passed);
    let short = report_of(vec![
        sca(0.0),
        x("GET", "/v1/accounts").ais("psu-1").at(60.0),
    ]);
    assert_eq!(verdict(&short, "NO-SCA-003").0, NotExercised);
    let refused = report_of(vec![x("GET", "/v1/accounts").ais("psu-1").refused(
        401,
        "CONSENT_EXPIRED",
        "",
        "The SCA behind this consent was done at 2025-11-01 and must be renewed every 180 days.",
    )]);
    assert_eq!(verdict(&refused, "NO-SCA-003").0, Failed);
}

#[test]
fn a_fifth_read_without_the_psu_in_a_day_fails() {
    let read = |hour: f64| {
        x("GET", "/v1/accounts/a1/balances")
            .header("PSU-ID", "psu-1")
            .at(hour * 3600.0)
    };
    let report = report_of(vec![read(0.0), read(1.0), read(2.0), read(3.0), read(4.0)]);
    assert_eq!(verdict(&report, "NO-SCA-004"), (Failed, vec![5]));
    let spread = report_of(vec![read(0.0), read(1.0), read(2.0), read(3.0), read(25.0)]);
    assert_eq!(verdict(&spread, "NO-SCA-004").0, Passed);
    let present = report_of(
        (0..6)
            .map(|i| read(i as f64).header("PSU-IP-Address", "1.2.3.4"))
            .collect(),
    );
    assert_eq!(verdict(&present, "NO-SCA-004").0, NotExercised);
}
