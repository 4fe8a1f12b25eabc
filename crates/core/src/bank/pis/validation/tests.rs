//! Unit tests of payment validation, one per rule: each asserts status, code and JSON path.

use super::*;
use crate::bank::pis::model::{DebtorAccount, Frequency, Remittance};
use crate::domain::refusal::Category;
use crate::domain::Currency;
use serde_json::{json, Value};
use time::macros::{date, datetime};

const NOW: OffsetDateTime = datetime!(2026-03-02 10:00 UTC);
const ENFORCED: OffsetDateTime = datetime!(2026-08-13 00:00 UTC);
const DOM: PaymentProduct = PaymentProduct::NorwegianDomesticCreditTransfers;
const INSTANT: PaymentProduct = PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks;
const SEPA: PaymentProduct = PaymentProduct::SepaCreditTransfers;
const CROSS: PaymentProduct = PaymentProduct::CrossBorderCreditTransfers;
const SINGLE: PaymentService = PaymentService::Payments;

fn domestic() -> Value {
    json!({
        "instructedAmount": {"amount": "100.00", "currency": "NOK"},
        "creditorName": "Kari Nordmann",
        "creditorAccount": {"bban": "86011117947", "currency": "NOK"},
        "creditorAddress": {"townName": "Oslo", "country": "NO"},
        "debtorAccount": {"bban": "12345678903", "currency": "NOK"}
    })
}

fn sepa() -> Value {
    json!({
        "instructedAmount": {"amount": "100.00", "currency": "EUR"},
        "creditorName": "Hans Muster",
        "creditorAccount": {"iban": "DE89370400440532013000"},
        "creditorAgent": "DEUTDEFFXXX",
        "creditorAddress": {"townName": "Berlin", "country": "DE"},
        "debtorAccount": {"bban": "12345678903", "currency": "NOK"}
    })
}

fn cross(currency: &str, amount: &str) -> Value {
    let mut body = sepa();
    set(&mut body, "instructedAmount.currency", json!(currency));
    set(&mut body, "instructedAmount.amount", json!(amount));
    body
}

/// Sets a dotted path, creating objects on the way.
fn set(body: &mut Value, path: &str, value: Value) {
    let mut parts: Vec<&str> = path.split('.').collect();
    let last = parts.pop().unwrap();
    let mut at = body;
    for part in parts {
        at = at
            .as_object_mut()
            .unwrap()
            .entry(part)
            .or_insert_with(|| json!({}));
    }
    at.as_object_mut().unwrap().insert(last.to_string(), value);
}

fn remove(body: &mut Value, path: &str) {
    let mut parts: Vec<&str> = path.split('.').collect();
    let last = parts.pop().unwrap();
    let mut at = body;
    for part in parts {
        at = at.get_mut(part).unwrap();
    }
    at.as_object_mut().unwrap().remove(last);
}

fn with(mut body: Value, path: &str, value: Value) -> Value {
    set(&mut body, path, value);
    body
}

fn without(mut body: Value, path: &str) -> Value {
    remove(&mut body, path);
    body
}

fn ok_at(
    service: PaymentService,
    product: PaymentProduct,
    body: &Value,
    now: OffsetDateTime,
) -> (ValidatedPayment, Vec<TppMessage>) {
    validate(service, product, body, now).unwrap_or_else(|e| panic!("{e:?}"))
}

fn ok(product: PaymentProduct, body: &Value) -> (ValidatedPayment, Vec<TppMessage>) {
    ok_at(SINGLE, product, body, NOW)
}

fn err_at(
    service: PaymentService,
    product: PaymentProduct,
    body: &Value,
    now: OffsetDateTime,
) -> Refusal {
    match validate(service, product, body, now) {
        Ok(v) => panic!("expected a refusal, got {v:?}"),
        Err(e) => e,
    }
}

fn err(product: PaymentProduct, body: &Value) -> Refusal {
    err_at(SINGLE, product, body, NOW)
}

#[track_caller]
fn assert_refused(e: &Refusal, code: Code, path: &str) {
    assert_eq!(e.status(), 400, "{e:?}");
    assert_eq!(e.code, code, "{e:?}");
    assert_eq!(e.path.as_deref(), Some(path), "{e:?}");
}

#[track_caller]
fn assert_format(e: &Refusal, path: &str) {
    assert_refused(e, Code::FormatError, path);
}

// ---- accepted bodies -------------------------------------------------------------------------

#[test]
fn a_valid_domestic_payment_becomes_one_order() {
    let body = with(domestic(), "creditorAccount.bban", json!("8601.11.17947"));
    let (payment, warnings) = ok(DOM, &body);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(payment.service, SINGLE);
    assert_eq!(payment.orders.len(), 1);
    let order = &payment.orders[0];
    assert_eq!(order.instructed_amount.currency, Currency::NOK);
    assert_eq!(order.instructed_amount.amount.to_string(), "100.00");
    assert_eq!(order.creditor_account.bban.as_deref(), Some("86011117947"));
    assert_eq!(order.creditor_address.town_name.as_deref(), Some("Oslo"));
    assert_eq!(
        order.debtor_account,
        DebtorAccount::Bban {
            bban: "12345678903".into(),
            currency: Currency::NOK
        }
    );
    assert!(payment.schedule.is_none());
}

#[test]
fn unknown_and_unmodelled_fields_are_accepted_silently() {
    let mut body = domestic();
    set(&mut body, "endToEndIdentification", json!("E2E-1"));
    set(&mut body, "chargeBearer", json!("SHAR"));
    set(&mut body, "somethingElse", json!({"x": 1}));
    let (_, warnings) = ok(DOM, &body);
    assert!(warnings.is_empty());
}

#[test]
fn null_counts_as_absent_for_optional_fields() {
    let body = with(domestic(), "ultimateDebtor", Value::Null);
    assert!(ok(DOM, &body).0.orders[0].ultimate_debtor.is_none());
}

// ---- required fields and types ---------------------------------------------------------------

#[test]
fn each_required_field_missing_is_refused_at_its_path() {
    for field in [
        "instructedAmount",
        "creditorName",
        "creditorAccount",
        "creditorAddress",
        "debtorAccount",
        "instructedAmount.amount",
        "instructedAmount.currency",
        "creditorAccount.bban",
        "creditorAccount.currency",
        "creditorAddress.country",
        "debtorAccount.currency",
    ] {
        let e = err(INSTANT, &without(domestic(), field));
        assert_format(&e, field);
        assert!(e.text.contains("required"), "{field}: {}", e.text);
    }
}

#[test]
fn wrong_json_types_are_refused_at_their_path() {
    let e = err(DOM, &with(domestic(), "creditorName", json!(42)));
    assert_format(&e, "creditorName");
    assert!(
        e.text.contains("must be a string, but a number"),
        "{}",
        e.text
    );
    assert_format(
        &err(
            DOM,
            &with(domestic(), "creditorAccount", json!("86011117947")),
        ),
        "creditorAccount",
    );
    assert_format(&err(DOM, &json!([1, 2])), "(body)");
}

// ---- lengths ----------------------------------------------------------------------------------

#[test]
fn creditor_name_counts_characters_up_to_70() {
    assert!(ok(
        DOM,
        &with(domestic(), "creditorName", json!("ø".repeat(70)))
    )
    .1
    .is_empty());
    let e = err(
        DOM,
        &with(domestic(), "creditorName", json!("ø".repeat(71))),
    );
    assert_format(&e, "creditorName");
    assert!(e.text.contains("71 characters"), "{}", e.text);
    assert_format(
        &err(DOM, &with(domestic(), "creditorName", json!("  "))),
        "creditorName",
    );
}

#[test]
fn bban_limit_is_30_characters_on_both_accounts() {
    // Bban::parse drops spaces, so a valid account padded to 30 characters passes.
    let padded = |n: usize| json!(format!("86011117947{}", " ".repeat(n - 11)));
    for path in ["creditorAccount.bban", "debtorAccount.bban"] {
        ok(DOM, &with(domestic(), path, padded(30)));
        let e = err(DOM, &with(domestic(), path, padded(31)));
        assert_format(&e, path);
        assert!(e.text.contains("at most 30"), "{}", e.text);
    }
}

#[test]
fn norwegian_bban_needs_a_valid_check_digit() {
    let e = err(
        DOM,
        &with(domestic(), "creditorAccount.bban", json!("86011117948")),
    );
    assert_format(&e, "creditorAccount.bban");
    assert!(e.text.contains("expected 7"), "{}", e.text);
    let e = err(
        DOM,
        &with(domestic(), "debtorAccount.bban", json!("1234567890")),
    );
    assert_format(&e, "debtorAccount.bban");
}

#[test]
fn foreign_bban_on_cross_border_is_limited_to_30() {
    let body = |bban: String| {
        with(
            cross("USD", "10.00"),
            "creditorAccount",
            json!({"bban": bban}),
        )
    };
    let (payment, _) = ok(CROSS, &body("A".repeat(30)));
    assert_eq!(payment.orders[0].creditor_account.currency.code(), "USD");
    assert_format(&err(CROSS, &body("A".repeat(31))), "creditorAccount.bban");
    assert_format(&err(CROSS, &body("AB-12".into())), "creditorAccount.bban");
}

#[test]
fn street_limit_is_70() {
    ok(
        DOM,
        &with(domestic(), "creditorAddress.street", json!("s".repeat(70))),
    );
    assert_format(
        &err(
            DOM,
            &with(domestic(), "creditorAddress.street", json!("s".repeat(71))),
        ),
        "creditorAddress.street",
    );
}

#[test]
fn street_name_is_an_alias_of_street() {
    let body = with(domestic(), "creditorAddress.streetName", json!("Storgata"));
    let (payment, _) = ok(DOM, &body);
    assert_eq!(
        payment.orders[0].creditor_address.street.as_deref(),
        Some("Storgata")
    );
    let body = with(body, "creditorAddress.street", json!("Kirkegata"));
    assert_format(&err(DOM, &body), "creditorAddress.streetName");
}

#[test]
fn ultimate_debtor_limit_is_70() {
    ok(
        DOM,
        &with(domestic(), "ultimateDebtor", json!("u".repeat(70))),
    );
    assert_format(
        &err(
            DOM,
            &with(domestic(), "ultimateDebtor", json!("u".repeat(71))),
        ),
        "ultimateDebtor",
    );
}

#[test]
fn unstructured_remittance_is_1_to_140() {
    let path = "remittanceInformationUnstructured";
    let (payment, _) = ok(DOM, &with(domestic(), path, json!("r".repeat(140))));
    assert!(matches!(
        payment.orders[0].remittance,
        Some(Remittance::Unstructured { .. })
    ));
    assert_format(
        &err(DOM, &with(domestic(), path, json!("r".repeat(141)))),
        path,
    );
    let e = err(DOM, &with(domestic(), path, json!("")));
    assert_format(&e, path);
    assert!(e.text.contains("must not be empty"), "{}", e.text);
}

#[test]
fn structured_fields_are_1_to_35_each() {
    let base =
        json!({"reference": "RF18539007547034", "referenceType": "SCOR", "referenceIssuer": "ISO"});
    for field in ["reference", "referenceType", "referenceIssuer"] {
        let path = format!("remittanceInformationStructured.{field}");
        let mut structured = base.clone();
        structured[field] = json!("X".repeat(35));
        if field == "referenceType" {
            structured[field] = json!(format!("S{}", "C".repeat(34)));
        }
        ok(
            DOM,
            &with(
                domestic(),
                "remittanceInformationStructured",
                structured.clone(),
            ),
        );
        structured[field] = json!("X".repeat(36));
        let e = err(
            DOM,
            &with(
                domestic(),
                "remittanceInformationStructured",
                structured.clone(),
            ),
        );
        assert_format(&e, &path);
        structured[field] = json!("");
        let e = err(
            DOM,
            &with(domestic(), "remittanceInformationStructured", structured),
        );
        assert_format(&e, &path);
    }
}

// ---- amounts and currencies -----------------------------------------------------------------

#[test]
fn amount_as_a_number_is_refused_with_a_hint() {
    let e = err(
        DOM,
        &with(domestic(), "instructedAmount.amount", json!(100.5)),
    );
    assert_format(&e, "instructedAmount.amount");
    assert!(e.text.contains("JSON string"), "{}", e.text);
}

#[test]
fn zero_and_negative_amounts_are_refused() {
    for amount in ["0", "0.00", "-5.00"] {
        assert_format(
            &err(
                DOM,
                &with(domestic(), "instructedAmount.amount", json!(amount)),
            ),
            "instructedAmount.amount",
        );
    }
}

#[test]
fn fraction_digits_follow_the_currency_minor_units() {
    assert_format(
        &err(
            DOM,
            &with(domestic(), "instructedAmount.amount", json!("1.005")),
        ),
        "instructedAmount.amount",
    );
    ok(CROSS, &cross("JPY", "100"));
    let e = err(CROSS, &cross("JPY", "100.5"));
    assert_format(&e, "instructedAmount.amount");
    assert!(e.text.contains("JPY has 0 minor units"), "{}", e.text);
    ok(CROSS, &cross("BHD", "1.123"));
    assert_format(
        &err(CROSS, &cross("BHD", "1.1234")),
        "instructedAmount.amount",
    );
    // Precision 18, scale 5: at most 13 integer digits.
    ok(CROSS, &cross("EUR", "9999999999999.99"));
    let e = err(CROSS, &cross("EUR", "99999999999999.99"));
    assert_format(&e, "instructedAmount.amount");
    assert!(e.text.contains("at most 13"), "{}", e.text);
}

#[test]
fn currencies_must_be_on_the_list() {
    assert_format(
        &err(CROSS, &cross("BYN", "1.00")),
        "instructedAmount.currency",
    );
    let e = err(
        DOM,
        &with(domestic(), "instructedAmount.currency", json!("nok")),
    );
    assert!(e.text.contains("did you mean 'NOK'"), "{}", e.text);
    for path in ["creditorAccount.currency", "debtorAccount.currency"] {
        assert_format(&err(DOM, &with(domestic(), path, json!("XYZ"))), path);
    }
}

#[test]
fn domestic_products_are_nok_only_and_sepa_eur_only() {
    let e = err(
        DOM,
        &with(domestic(), "instructedAmount.currency", json!("EUR")),
    );
    assert_format(&e, "instructedAmount.currency");
    assert!(e.text.contains("NOK only"), "{}", e.text);
    let e = err(
        INSTANT,
        &with(domestic(), "instructedAmount.currency", json!("SEK")),
    );
    assert_format(&e, "instructedAmount.currency");
    let e = err(
        SEPA,
        &with(sepa(), "instructedAmount.currency", json!("NOK")),
    );
    assert_format(&e, "instructedAmount.currency");
    assert!(e.text.contains("EUR only"), "{}", e.text);
}

#[test]
fn creditor_account_form_follows_the_product() {
    let e = err(
        DOM,
        &with(domestic(), "creditorAccount.iban", json!("NO9386011117947")),
    );
    assert_format(&e, "creditorAccount.iban");
    let e = err(
        SEPA,
        &with(
            sepa(),
            "creditorAccount.iban",
            json!("DE89370400440532013001"),
        ),
    );
    assert_format(&e, "creditorAccount.iban");
    let e = err(
        SEPA,
        &with(sepa(), "creditorAccount", json!({"bban": "123"})),
    );
    assert_format(&e, "creditorAccount.bban");
    let e = err(
        CROSS,
        &with(sepa(), "creditorAccount", json!({"currency": "EUR"})),
    );
    assert_format(&e, "creditorAccount");
}

// ---- addresses ---------------------------------------------------------------------------------

#[test]
fn country_must_be_on_the_list() {
    let e = err(
        DOM,
        &with(domestic(), "creditorAddress.country", json!("XK")),
    );
    assert_format(&e, "creditorAddress.country");
    ok(
        DOM,
        &with(domestic(), "creditorAddress.country", json!("SJ")),
    );
}

#[test]
fn city_is_deprecated_copied_to_town_name_with_a_warning() {
    let body = with(
        domestic(),
        "creditorAddress",
        json!({"city": "Bergen", "country": "NO"}),
    );
    let (payment, warnings) = ok(DOM, &body);
    assert_eq!(
        payment.orders[0].creditor_address.town_name.as_deref(),
        Some("Bergen")
    );
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].category, Category::Warning);
    assert_eq!(warnings[0].code, Code::FormatError);
    assert_eq!(warnings[0].path.as_deref(), Some("creditorAddress.city"));
    // Same value in both: still a warning, not a refusal.
    let (_, warnings) = ok(
        DOM,
        &with(body, "creditorAddress.townName", json!("Bergen")),
    );
    assert_eq!(warnings.len(), 1);
}

#[test]
fn city_and_town_name_that_differ_are_refused() {
    let body = with(domestic(), "creditorAddress.city", json!("Bergen"));
    assert_format(&err(DOM, &body), "creditorAddress.city");
}

#[test]
fn sepa_before_enforcement_warns_about_missing_parts() {
    let body = without(without(sepa(), "creditorAddress.townName"), "creditorAgent");
    let (_, warnings) = ok_at(SINGLE, SEPA, &body, ENFORCED - time::Duration::SECOND);
    let paths: Vec<_> = warnings
        .iter()
        .map(|w| w.path.as_deref().unwrap())
        .collect();
    assert_eq!(paths, ["creditorAddress.townName", "creditorAgent"]);
    assert!(warnings.iter().all(|w| w.category == Category::Warning));
    assert!(warnings[0]
        .text
        .as_ref()
        .unwrap()
        .contains("from 13 August 2026 this will be refused"));
}

#[test]
fn sepa_from_enforcement_refuses_missing_parts() {
    let body = without(without(sepa(), "creditorAddress.townName"), "creditorAgent");
    let e = err_at(SINGLE, SEPA, &body, ENFORCED);
    assert_format(&e, "creditorAddress.townName");
    assert!(e.text.contains("creditor agent's BIC"), "{}", e.text);
    assert!(e.text.contains("13 August 2026"), "{}", e.text);
    let body = without(sepa(), "creditorAgent");
    assert_format(&err_at(SINGLE, CROSS, &body, ENFORCED), "creditorAgent");
    let (_, warnings) = ok_at(SINGLE, SEPA, &sepa(), ENFORCED);
    assert!(warnings.is_empty());
}

#[test]
fn domestic_payments_are_not_covered_by_the_address_rule() {
    let body = without(domestic(), "creditorAddress.townName");
    let (_, warnings) = ok_at(SINGLE, DOM, &body, ENFORCED);
    assert!(warnings.is_empty());
}

#[test]
fn creditor_agent_must_be_a_bic_on_every_product() {
    ok(DOM, &with(domestic(), "creditorAgent", json!("DNBANOKK")));
    for bad in ["DNBANOK", "dnbanokk", "DNBANOKKXX", "1NBANOKK"] {
        assert_format(
            &err(DOM, &with(domestic(), "creditorAgent", json!(bad))),
            "creditorAgent",
        );
    }
    assert_format(
        &err(SEPA, &with(sepa(), "creditorAgent", json!({"bicfi": "X"}))),
        "creditorAgent",
    );
}

// ---- debtor account ----------------------------------------------------------------------------

#[test]
fn debtor_account_needs_exactly_one_of_bban_and_other() {
    let other = json!({"identification": "card-123", "schemeNameProprietary": "creditCardAccount"});
    let both = with(domestic(), "debtorAccount.other", other);
    let e = err(DOM, &both);
    assert_format(&e, "debtorAccount");
    assert!(e.text.contains("not both"), "{}", e.text);
    let neither = with(domestic(), "debtorAccount", json!({"currency": "NOK"}));
    assert_format(&err(DOM, &neither), "debtorAccount");
    let iban = with(
        domestic(),
        "debtorAccount",
        json!({"iban": "NO9386011117947", "currency": "NOK"}),
    );
    let e = err(DOM, &iban);
    assert!(e.text.contains("86011117947"), "{}", e.text);
}

#[test]
fn card_debtor_account_uses_other() {
    let body = with(
        domestic(),
        "debtorAccount",
        json!({"other": {"identification": "card-123", "schemeNameProprietary": "creditCardAccount"}, "currency": "NOK"}),
    );
    let (payment, _) = ok(DOM, &body);
    assert_eq!(
        payment.orders[0].debtor_account,
        DebtorAccount::Card {
            identification: "card-123".into(),
            currency: Currency::NOK
        }
    );
    let wrong = with(
        body.clone(),
        "debtorAccount.other.schemeNameProprietary",
        json!("debitCard"),
    );
    let e = err(DOM, &wrong);
    assert_format(&e, "debtorAccount.other.schemeNameProprietary");
    assert!(e.text.contains("creditCardAccount"), "{}", e.text);
    assert_format(
        &err(DOM, &without(body, "debtorAccount.other.identification")),
        "debtorAccount.other.identification",
    );
}

// ---- codes --------------------------------------------------------------------------------------

#[test]
fn purpose_code_must_be_on_the_list() {
    ok(DOM, &with(domestic(), "purposeCode", json!("SALA")));
    assert_format(
        &err(DOM, &with(domestic(), "purposeCode", json!("GDDS"))),
        "purposeCode",
    );
}

#[test]
fn service_level_is_for_cross_border_only() {
    let (payment, _) = ok(CROSS, &with(sepa(), "serviceLevel", json!("URGP")));
    assert_eq!(payment.orders[0].service_level.as_deref(), Some("URGP"));
    assert_format(
        &err(CROSS, &with(sepa(), "serviceLevel", json!("FAST"))),
        "serviceLevel",
    );
    assert_format(
        &err(DOM, &with(domestic(), "serviceLevel", json!("SEPA"))),
        "serviceLevel",
    );
}

// ---- remittance and KID ---------------------------------------------------------------------

#[test]
fn structured_and_unstructured_together_are_refused() {
    let body = with(
        with(
            domestic(),
            "remittanceInformationUnstructured",
            json!("Faktura 1"),
        ),
        "remittanceInformationStructured",
        json!({"reference": "1234567897"}),
    );
    let e = err(DOM, &body);
    assert_format(&e, "remittanceInformationStructured");
    assert!(e.text.contains("mutually exclusive"), "{}", e.text);
}

#[test]
fn structured_array_is_supported_and_exclusive() {
    let array =
        json!([{"reference": "1234567897"}, {"reference": "1234567892", "referenceType": "KID"}]);
    let body = with(domestic(), "remittanceInformationStructuredArray", array);
    let (payment, _) = ok(DOM, &body);
    match &payment.orders[0].remittance {
        Some(Remittance::Structured {
            references,
            as_array,
        }) => {
            assert!(*as_array);
            assert_eq!(references.len(), 2);
            assert_eq!(references[1].reference_type.as_deref(), Some("KID"));
        }
        other => panic!("{other:?}"),
    }
    let mixed = with(
        body.clone(),
        "remittanceInformationUnstructured",
        json!("x"),
    );
    assert_format(&err(DOM, &mixed), "remittanceInformationStructuredArray");
    let empty = with(
        body.clone(),
        "remittanceInformationStructuredArray",
        json!([]),
    );
    assert_format(&err(DOM, &empty), "remittanceInformationStructuredArray");
    let bad = with(
        body,
        "remittanceInformationStructuredArray",
        json!([{"reference": "1234567897"}, {"reference": "1234567890"}]),
    );
    assert_refused(
        &err(DOM, &bad),
        Code::KidInvalid,
        "remittanceInformationStructuredArray[1].reference",
    );
}

#[test]
fn kid_missing_is_kid_missing() {
    let path = "remittanceInformationStructured.reference";
    for structured in [
        json!({"reference": ""}),
        json!({"reference": "  ", "referenceType": "OCR"}),
        json!({"referenceType": "KID"}),
    ] {
        let e = err(
            DOM,
            &with(domestic(), "remittanceInformationStructured", structured),
        );
        assert_refused(&e, Code::KidMissing, path);
    }
}

#[test]
fn kid_with_a_wrong_check_digit_is_kid_invalid() {
    let body = with(
        domestic(),
        "remittanceInformationStructured",
        json!({"reference": "1234567890"}),
    );
    let e = err(INSTANT, &body);
    assert_refused(
        &e,
        Code::KidInvalid,
        "remittanceInformationStructured.reference",
    );
    assert!(
        e.text.contains("expected '7' (mod 10) or '2' (mod 11)"),
        "{}",
        e.text
    );
}

#[test]
fn kids_valid_under_mod10_and_mod11_are_accepted() {
    for kid in ["1234567897", "1234567892", "23-"] {
        let body = with(
            domestic(),
            "remittanceInformationStructured",
            json!({"reference": kid}),
        );
        let (payment, _) = ok(DOM, &body);
        match &payment.orders[0].remittance {
            Some(Remittance::Structured {
                references,
                as_array: false,
            }) => {
                assert_eq!(references[0].reference, kid)
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn other_reference_types_are_not_kid_checked() {
    let scor = json!({"reference": "RF18539007547034", "referenceType": "SCOR"});
    ok(
        DOM,
        &with(domestic(), "remittanceInformationStructured", scor),
    );
    // Without a type, only domestic references are KIDs.
    let bare = json!({"reference": "RF18539007547034"});
    ok(
        SEPA,
        &with(sepa(), "remittanceInformationStructured", bare.clone()),
    );
    assert_refused(
        &err(
            DOM,
            &with(domestic(), "remittanceInformationStructured", bare),
        ),
        Code::KidInvalid,
        "remittanceInformationStructured.reference",
    );
    // An explicit KID/OCR type is checked on every product.
    let ocr = json!({"reference": "12", "referenceType": "ocr"});
    assert_refused(
        &err(SEPA, &with(sepa(), "remittanceInformationStructured", ocr)),
        Code::KidInvalid,
        "remittanceInformationStructured.reference",
    );
}

// ---- downstream characters -------------------------------------------------------------------

#[test]
fn emoji_in_creditor_name_is_refused_naming_the_character() {
    let e = err(
        DOM,
        &with(domestic(), "creditorName", json!("Kari 😀 Nordmann")),
    );
    assert_format(&e, "creditorName");
    assert!(e.text.contains("U+1F600"), "{}", e.text);
    assert!(
        e.text.contains("downstream systems cannot process"),
        "{}",
        e.text
    );
}

#[test]
fn norwegian_and_latin1_letters_and_euro_are_accepted() {
    let body = with(
        with(
            domestic(),
            "creditorName",
            json!("Æøå ÆØÅ Müller-Lüdenscheidt Société"),
        ),
        "remittanceInformationUnstructured",
        json!("Betaling for strøm, 12 € ¼ ß"),
    );
    ok(DOM, &body);
}

#[test]
fn other_scripts_and_control_characters_are_refused_everywhere() {
    for (path, text, code) in [
        ("creditorAddress.street", "東京通り", "U+6771"),
        ("creditorAddress.townName", "Oslo\u{7}", "U+0007"),
        (
            "remittanceInformationUnstructured",
            "line 1\nline 2",
            "U+000A",
        ),
        ("ultimateDebtor", "Ola 🙂", "U+1F642"),
        (
            "remittanceInformationStructured.reference",
            "12345😀",
            "U+1F600",
        ),
    ] {
        let e = err(DOM, &with(domestic(), path, json!(text)));
        assert_format(&e, path);
        assert!(e.text.contains(code), "{path}: {}", e.text);
    }
}

// ---- execution dates ---------------------------------------------------------------------------

#[test]
fn execution_date_in_the_past_is_refused() {
    let e = err(
        DOM,
        &with(domestic(), "requestedExecutionDate", json!("2026-03-01")),
    );
    assert_refused(&e, Code::ExecutionDateInvalid, "requestedExecutionDate");
    let (payment, _) = ok(
        DOM,
        &with(domestic(), "requestedExecutionDate", json!("2026-03-02")),
    );
    assert_eq!(
        payment.orders[0].requested_execution_date,
        Some(date!(2026 - 03 - 02))
    );
}

#[test]
fn execution_date_more_than_a_year_ahead_is_refused() {
    ok(
        DOM,
        &with(domestic(), "requestedExecutionDate", json!("2027-03-02")),
    );
    let e = err(
        DOM,
        &with(domestic(), "requestedExecutionDate", json!("2027-03-03")),
    );
    assert_refused(&e, Code::ExecutionDateInvalid, "requestedExecutionDate");
    assert_eq!(dates::latest(date!(2028 - 02 - 29)), date!(2029 - 02 - 28));
}

#[test]
fn malformed_execution_date_is_a_format_error() {
    let e = err(
        DOM,
        &with(domestic(), "requestedExecutionDate", json!("02.03.2026")),
    );
    assert_format(&e, "requestedExecutionDate");
}

#[test]
fn instant_payments_execute_today_only() {
    ok(
        INSTANT,
        &with(domestic(), "requestedExecutionDate", json!("2026-03-02")),
    );
    let e = err(
        INSTANT,
        &with(domestic(), "requestedExecutionDate", json!("2026-03-03")),
    );
    assert_refused(&e, Code::ExecutionDateInvalid, "requestedExecutionDate");
}

// ---- periodic ------------------------------------------------------------------------------------

fn periodic() -> Value {
    let mut body = domestic();
    set(&mut body, "startDate", json!("2026-04-01"));
    set(&mut body, "endDate", json!("2027-04-01"));
    set(&mut body, "frequency", json!("Monthly"));
    set(&mut body, "dayOfExecution", json!("31"));
    set(&mut body, "executionRule", json!("following"));
    body
}

const PERIODIC: PaymentService = PaymentService::PeriodicPayments;

#[test]
fn periodic_payment_gets_a_schedule() {
    let (payment, _) = ok_at(PERIODIC, DOM, &periodic(), NOW);
    let schedule = payment.schedule.unwrap();
    assert_eq!(schedule.start_date, date!(2026 - 04 - 01));
    assert_eq!(schedule.end_date, Some(date!(2027 - 04 - 01)));
    assert_eq!(schedule.frequency, Frequency::Monthly);
    assert_eq!(schedule.day_of_execution, Some(31));
    let (payment, _) = ok_at(
        PERIODIC,
        DOM,
        &with(periodic(), "dayOfExecution", json!(15)),
        NOW,
    );
    assert_eq!(payment.schedule.unwrap().day_of_execution, Some(15));
    let body = without(without(periodic(), "endDate"), "dayOfExecution");
    assert!(ok_at(PERIODIC, DOM, &body, NOW)
        .0
        .schedule
        .unwrap()
        .end_date
        .is_none());
}

#[test]
fn periodic_start_date_is_required_and_not_in_the_past() {
    assert_format(
        &err_at(PERIODIC, DOM, &without(periodic(), "startDate"), NOW),
        "startDate",
    );
    let e = err_at(
        PERIODIC,
        DOM,
        &with(periodic(), "startDate", json!("2026-03-01")),
        NOW,
    );
    assert_refused(&e, Code::ExecutionDateInvalid, "startDate");
}

#[test]
fn periodic_end_date_is_not_before_start_date() {
    let e = err_at(
        PERIODIC,
        DOM,
        &with(periodic(), "endDate", json!("2026-03-31")),
        NOW,
    );
    assert_refused(&e, Code::ExecutionDateInvalid, "endDate");
}

#[test]
fn periodic_frequency_is_required_and_a_bg_code() {
    assert_format(
        &err_at(PERIODIC, DOM, &without(periodic(), "frequency"), NOW),
        "frequency",
    );
    for bad in ["monthly", "MonthlyVariable", "Fortnightly"] {
        let e = err_at(
            PERIODIC,
            DOM,
            &with(periodic(), "frequency", json!(bad)),
            NOW,
        );
        assert_format(&e, "frequency");
    }
}

#[test]
fn periodic_day_of_execution_is_1_to_31() {
    for bad in [
        json!("0"),
        json!("32"),
        json!("01"),
        json!(0),
        json!(-1),
        json!(true),
    ] {
        let e = err_at(PERIODIC, DOM, &with(periodic(), "dayOfExecution", bad), NOW);
        assert_format(&e, "dayOfExecution");
    }
    let e = err_at(
        PERIODIC,
        DOM,
        &with(periodic(), "executionRule", json!("nearest")),
        NOW,
    );
    assert_format(&e, "executionRule");
}

#[test]
fn instant_product_cannot_be_periodic_or_bulk() {
    for service in [PERIODIC, PaymentService::BulkPayments] {
        let e = err_at(service, INSTANT, &periodic(), NOW);
        assert_eq!(e.status(), 400);
        assert_eq!(e.code, Code::ProductInvalid);
    }
}

// ---- bulk ------------------------------------------------------------------------------------------

const BULK: PaymentService = PaymentService::BulkPayments;

fn entry(amount: &str) -> Value {
    json!({
        "instructedAmount": {"amount": amount, "currency": "NOK"},
        "creditorName": "Kari Nordmann",
        "creditorAccount": {"bban": "86011117947", "currency": "NOK"},
        "creditorAddress": {"townName": "Oslo", "country": "NO"},
        "remittanceInformationStructured": {"reference": "1234567897"}
    })
}

fn bulk_body(entries: Vec<Value>) -> Value {
    json!({
        "batchBookingPreferred": true,
        "debtorAccount": {"bban": "12345678903", "currency": "NOK"},
        "requestedExecutionDate": "2026-03-05",
        "payments": entries
    })
}

#[test]
fn bulk_orders_share_the_debtor_account_and_date() {
    let (payment, warnings) = ok_at(
        BULK,
        DOM,
        &bulk_body(vec![entry("1.00"), entry("2.00")]),
        NOW,
    );
    assert!(warnings.is_empty());
    assert_eq!(payment.batch_booking_preferred, Some(true));
    assert_eq!(payment.orders.len(), 2);
    for order in &payment.orders {
        assert_eq!(order.requested_execution_date, Some(date!(2026 - 03 - 05)));
        assert!(matches!(order.debtor_account, DebtorAccount::Bban { .. }));
    }
}

#[test]
fn bulk_errors_carry_the_entry_index() {
    let body = bulk_body(vec![entry("1.00"), entry("2.00"), entry("2.001")]);
    assert_format(
        &err_at(BULK, DOM, &body, NOW),
        "payments[2].instructedAmount.amount",
    );
    let mut bad = entry("1.00");
    set(
        &mut bad,
        "remittanceInformationStructured.reference",
        json!("1234567890"),
    );
    let body = bulk_body(vec![entry("1.00"), bad]);
    assert_refused(
        &err_at(BULK, DOM, &body, NOW),
        Code::KidInvalid,
        "payments[1].remittanceInformationStructured.reference",
    );
    let body = bulk_body(vec![json!("x")]);
    assert_format(&err_at(BULK, DOM, &body, NOW), "payments[0]");
}

#[test]
fn bulk_needs_1_to_1000_entries_and_a_debtor_account() {
    assert_format(&err_at(BULK, DOM, &bulk_body(vec![]), NOW), "payments");
    ok_at(BULK, DOM, &bulk_body(vec![entry("1.00"); 1000]), NOW);
    assert_format(
        &err_at(BULK, DOM, &bulk_body(vec![entry("1.00"); 1001]), NOW),
        "payments",
    );
    let body = without(bulk_body(vec![entry("1.00")]), "debtorAccount");
    assert_format(&err_at(BULK, DOM, &body, NOW), "debtorAccount");
    let body = with(
        bulk_body(vec![entry("1.00")]),
        "batchBookingPreferred",
        json!("yes"),
    );
    assert_format(&err_at(BULK, DOM, &body, NOW), "batchBookingPreferred");
}

#[test]
fn bulk_entry_debtor_account_is_ignored_with_a_warning() {
    let mut e = entry("1.00");
    set(
        &mut e,
        "debtorAccount",
        json!({"bban": "86011117947", "currency": "NOK"}),
    );
    let (payment, warnings) = ok_at(BULK, DOM, &bulk_body(vec![e]), NOW);
    assert_eq!(
        warnings[0].path.as_deref(),
        Some("payments[0].debtorAccount")
    );
    assert!(
        matches!(&payment.orders[0].debtor_account, DebtorAccount::Bban { bban, .. } if bban == "12345678903")
    );
}

#[test]
fn bulk_sepa_enforcement_names_the_entry() {
    let mut e = sepa();
    remove(&mut e, "debtorAccount");
    remove(&mut e, "creditorAgent");
    let body = bulk_body(vec![sepa(), e]);
    let body = without(body, "requestedExecutionDate");
    assert_format(
        &err_at(BULK, SEPA, &body, ENFORCED),
        "payments[1].creditorAgent",
    );
}

#[test]
fn warnings_gathered_before_a_refusal_travel_with_it() {
    let body = with(
        with(domestic(), "creditorAddress.city", json!("Oslo")),
        "purposeCode",
        json!("NOPE"),
    );
    let e = err(DOM, &body);
    assert_format(&e, "purposeCode");
    assert_eq!(e.more.len(), 1);
    assert_eq!(e.more[0].path.as_deref(), Some("creditorAddress.city"));
}

// ---- fees ------------------------------------------------------------------------------------------

#[test]
fn tariff_per_product() {
    let order_of = |product, body: &Value| ok(product, body).0.orders.remove(0);
    assert_eq!(fee(DOM, &order_of(DOM, &domestic())), None);
    let small = with(domestic(), "instructedAmount.amount", json!("9999.99"));
    assert_eq!(fee(INSTANT, &order_of(INSTANT, &small)), None);
    let large = with(domestic(), "instructedAmount.amount", json!("10000"));
    let charged = fee(INSTANT, &order_of(INSTANT, &large)).unwrap();
    assert_eq!(fees::api_amount(&charged), "5.00");
    assert_eq!(charged.currency, Currency::NOK);
    assert_eq!(fee(SEPA, &order_of(SEPA, &sepa())), None);
    let cross = fee(CROSS, &order_of(CROSS, &cross("USD", "1.00"))).unwrap();
    assert_eq!(fees::api_amount(&cross), "25.00");
}

#[test]
fn fee_information_answers_indicator_and_fees() {
    let request = json!({
        "instructedAmount": {"amount": "12000.00", "currency": "NOK"},
        "debtorAccount": {"bban": "12345678903", "currency": "NOK"},
        "creditorAccount": {"bban": "86011117947", "currency": "NOK"}
    });
    assert_eq!(
        serde_json::to_value(fee_information(&request, NOW).unwrap()).unwrap(),
        json!({"transactionFeeIndicator": true, "transactionFees": {"amount": "5.00", "currency": "NOK"}})
    );
    let free = with(request.clone(), "instructedAmount.amount", json!("50"));
    assert_eq!(
        serde_json::to_value(fee_information(&free, NOW).unwrap()).unwrap(),
        json!({"transactionFeeIndicator": false, "transactionFees": {"amount": "0.00", "currency": "NOK"}})
    );
    let bad = with(
        request.clone(),
        "creditorAccount.bban",
        json!("86011117948"),
    );
    assert_format(
        &fee_information(&bad, NOW).unwrap_err(),
        "creditorAccount.bban",
    );
    let eur = with(request.clone(), "instructedAmount.currency", json!("EUR"));
    assert_format(
        &fee_information(&eur, NOW).unwrap_err(),
        "instructedAmount.currency",
    );
    assert_format(
        &fee_information(&without(request, "debtorAccount"), NOW).unwrap_err(),
        "debtorAccount",
    );
}
