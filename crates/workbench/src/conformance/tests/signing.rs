//! Pre-flight and signing rules.

use super::*;
use crate::conformance::model::Verdict::*;

fn accounts() -> X {
    x("GET", "/v1/accounts").ais("psu-1")
}

#[test]
fn a_clean_signed_read_passes_the_signing_rules() {
    let report = report_of(vec![accounts().signed()]);
    for id in [
        "NO-PRE-001",
        "NO-PRE-002",
        "NO-PRE-003",
        "NO-SIG-001",
        "NO-SIG-004",
        "NO-SIG-005",
        "NO-SIG-006",
        "NO-SIG-007",
        "NO-SIG-008",
        "NO-SIG-009",
    ] {
        assert_eq!(
            verdict(&report, id).0,
            Passed,
            "{id}: {:?}",
            report.rule(id)
        );
    }
    assert_eq!(findings(&report), vec![]);
}

#[test]
fn a_certificate_without_the_role_a_call_needs_fails_pre_flight() {
    let mut read = accounts();
    let pisp = credentials("pisp").certificate_header();
    read = read.header("TPP-Signature-Certificate", &pisp);
    read.0.gate = Some(super::gate_passed());
    let report = report_of(vec![read]);
    assert_eq!(verdict(&report, "NO-PRE-001"), (Failed, vec![1]));
    assert!(report
        .rule("NO-PRE-001")
        .unwrap()
        .summary
        .contains("needs PSP_AI"));
}

#[test]
fn an_untrusted_certificate_fails_pre_flight() {
    let report = report_of(vec![
        accounts().signed(),
        accounts().signed().gate_refused(
            "certificate",
            "The certificate is not trusted: unknown issuer",
        ),
    ]);
    assert_eq!(verdict(&report, "NO-PRE-002"), (Failed, vec![2]));
}

#[test]
fn a_clock_off_by_twenty_seconds_warns_and_by_ninety_fails() {
    let off = |skew| {
        report_of(vec![
            accounts().signed_with(SignOptions::default(), skew),
            accounts().at(5.0).signed_with(SignOptions::default(), skew),
        ])
    };
    assert_eq!(verdict(&off(-20), "NO-PRE-003").0, Warning);
    assert_eq!(verdict(&off(0), "NO-PRE-003").0, Passed);
    let far = report_of(vec![accounts()
        .signed_with(SignOptions::default(), -90)
        .gate_refused("date", "Date is 90 s behind the sandbox clock")]);
    assert_eq!(verdict(&far, "NO-PRE-003").0, Failed);
}

#[test]
fn redirect_uris_without_https_warn_and_with_a_fragment_fail() {
    let with = |uri: &str| {
        report_of(vec![x("GET", "/v1/accounts")
            .header("TPP-Redirect-URI", uri)
            .signed()])
    };
    assert_eq!(verdict(&with(REDIRECT), "NO-PRE-004").0, Passed);
    assert_eq!(
        verdict(&with("http://127.0.0.1/cb"), "NO-PRE-004").0,
        Warning
    );
    assert_eq!(
        verdict(&with("https://tpp.example/cb#x"), "NO-PRE-004").0,
        Failed
    );
    assert_eq!(verdict(&with("/callback"), "NO-PRE-004").0, Failed);
}

#[test]
fn a_signature_without_the_request_target_warns() {
    let options = SignOptions {
        request_target: false,
        ..SignOptions::default()
    };
    let report = report_of(vec![
        accounts().signed(),
        accounts().signed_with(options, 0),
    ]);
    assert_eq!(verdict(&report, "NO-SIG-001"), (Warning, vec![2]));
}

#[test]
fn a_body_whose_digest_is_not_signed_fails() {
    let options = SignOptions {
        signed_headers: Some(vec!["date".into(), "x-request-id".into()]),
        ..SignOptions::default()
    };
    let post = || x("POST", STRAKS).b_p().body(payment(json!("10.00")));
    let report = report_of(vec![
        post().signed(),
        post()
            .signed_with(options, 0)
            .gate_refused("signed headers", "the headers part must include 'digest'"),
    ]);
    assert_eq!(verdict(&report, "NO-SIG-002"), (Failed, vec![2]));
    assert_eq!(
        verdict(&report, "NO-SIG-006").0,
        Passed,
        "graded once, by NO-SIG-002"
    );
}

#[test]
fn a_stale_date_fails_and_a_drifting_clock_warns() {
    let report = report_of(vec![
        accounts().signed(),
        accounts().at(10.0).signed_with(SignOptions::default(), -45),
        accounts().at(20.0).signed(),
    ]);
    assert_eq!(verdict(&report, "NO-SIG-003"), (Failed, vec![2]));
    assert_eq!(
        verdict(&report, "NO-PRE-003").0,
        Passed,
        "the usual offset is 0"
    );
    let drifting = report_of(vec![
        accounts().signed_with(SignOptions::default(), 0),
        accounts().at(600.0).signed_with(SignOptions::default(), 6),
        accounts()
            .at(1200.0)
            .signed_with(SignOptions::default(), 12),
    ]);
    assert_eq!(verdict(&drifting, "NO-SIG-003"), (Warning, vec![1, 3]));
}

#[test]
fn a_key_id_naming_the_issuer_in_another_order_warns_and_another_serial_fails() {
    let certificate = credentials("aisp-pisp");
    let serial = certificate.key_id().split(',').next().unwrap()["SN=".len()..].to_owned();
    let with_key_id = |key_id: String| SignOptions {
        key_id: Some(key_id),
        ..SignOptions::default()
    };
    let reordered = with_key_id(format!(
        "SN={serial},CA=O=xs2a-sandbox,CN=xs2a-sandbox Test CA,C=NO"
    ));
    let report = report_of(vec![
        accounts().signed(),
        accounts().signed_with(reordered, 0),
    ]);
    assert_eq!(verdict(&report, "NO-SIG-004"), (Warning, vec![2]));
    let other = with_key_id("SN=ABC123,CA=CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO".into());
    let report = report_of(vec![accounts().signed_with(other, 0)]);
    assert_eq!(verdict(&report, "NO-SIG-004").0, Failed);
}

#[test]
fn an_x_request_id_reused_for_another_request_fails_but_a_resend_does_not() {
    let report = report_of(vec![
        accounts().header("X-Request-ID", "r-1").signed(),
        accounts().header("X-Request-ID", "r-1").signed(),
        x("GET", "/v1/accounts/a1/balances")
            .ais("psu-1")
            .header("X-Request-ID", "r-1")
            .signed(),
    ]);
    assert_eq!(verdict(&report, "NO-SIG-005"), (Failed, vec![3]));
    assert!(report.rule("NO-SIG-005").unwrap().evidence[0]
        .note
        .contains("exchange #1"));
}

#[test]
fn a_signature_that_does_not_verify_fails() {
    let report = report_of(vec![accounts().signed().gate_refused(
        "signature",
        "The signature does not verify with the certificate's key",
    )]);
    assert_eq!(verdict(&report, "NO-SIG-006"), (Failed, vec![1]));
}

#[test]
fn a_carried_psu_id_left_unsigned_warns() {
    let options = SignOptions {
        signed_headers: Some(vec!["date".into(), "x-request-id".into()]),
        ..SignOptions::default()
    };
    let report = report_of(vec![accounts().signed_with(options, 0)]);
    assert_eq!(verdict(&report, "NO-SIG-007"), (Warning, vec![1]));
    assert!(report.rule("NO-SIG-007").unwrap().evidence[0]
        .note
        .contains("psu-id, tpp-redirect-uri"));
}

#[test]
fn a_signed_header_beyond_the_candidates_warns_and_is_named() {
    let options = SignOptions {
        signed_headers: Some(
            ["(request-target)", "date", "x-request-id", "accept"]
                .map(String::from)
                .to_vec(),
        ),
        ..SignOptions::default()
    };
    let read = accounts().header("Accept", "application/json");
    let report = report_of(vec![read.signed_with(options, 0)]);
    assert_eq!(verdict(&report, "NO-SIG-009"), (Warning, vec![1]));
    let note = &report.rule("NO-SIG-009").unwrap().evidence[0].note;
    assert!(note.contains("signs accept"), "{note}");
}

#[test]
fn an_hs2019_algorithm_and_pem_armour_warn() {
    let mut read = accounts().signed();
    for (name, value) in &mut read.0.request_headers {
        if name.eq_ignore_ascii_case("signature") {
            *value = value.replace("rsa-sha256", "hs2019");
        }
    }
    let report = report_of(vec![read]);
    assert_eq!(verdict(&report, "NO-SIG-008"), (Warning, vec![1]));
}

#[test]
fn a_flow_file_leaves_the_signing_rules_not_exercised() {
    let mut selected = selection(vec![accounts()]);
    selected.signed = false;
    selected.timed = false;
    let report = grade(&selected, About::default(), T0);
    for id in ["NO-SIG-001", "NO-SIG-003", "NO-PRE-003"] {
        assert_eq!(verdict(&report, id).0, NotExercised, "{id}");
    }
}
