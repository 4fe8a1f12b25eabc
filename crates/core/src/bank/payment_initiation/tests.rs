//! A payment's initiation as one operation: the payment and its authorisation stored together or not at
//! all, every start counted under concurrency, and the fault plan's rejection in the creating write.

use super::*;
use crate::bank::mock::model::Account;
use crate::bank::mock::seed;
use crate::bank::pis::model::{ForcedOutcome, PaymentProduct, PaymentService};
use crate::bank::pis::validation;
use crate::bank::sca::authorisation::Purpose;
use crate::bank::sca::retention::{TppAuthorisation, TppAuthorisationCount};
use crate::domain::refusal::Code;
use time::macros::{date, datetime};

const NOW: OffsetDateTime = datetime!(2026-03-16 10:00 UTC);
const TPP: &str = "PSDNO-FSA-TRIAL";

fn seeded() -> (Store, Account, Account) {
    let store = Store::temporary().unwrap();
    seed::initialize(&store, date!(2026 - 03 - 16)).unwrap();
    let accounts = store.table::<Account>().unwrap().list().unwrap();
    let nok = |a: &&Account| a.currency.code() == "NOK" && a.payments_allowed;
    let debtor = accounts.iter().find(nok).unwrap().clone();
    let creditor = accounts
        .iter()
        .filter(nok)
        .find(|a| a.customer_id != debtor.customer_id)
        .unwrap()
        .clone();
    (store, debtor, creditor)
}

fn request(debtor: &Account, creditor: &Account, amount: u32, duplicates: bool) -> CreatePayment {
    let body = serde_json::json!({
        "instructedAmount": {"amount": format!("{amount}.00"), "currency": "NOK"},
        "creditorName": "Ola Nordmann",
        "creditorAccount": {"bban": creditor.bban, "currency": "NOK"},
        "creditorAddress": {"street": "Storgata", "buildingNumber": "1", "postalCode": "0155",
                            "townName": "Oslo", "country": "NO"},
        "debtorAccount": {"bban": debtor.bban, "currency": "NOK"},
        "remittanceInformationUnstructured": "rent",
    });
    let (payment, _) = validation::validate(
        PaymentService::Payments,
        PaymentProduct::NorwegianDomesticCreditTransfers,
        &body,
        NOW,
    )
    .unwrap();
    CreatePayment {
        tpp_id: TPP.into(),
        customer_id: None,
        payment,
        allow_logical_duplicate: duplicates,
        fee: None,
        rejected_by_fault_plan: false,
    }
}

fn approval() -> Approval {
    Approval {
        start: StartSca {
            tpp_id: TPP.into(),
            tpp_name: "Trial TPP".into(),
            tpp_session_id: "session".into(),
            redirect_uri: "https://tpp.example/cb".into(),
            purpose: Purpose::Payment,
            preset_identity: None,
            preset_customer_id: None,
            preset_agreement_id: None,
            preferred_method: None,
            biometric_in_app: false,
        },
        tpp_brand: None,
    }
}

fn stored(store: &Store) -> (usize, usize, usize) {
    let payments = store.table::<Payment>().unwrap().list().unwrap().len();
    let listed = store
        .table::<TppAuthorisation>()
        .unwrap()
        .list()
        .unwrap()
        .len();
    let counted = store
        .table::<TppAuthorisationCount>()
        .unwrap()
        .get(TPP)
        .unwrap()
        .map_or(0, |c| c.count);
    (payments, listed, counted)
}

#[test]
fn the_payment_and_the_authorisation_approving_it_are_stored_together() {
    let (store, debtor, creditor) = seeded();
    let (payment, auth) = initiate(
        &store,
        request(&debtor, &creditor, 100, false),
        approval(),
        NOW,
    )
    .unwrap();
    assert_eq!(auth.payment_ids, vec![payment.id.clone()]);
    let stored_auth = store
        .table::<Authorisation>()
        .unwrap()
        .get(&auth.id)
        .unwrap()
        .unwrap();
    assert_eq!(stored_auth.payment_ids, vec![payment.id.clone()]);
    assert!(store
        .table::<Payment>()
        .unwrap()
        .get(&payment.id)
        .unwrap()
        .is_some());
    assert_eq!(stored(&store), (1, 1, 1));
}

#[test]
fn a_refused_initiation_writes_neither() {
    let (store, debtor, creditor) = seeded();
    initiate(
        &store,
        request(&debtor, &creditor, 100, false),
        approval(),
        NOW,
    )
    .unwrap();
    let refused = initiate(
        &store,
        request(&debtor, &creditor, 100, false),
        approval(),
        NOW,
    )
    .unwrap_err();
    assert_eq!(refused.code, Code::Conflict, "a logical duplicate");
    assert_eq!(
        stored(&store),
        (1, 1, 1),
        "no payment and no authorisation written"
    );
}

#[test]
fn initiations_at_once_count_every_authorisation() {
    let (store, debtor, creditor) = seeded();
    std::thread::scope(|scope| {
        for thread in 0..8 {
            let (store, debtor, creditor) = (&store, &debtor, &creditor);
            scope.spawn(move || {
                for i in 0..5 {
                    let amount = 100 + thread * 10 + i;
                    initiate(
                        store,
                        request(debtor, creditor, amount, true),
                        approval(),
                        NOW,
                    )
                    .unwrap();
                }
            });
        }
    });
    assert_eq!(
        stored(&store),
        (40, 40, 40),
        "each start counted from the one before it"
    );
}

#[test]
fn a_payment_the_fault_plan_rejects_is_stored_rejected_in_its_creating_write() {
    let (store, debtor, creditor) = seeded();
    let mut rejected = request(&debtor, &creditor, 100, false);
    rejected.rejected_by_fault_plan = true;
    let (payment, _) = initiate(&store, rejected, approval(), NOW).unwrap();
    assert_eq!(payment.forced, Some(ForcedOutcome::Rejected));
    let read = store
        .table::<Payment>()
        .unwrap()
        .get(&payment.id)
        .unwrap()
        .unwrap();
    assert_eq!(read.forced, Some(ForcedOutcome::Rejected));
    let (plain, _) = initiate(
        &store,
        request(&debtor, &creditor, 200, false),
        approval(),
        NOW,
    )
    .unwrap();
    assert_eq!(plain.forced, None);
}
