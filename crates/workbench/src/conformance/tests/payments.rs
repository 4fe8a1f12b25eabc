//! Payment rules.

use super::*;
use crate::conformance::model::Verdict::*;

fn create(body: Value) -> X {
    x("POST", STRAKS)
        .b_p()
        .header("PSU-ID", "psu-1")
        .body(body)
        .status(201)
}

#[test]
fn the_same_payment_refused_as_a_logical_duplicate_fails() {
    let report = report_of(vec![
        create(payment(json!("10.00"))).answer(json!({"paymentId": "p1"})),
        create(payment(json!("10.00"))).refused(
            409,
            "CONFLICT",
            "(body)",
            "This payment is a logical duplicate of payment p1 (same debtor, ...)",
        ),
    ]);
    assert_eq!(verdict(&report, "NO-PAY-001"), (Failed, vec![2]));
    assert_eq!(verdict(&report, "NO-GEN-001").0, Passed);
}

#[test]
fn the_same_payment_created_again_with_allow_logical_duplicate_is_for_review() {
    let mut again = create(payment(json!("10.00")));
    again.0.query = Some("allowLogicalDuplicate=true".into());
    let report = report_of(vec![create(payment(json!("10.00"))), again]);
    assert_eq!(verdict(&report, "NO-PAY-001"), (Review, vec![2]));
}

#[test]
fn polling_a_status_every_two_seconds_fails_and_every_twenty_passes() {
    let status = |at: f64| x("GET", &format!("{STRAKS}/p1/status")).at(at);
    let looped = report_of(vec![status(0.0), status(2.0), status(4.0), status(6.0)]);
    assert_eq!(verdict(&looped, "NO-PAY-002"), (Failed, vec![3, 4, 2]));
    let once = report_of(vec![status(0.0), status(3.0)]);
    assert_eq!(verdict(&once, "NO-PAY-002"), (Warning, vec![2]));
    let calm = report_of(vec![status(0.0), status(20.0), status(40.0)]);
    assert_eq!(verdict(&calm, "NO-PAY-002").0, Passed);
    let frozen = report_of(vec![status(0.0), status(0.0)]);
    assert_eq!(verdict(&frozen, "NO-PAY-002"), (Review, vec![2]));
}

#[test]
fn a_read_after_the_sca_ended_is_not_polling() {
    let report = report_of(vec![
        x("GET", &format!("{STRAKS}/p1/status")).at(0.0),
        automated_sca("a1", "SUCCEEDED", "psu-1", "s1", "PRIVATE").at(1.0),
        x("GET", &format!("{STRAKS}/p1/status")).at(2.0),
    ]);
    assert_eq!(verdict(&report, "NO-PAY-002").0, Passed);
}

#[test]
fn an_invalid_kid_fails() {
    let mut body = payment(json!("10.00"));
    body.as_object_mut()
        .unwrap()
        .remove("remittanceInformationUnstructured");
    body["remittanceInformationStructured"] =
        json!({"reference": "1234567891", "referenceType": "KID"});
    let report = report_of(vec![create(body.clone())]);
    assert_eq!(verdict(&report, "NO-PAY-003").0, Failed);
    body["remittanceInformationStructured"]["reference"] = json!("1234567897");
    let report = report_of(vec![create(body)]);
    assert_eq!(verdict(&report, "NO-PAY-003").0, Passed);
    assert_eq!(
        verdict(
            &report_of(vec![create(payment(json!("1.00")))]),
            "NO-PAY-003"
        )
        .0,
        NotExercised
    );
}

#[test]
fn city_and_post_v1_consents_warn() {
    let mut body = payment(json!("10.00"));
    body["creditorAddress"] = json!({"city": "Oslo", "country": "NO"});
    let report = report_of(vec![
        create(body),
        x("POST", "/v1/consents").asks_sca("a1", "CONSENT_INVALID"),
    ]);
    assert_eq!(verdict(&report, "NO-PAY-004"), (Warning, vec![1]));
    assert_eq!(verdict(&report, "NO-PAY-005"), (Warning, vec![2]));
}

#[test]
fn an_amount_sent_as_a_number_fails_once() {
    let report = report_of(vec![create(payment(json!(10.5))).refused(
        400,
        "FORMAT_ERROR",
        "instructedAmount.amount",
        "must be a JSON string",
    )]);
    assert_eq!(verdict(&report, "NO-PAY-006"), (Failed, vec![1]));
    assert_eq!(
        verdict(&report, "NO-PAY-007").0,
        Passed,
        "graded by NO-PAY-006"
    );
}

#[test]
fn a_payment_the_bank_refuses_for_a_field_fails_validation() {
    let report = report_of(vec![create(payment(json!("10.00"))).refused(
        400,
        "FORMAT_ERROR",
        "creditorName",
        "creditorName is longer than 70 characters",
    )]);
    assert_eq!(verdict(&report, "NO-PAY-007"), (Failed, vec![1]));
}
