//! Tests of deleting a customer: what goes with it, what stays, and how it is named.

use super::*;
use crate::bank::mock::{customers, seed};
use crate::bank::sca::{psu, session, Context};
use crate::domain::refusal::Code;
use time::macros::{date, datetime};

const NOW: OffsetDateTime = datetime!(2026-03-15 12:00 UTC);

fn seeded() -> (Store, Vec<customers::CustomerView>) {
    let store = Store::temporary().unwrap();
    seed::initialize(&store, date!(2026 - 03 - 15)).unwrap();
    let listed = customers::list(&store).unwrap();
    (store, listed)
}

fn named<'a>(listed: &'a [customers::CustomerView], name: &str) -> &'a customers::CustomerView {
    listed.iter().find(|c| c.customer.name == name).unwrap()
}

fn consent(customer_id: &str, agreement_id: Option<&str>, accounts: Vec<String>) -> Consent {
    Consent {
        tpp_id: "TPP".into(),
        tpp_name: "TPP".into(),
        customer_id: customer_id.into(),
        agreement_id: agreement_id.map(str::to_owned),
        accounts,
        card_accounts: Vec::new(),
        granted_at: NOW,
        sca_at: NOW,
    }
}

#[test]
fn a_person_goes_with_accounts_transactions_consents_sessions_and_engagements() {
    let (store, listed) = seeded();
    let ola = named(&listed, "Ola Nordmann");
    let kari = named(&listed, "Kari Nordmann");
    let consents = store.table::<Consent>().unwrap();
    consents
        .insert(&consent(
            &ola.customer.id,
            None,
            vec![ola.accounts[0].id.clone()],
        ))
        .unwrap();
    consents
        .insert(&consent(
            &kari.customer.id,
            None,
            vec![kari.accounts[0].id.clone()],
        ))
        .unwrap();
    session::record_sca(
        &store,
        "TPP",
        &ola.customer.id,
        "s1",
        Context::Private,
        None,
        NOW,
    )
    .unwrap();
    let psu_id = psu::psu_id_for(&store, "TPP", &ola.customer.id).unwrap();

    let removal = delete(&store, &ola.customer.id, NOW).unwrap();

    assert_eq!((removal.accounts, removal.card_accounts), (2, 1));
    assert!(removal.transactions > 0);
    assert_eq!(
        (
            removal.agreements_removed,
            removal.agreements_changed,
            removal.consents
        ),
        (0, 1, 1)
    );
    let left = customers::list(&store).unwrap();
    assert!(left.iter().all(|c| c.customer.id != ola.customer.id));
    for account in &ola.accounts {
        assert!(
            crate::bank::mock::holdings::by_id::<crate::bank::mock::model::Account>(
                &store,
                "id",
                &account.id
            )
            .is_err()
        );
        assert!(
            crate::bank::mock::transactions::of_account(&store, &account.id)
                .unwrap()
                .is_empty()
        );
    }
    let agreements = store.table::<Agreement>().unwrap().list().unwrap();
    assert!(agreements
        .iter()
        .flat_map(|a| &a.engagements)
        .all(|e| e.customer_id != ola.customer.id));
    let remaining = consents.list().unwrap();
    assert_eq!(remaining.len(), 1);
    assert_eq!(remaining[0].customer_id, kari.customer.id);
    assert_eq!(
        session::state(&store, "TPP", &ola.customer.id, "s1", NOW).unwrap(),
        session::SessionState::Unknown
    );
    assert_eq!(psu::customer_of(&store, "TPP", &psu_id).unwrap(), None);
}

#[test]
fn a_corporation_takes_its_agreements_and_the_consents_given_under_them() {
    let (store, listed) = seeded();
    let corporation = named(&listed, "Fjordkraft Testbedrift AS");
    let kari = named(&listed, "Kari Nordmann");
    let agreement = store
        .table::<Agreement>()
        .unwrap()
        .find(|a| a.owner_customer_id == corporation.customer.id)
        .unwrap()
        .unwrap();
    let corporate_id = psu::corporate_id_for(&store, "TPP", &agreement.id).unwrap();
    store
        .table::<Consent>()
        .unwrap()
        .insert(&consent(
            &kari.customer.id,
            Some(&agreement.id),
            vec![corporation.accounts[0].id.clone()],
        ))
        .unwrap();

    let removal = delete(&store, &corporation.customer.customer_number, NOW).unwrap();

    assert_eq!(
        (
            removal.accounts,
            removal.agreements_removed,
            removal.consents
        ),
        (2, 1, 1)
    );
    assert!(store
        .table::<Agreement>()
        .unwrap()
        .get(&agreement.id)
        .unwrap()
        .is_none());
    assert_eq!(
        psu::agreement_of(&store, "TPP", &corporate_id).unwrap(),
        None
    );
    // Kari herself stays, with her own accounts.
    assert!(customers::list(&store)
        .unwrap()
        .iter()
        .any(|c| c.customer.id == kari.customer.id));
}

#[test]
fn an_unknown_customer_is_resource_unknown_and_nothing_changes() {
    let (store, listed) = seeded();
    let e = delete(&store, "no-such-customer", NOW).unwrap_err();
    assert_eq!(
        (e.status(), e.code, e.path.as_deref()),
        (404, Code::ResourceUnknown, Some("customerId"))
    );
    assert_eq!(customers::list(&store).unwrap(), listed);
}
