//! Tests of initialisation: determinism, valid numbers, removal of manual data, listings of the seed.

use super::*;
use crate::bank::mock::listing::Listing;
use crate::bank::mock::model::{Account, CardAccount};
use crate::bank::mock::{card_transactions, customers, transactions};
use crate::domain::refusal::Code;
use crate::domain::{Bban, Iban};

const TODAY: Date = date!(2026 - 03 - 15);

#[test]
fn two_initialisations_give_identical_customers_ids_and_transactions() {
    let store = Store::temporary().unwrap();
    let first_summary = initialize(&store, TODAY).unwrap();
    let first = customers::list(&store).unwrap();
    let first_tx = store.table::<Transaction>().unwrap().list().unwrap();
    let other = Store::temporary().unwrap();
    let second_summary = initialize(&other, TODAY).unwrap();
    initialize(&other, TODAY).unwrap();
    assert_eq!(first_summary, second_summary);
    assert_eq!(customers::list(&other).unwrap(), first);
    assert_eq!(
        store.table::<Transaction>().unwrap().list().unwrap(),
        first_tx
    );
    assert_eq!(
        agreements::list(&store).unwrap(),
        agreements::list(&other).unwrap()
    );
}

#[test]
fn the_seed_has_the_promised_shape() {
    let store = Store::temporary().unwrap();
    let summary = initialize(&store, TODAY).unwrap();
    assert_eq!(
        (summary.private_customers, summary.corporate_customers),
        (3, 2)
    );
    assert_eq!(
        (summary.accounts, summary.card_accounts, summary.agreements),
        (10, 3, 2)
    );
    assert_eq!(summary.reference_date, "2026-03-15");
    for c in customers::list(&store).unwrap() {
        match c.customer.customer_type {
            CustomerType::Private => {
                assert!(NationalId::parse(&c.customer.customer_number)
                    .unwrap()
                    .is_synthetic());
                assert_eq!((c.accounts.len(), c.card_accounts.len()), (2, 1));
            }
            CustomerType::Corporate => {
                OrgNumber::parse(&c.customer.customer_number).unwrap();
                assert_eq!((c.accounts.len(), c.card_accounts.len()), (2, 0));
            }
        }
        for a in &c.accounts {
            Bban::parse(&a.bban).unwrap();
            assert_eq!(Iban::parse(&a.iban).unwrap().bban_part(), a.bban);
        }
    }
    let kari = &customers::list(&store)
        .unwrap()
        .into_iter()
        .find(|c| c.customer.name == "Kari Nordmann")
        .unwrap();
    let card = crate::bank::mock::holdings::get_view::<CardAccount>(
        &store,
        "id",
        &kari.card_accounts[0].id,
    )
    .unwrap();
    assert_eq!(card.masked_pan, "5555 55** **** 1234");
    assert_eq!(
        card.related_account.as_deref(),
        Some(kari.accounts[0].bban.as_str())
    );
    assert!(card
        .balances
        .iter()
        .any(|b| b.balance_type == BalanceType::InterimBooked));
}

#[test]
fn initialisation_removes_manual_data() {
    let store = Store::temporary().unwrap();
    initialize(&store, TODAY).unwrap();
    let extra = customers::create(
        &store,
        &customers::CreateCustomer {
            customer_number: Some("974760673".into()),
            name: Some("Manuell AS".into()),
            customer_type: None,
        },
    )
    .unwrap();
    let before = customers::list(&store).unwrap().len();
    let summary = initialize(&store, TODAY).unwrap();
    assert_eq!(customers::list(&store).unwrap().len(), before - 1);
    assert_eq!(summary.customers, before - 1);
    let e = customers::by_number(&store, "customerNumber", &extra.customer_number).unwrap_err();
    assert_eq!(e.code, Code::ResourceUnknown);
}

#[test]
fn seeded_transactions_list_in_date_order_relative_to_today() {
    let store = Store::temporary().unwrap();
    initialize(&store, TODAY).unwrap();
    let kari = customers::list(&store)
        .unwrap()
        .into_iter()
        .find(|c| c.customer.name == "Kari Nordmann")
        .unwrap();
    let current =
        crate::bank::mock::holdings::get_view::<Account>(&store, "id", &kari.accounts[0].id)
            .unwrap();
    assert_eq!(current.name, "Brukskonto");
    let listed = transactions::list(&store, &current.id, &Listing::default()).unwrap();
    assert_eq!(listed.len(), 4);
    let dates: Vec<&str> = listed.iter().map(|t| t.booking_date.as_str()).collect();
    assert_eq!(
        dates,
        ["2026-02-18", "2026-02-23", "2026-03-03", "2026-03-12"]
    );
    assert_eq!(listed[0].amount, 4_235_000);
    assert_eq!(listed[0].debtor_name, "Fjordkraft Testbedrift AS");
    let cards = card_transactions::list(
        &store,
        &kari.card_accounts[0].id,
        card_transactions::BookingStatus::Both,
        &Listing::default(),
    )
    .unwrap();
    assert_eq!(
        (
            cards.card_transactions.booked.len(),
            cards.card_transactions.pending.len()
        ),
        (2, 1)
    );
}

#[test]
fn seeded_data_blocks_duplicates_of_itself() {
    let store = Store::temporary().unwrap();
    initialize(&store, TODAY).unwrap();
    let (number, _) = &private_customers()[0];
    let e = customers::create(
        &store,
        &customers::CreateCustomer {
            customer_number: Some(number.clone()),
            name: Some("Kari Nordmann".into()),
            customer_type: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.code, Code::Conflict);
}
