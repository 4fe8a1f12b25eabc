//! The caller rules of payment and basket calls and the creation use case: each refusal with its status
//! and code, in the order the bank answers them.

use super::caller::{pisp, Caller, REQUIRED};
use super::creation::{create_payment, PaymentRequest};
use super::*;
use crate::bank::events::{EventKind, Events};
use crate::bank::mock::model::{Account, Customer, CustomerType};
use crate::bank::mock::seed;
use crate::bank::sca::presets::ScaPresets;
use crate::bank::sca::psu;
use crate::bank::sca::session::TppSession;
use crate::bank::sca::Context;
use crate::bank::state::{BankState, Services, Settings};
use crate::domain::clock::Clock;
use crate::domain::refusal::Code;
use crate::signing::trust::TrustStore;
use crate::signing::verifier::{VerifiedTpp, Verifier};
use std::sync::Arc;
use time::macros::{date, datetime};

const NOW: OffsetDateTime = datetime!(2026-03-16 10:00 UTC);

fn tpp(name: &str) -> VerifiedTpp {
    crate::bank::sca::presets::test_tpp(name)
}

/// A PISP's request with every required header and no PSU named.
fn caller() -> Caller {
    Caller {
        tpp: tpp("pisp"),
        psu_id: None,
        psu_corporate_id: None,
        psu_context: None,
        psu_ip_address: Some("192.0.2.10".into()),
        accept_fix: Some("amount-as-string".into()),
        sca: ScaPresets {
            tpp_session_id: Some("session-1".into()),
            redirect_uri: Some("https://tpp.example/cb".into()),
            ..ScaPresets::default()
        },
    }
}

fn bank() -> BankState {
    let store = Store::temporary().unwrap();
    seed::initialize(&store, date!(2026 - 03 - 16)).unwrap();
    let rehearsal = crate::bank::rehearsal::Rehearsal::load(&store).unwrap();
    BankState::new(Services {
        rehearsal: Arc::new(rehearsal),
        store,
        clock: Arc::new(Clock::frozen(NOW)),
        verifier: Arc::new(Verifier::new(TrustStore::new())),
        settings: Arc::new(Settings::default()),
        bank: None,
        events: Events::default(),
        listening: Default::default(),
    })
}

/// A private customer who may pay from a NOK account, that account, and another customer's NOK account.
fn payer_and_accounts(store: &Store) -> (Customer, Account, Account) {
    let customers = store.table::<Customer>().unwrap().list().unwrap();
    let accounts = store.table::<Account>().unwrap().list().unwrap();
    let (person, debtor) = customers
        .iter()
        .filter(|c| c.customer_type == CustomerType::Private)
        .find_map(|c| {
            accounts
                .iter()
                .find(|a| a.customer_id == c.id && a.currency.code() == "NOK" && a.payments_allowed)
                .map(|a| (c.clone(), a.clone()))
        })
        .unwrap();
    let creditor = accounts
        .iter()
        .find(|a| a.customer_id != person.id && a.currency.code() == "NOK")
        .unwrap()
        .clone();
    (person, debtor, creditor)
}

fn body(debtor: &Account, creditor: &Account) -> serde_json::Value {
    serde_json::json!({
        "instructedAmount": {"amount": "100.00", "currency": "NOK"},
        "creditorName": "Ola Nordmann",
        "creditorAccount": {"bban": creditor.bban, "currency": "NOK"},
        "creditorAddress": {"street": "Storgata", "buildingNumber": "1", "postalCode": "0155",
                            "townName": "Oslo", "country": "NO"},
        "debtorAccount": {"bban": debtor.bban, "currency": "NOK"},
        "remittanceInformationUnstructured": "rent",
    })
}

fn refused_with(
    result: CoreResult<impl Sized>,
    status: u16,
    code: Code,
    path: Option<&str>,
) -> Refusal {
    let Err(refusal) = result else {
        panic!("expected {status} {code:?}, got an answer")
    };
    assert_eq!(
        (refusal.status(), refusal.code, refusal.path.as_deref()),
        (status, code, path),
        "{}",
        refusal.text
    );
    refusal
}

#[test]
fn a_certificate_without_psp_pi_may_not_initiate_payments() {
    let refusal = refused_with(pisp(&tpp("aisp")), 403, Code::Forbidden, None);
    assert!(refusal.text.contains("PSP_PI"), "{}", refusal.text);
    assert!(pisp(&tpp("pisp")).is_ok());
    assert!(pisp(&tpp("aisp-pisp")).is_ok());
}

#[test]
fn each_required_header_is_refused_by_name_in_order() {
    assert!(caller().require_headers().is_ok());
    for (index, name) in REQUIRED.iter().enumerate() {
        let mut missing = caller();
        match index {
            0 => missing.accept_fix = None,
            1 => missing.sca.tpp_session_id = None,
            2 => missing.sca.redirect_uri = None,
            _ => missing.psu_ip_address = None,
        }
        // A later header missing too does not change which is named.
        missing.psu_ip_address = None;
        let refusal = refused_with(
            missing.require_headers(),
            400,
            Code::HttpHeaderRequired,
            Some(name),
        );
        if *name == "x-accept-fix" {
            assert!(refusal.text.contains("Published: "), "{}", refusal.text);
        }
    }
}

#[test]
fn the_psu_is_named_by_psu_id_or_x_psu_identity() {
    let bank = bank();
    let store = &bank.store;
    let (person, _, _) = payer_and_accounts(store);
    let tpp_id = tpp("pisp").tpp_id();

    let refusal = refused_with(
        caller().payer(store, true, NOW),
        400,
        Code::HttpHeaderRequired,
        Some("PSU-ID"),
    );
    assert_eq!(refusal.messages().len(), 2, "the refusal and the hint");

    let mut unknown = caller();
    unknown.psu_id = Some("3f1b8a48-5d5e-4a7c-9a4f-2d9c6c1e0b11".into());
    refused_with(
        unknown.payer(store, true, NOW),
        401,
        Code::PsuCredentialsInvalid,
        Some("PSU-ID"),
    );

    let mut known = caller();
    known.psu_id = Some(psu::psu_id_for(store, &tpp_id, &person.id).unwrap());
    assert_eq!(
        known.payer(store, false, NOW).unwrap().customer_id,
        person.id
    );

    let mut bad_identity = caller();
    bad_identity.sca.psu_identity = Some("12345".into());
    refused_with(
        bad_identity.payer(store, true, NOW),
        400,
        Code::FormatError,
        Some("X-PSU-IDENTITY"),
    );

    let mut identity = caller();
    identity.sca.psu_identity = Some(person.customer_number.clone());
    assert_eq!(
        identity.payer(store, true, NOW).unwrap().customer_id,
        person.id
    );
    // X-PSU-IDENTITY names the PSU on payment creation only; a basket call needs PSU-ID.
    refused_with(
        identity.payer(store, false, NOW),
        400,
        Code::HttpHeaderRequired,
        Some("PSU-ID"),
    );

    let mut aisp = known.clone();
    aisp.tpp = tpp("aisp");
    refused_with(aisp.payer(store, false, NOW), 403, Code::Forbidden, None);
}

#[test]
fn a_psu_in_corporate_context_must_send_psu_corporate_id() {
    let bank = bank();
    let store = &bank.store;
    let (person, _, _) = payer_and_accounts(store);
    let tpp_id = tpp("pisp").tpp_id();
    let mut corporate = caller();
    corporate.psu_id = Some(psu::psu_id_for(store, &tpp_id, &person.id).unwrap());
    store
        .table::<TppSession>()
        .unwrap()
        .insert(&TppSession {
            tpp_id: tpp_id.clone(),
            customer_id: person.id.clone(),
            session_id: "session-1".into(),
            context: Context::Corporate,
            agreement_id: Some("agreement".into()),
            sca_at: NOW - time::Duration::minutes(5),
            active: true,
        })
        .unwrap();
    refused_with(
        corporate.payer(store, false, NOW),
        400,
        Code::HttpHeaderRequired,
        Some("PSU-Corporate-ID"),
    );
    // An hour later the session no longer says so.
    assert!(corporate
        .payer(store, false, NOW + time::Duration::hours(1))
        .is_ok());
    corporate.psu_corporate_id = Some("corporate".into());
    assert!(corporate.payer(store, false, NOW).is_ok());
}

#[test]
fn psu_context_without_a_psu_starts_the_single_sca_journey() {
    let bank = bank();
    let mut single = caller();
    single.psu_context = Some("PRIVATE".into());
    let creator = single.creator(&bank.store, NOW).unwrap();
    assert_eq!(
        (creator.tpp_id, creator.customer_id),
        (tpp("pisp").tpp_id(), None)
    );
    single.tpp = tpp("aisp");
    refused_with(single.creator(&bank.store, NOW), 403, Code::Forbidden, None);
}

#[test]
fn the_approval_needs_a_session_and_a_redirect() {
    let mut no_session = caller();
    no_session.sca.tpp_session_id = None;
    refused_with(
        no_session.approval(None),
        400,
        Code::HttpHeaderRequired,
        Some("TPP-Session-ID"),
    );
    let mut no_redirect = caller();
    no_redirect.sca.redirect_uri = None;
    refused_with(
        no_redirect.approval(None),
        400,
        Code::HttpHeaderRequired,
        Some("TPP-Redirect-URI"),
    );
    let mut brand = caller();
    brand.sca.tpp_brand = Some("Brand".into());
    brand.sca.redirect_preferred = Some("false".into());
    let approval = brand.approval(Some("customer")).unwrap();
    assert_eq!(approval.tpp_brand.as_deref(), Some("Brand"));
    assert!(approval.start.biometric_in_app);
    assert_eq!(
        approval.start.preset_customer_id.as_deref(),
        Some("customer")
    );
    assert_eq!(approval.start.tpp_session_id, "session-1");
}

fn request(body: &serde_json::Value) -> PaymentRequest<'_> {
    PaymentRequest {
        service: PaymentService::Payments,
        product: PaymentProduct::NorwegianDomesticCreditTransfers,
        body,
        allow_logical_duplicate: false,
        rejected_by_fault_plan: false,
    }
}

#[test]
fn creating_a_payment_stores_it_with_its_authorisation_and_announces_it() {
    let bank = bank();
    let (person, debtor, creditor) = payer_and_accounts(&bank.store);
    let mut named = caller();
    named.sca.psu_identity = Some(person.customer_number.clone());
    let mut events = bank.events.subscribe();
    let body = body(&debtor, &creditor);
    let created = create_payment(&bank, &named, request(&body)).unwrap();
    assert_eq!(created.payment.status, PaymentStatus::RCVD);
    assert_eq!(created.payment.customer_id, person.id);
    assert_eq!(
        created.authorisation.payment_ids,
        vec![created.payment.id.clone()]
    );
    assert_eq!(created.authorisation.tpp_session_id, "session-1");
    let event = events.try_recv().unwrap();
    assert_eq!(event.kind, EventKind::PaymentStatus);
    assert_eq!(event.data["paymentId"], created.payment.id.as_str());
    assert_eq!(event.data["transactionStatus"], "RCVD");

    // The same again is a logical duplicate, unless allowed.
    refused_with(
        create_payment(&bank, &named, request(&body)),
        409,
        Code::Conflict,
        Some("(body)"),
    );
    let mut allowed = request(&body);
    allowed.allow_logical_duplicate = true;
    assert!(create_payment(&bank, &named, allowed).is_ok());
}

#[test]
fn creation_refuses_in_the_order_the_bank_answers() {
    let bank = bank();
    let (person, debtor, creditor) = payer_and_accounts(&bank.store);
    let body = body(&debtor, &creditor);
    // No role, no headers, no PSU, a bad body: the role is named first.
    let mut everything_wrong = caller();
    everything_wrong.tpp = tpp("aisp");
    everything_wrong.accept_fix = None;
    let bad_body = serde_json::json!({});
    refused_with(
        create_payment(&bank, &everything_wrong, request(&bad_body)),
        403,
        Code::Forbidden,
        None,
    );
    everything_wrong.tpp = tpp("pisp");
    refused_with(
        create_payment(&bank, &everything_wrong, request(&bad_body)),
        400,
        Code::HttpHeaderRequired,
        Some("x-accept-fix"),
    );
    everything_wrong.accept_fix = Some("amount-as-string".into());
    refused_with(
        create_payment(&bank, &everything_wrong, request(&bad_body)),
        400,
        Code::HttpHeaderRequired,
        Some("PSU-ID"),
    );
    everything_wrong.sca.psu_identity = Some(person.customer_number.clone());
    let refusal = create_payment(&bank, &everything_wrong, request(&bad_body)).unwrap_err();
    assert_eq!(refusal.status(), 400, "the body: {}", refusal.text);
    assert!(create_payment(&bank, &everything_wrong, request(&body)).is_ok());
    assert_eq!(
        bank.store.table::<Payment>().unwrap().list().unwrap().len(),
        1,
        "nothing stored by a refusal"
    );
}

#[test]
fn only_a_payment_not_yet_authorised_is_authorised_again() {
    let bank = bank();
    let (person, debtor, creditor) = payer_and_accounts(&bank.store);
    let mut named = caller();
    named.sca.psu_identity = Some(person.customer_number.clone());
    let body = body(&debtor, &creditor);
    let created = create_payment(&bank, &named, request(&body)).unwrap();
    let found = (
        PaymentService::Payments,
        PaymentProduct::NorwegianDomesticCreditTransfers,
    );
    let (_, again) = authorise_again(&bank.store, &named, found, &created.payment.id, NOW).unwrap();
    assert_ne!(again.id, created.authorisation.id);
    let table = bank.store.table::<Payment>().unwrap();
    let mut accepted = created.payment.clone();
    accepted.status = PaymentStatus::ACTC;
    table.insert(&accepted).unwrap();
    let refusal = refused_with(
        authorise_again(&bank.store, &named, found, &created.payment.id, NOW),
        409,
        Code::Conflict,
        Some("paymentId"),
    );
    assert!(
        refusal.text.starts_with("The payment is ACTC already"),
        "{}",
        refusal.text
    );
}

#[test]
fn an_unknown_product_is_refused_with_the_products_offered() {
    let refusal = refused_with(
        PaymentProduct::offered("domestic"),
        404,
        Code::ProductUnknown,
        Some("payment-product"),
    );
    assert!(
        refusal.text.contains("sepa-credit-transfers"),
        "{}",
        refusal.text
    );
    assert_eq!(
        PaymentProduct::offered("sepa-credit-transfers").unwrap(),
        PaymentProduct::SepaCreditTransfers
    );
}
