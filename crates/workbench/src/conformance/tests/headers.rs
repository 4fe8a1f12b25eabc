//! Header rules.

use super::*;
use crate::conformance::model::Verdict::*;

fn create() -> X {
    x("POST", STRAKS)
        .header("PSU-ID", "psu-1")
        .body(payment(json!("10.00")))
        .status(201)
}

#[test]
fn payment_calls_without_the_set_p_headers_fail_each_its_own_rule() {
    let report = report_of(vec![
        create().b_p(),
        create().header("x-accept-fix", "amount-as-string").refused(
            400,
            "HTTP_HEADER_REQUIRED",
            "TPP-Session-ID",
            "missing",
        ),
    ]);
    assert_eq!(verdict(&report, "NO-HDR-001"), (Failed, vec![2]));
    assert_eq!(verdict(&report, "NO-HDR-002"), (Failed, vec![2]));
    assert_eq!(verdict(&report, "NO-HDR-003"), (Failed, vec![2]));
    assert_eq!(verdict(&report, "NO-HDR-005").0, Passed);
    assert_eq!(
        verdict(&report, "NO-GEN-001").0,
        Passed,
        "the refusal is explained by the header rules"
    );
}

#[test]
fn a_read_without_the_redirect_uri_warns() {
    let report = report_of(vec![x("GET", "/v1/accounts").header("PSU-ID", "p")]);
    assert_eq!(verdict(&report, "NO-HDR-001"), (Warning, vec![1]));
}

#[test]
fn a_missing_x_accept_fix_fails_and_an_unknown_fix_warns() {
    let mut without = create().b_p();
    without
        .0
        .request_headers
        .retain(|(n, _)| n != "x-accept-fix");
    assert_eq!(verdict(&report_of(vec![without]), "NO-HDR-005").0, Failed);
    let mut unknown = create().b_p();
    unknown
        .0
        .request_headers
        .retain(|(n, _)| n != "x-accept-fix");
    let unknown = unknown.header("x-accept-fix", "amount-as-string,shiny-new-thing");
    assert_eq!(verdict(&report_of(vec![unknown]), "NO-HDR-005").0, Warning);
}

#[test]
fn after_a_corporate_sca_a_call_without_psu_corporate_id_fails() {
    let report = report_of(vec![
        x("GET", "/v1/accounts")
            .ais("")
            .asks_sca("a1", "CONSENT_INVALID"),
        automated_sca("a1", "SUCCEEDED", "psu-c", "s1", "CORPORATE"),
        x("GET", "/v1/accounts")
            .ais("psu-c")
            .header("PSU-Corporate-ID", "corp-1"),
        x("GET", "/v1/accounts").ais("psu-c").refused(
            400,
            "HTTP_HEADER_REQUIRED",
            "PSU-Corporate-ID",
            "corporate",
        ),
    ]);
    assert_eq!(verdict(&report, "NO-HDR-004"), (Failed, vec![4]));
    let private = report_of(vec![
        x("GET", "/v1/accounts")
            .ais("")
            .asks_sca("a1", "CONSENT_INVALID"),
        automated_sca("a1", "SUCCEEDED", "psu-p", "s1", "PRIVATE"),
        x("GET", "/v1/accounts").ais("psu-p"),
    ]);
    assert_eq!(verdict(&private, "NO-HDR-004").0, NotExercised);
}

#[test]
fn the_national_identity_again_after_the_psu_id_was_obtained_fails() {
    let report = report_of(vec![
        create()
            .b_p()
            .header("X-PSU-IDENTITY", "14838510036")
            .answer(
                json!({"paymentId": "p1", "_links": {"scaRedirect": {"href": "http://h/sca/a1"}}}),
            ),
        automated_sca("a1", "SUCCEEDED", "psu-k", "s1", "PRIVATE"),
        x("POST", STRAKS)
            .b_p()
            .header("X-PSU-IDENTITY", "14838510036")
            .body(payment(json!("20.00")))
            .status(201),
        x("POST", STRAKS)
            .b_p()
            .header("PSU-ID", "psu-k")
            .body(payment(json!("30.00")))
            .status(201),
    ]);
    assert_eq!(verdict(&report, "NO-HDR-006"), (Failed, vec![3]));
}

#[test]
fn a_read_naming_no_psu_in_a_session_whose_psu_id_is_known_fails() {
    let report = report_of(vec![
        x("GET", "/v1/accounts")
            .ais("")
            .asks_sca("a1", "CONSENT_INVALID"),
        automated_sca("a1", "SUCCEEDED", "psu-k", "s1", "PRIVATE"),
        x("GET", "/v1/accounts")
            .header("TPP-Session-ID", "s1")
            .header("TPP-Redirect-URI", REDIRECT)
            .header("PSU-IP-Address", "192.0.2.1"),
    ]);
    assert_eq!(verdict(&report, "NO-HDR-006"), (Failed, vec![3]));
}

#[test]
fn a_malformed_psu_ip_address_fails() {
    let report = report_of(vec![x("GET", "/v1/accounts")
        .header("PSU-IP-Address", "not-an-ip")
        .refused(400, "FORMAT_ERROR", "PSU-IP-Address", "not an IP address")]);
    assert_eq!(verdict(&report, "NO-HDR-007"), (Failed, vec![1]));
}

#[test]
fn an_xml_body_fails() {
    let mut xml = x("POST", STRAKS).b_p().status(415);
    xml.0.request_body = Some("<payment/>".into());
    xml = xml.header("Content-Type", "application/xml");
    let report = report_of(vec![xml]);
    assert_eq!(verdict(&report, "NO-HDR-008"), (Failed, vec![1]));
}
