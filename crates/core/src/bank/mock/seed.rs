//! Initialisation: the known state `POST /v1/sandbox/initialize` resets the sandbox to.
//!
//! Everything is derived from fixed seeds, so every initialisation yields the same customers, numbers and
//! ids: three private customers (synthetic national identity numbers), each with a current account, a
//! savings account and a card account; two corporations (organisation numbers), each with two accounts;
//! two corporate agreements linking the persons to the corporations; and a few transactions per account
//! and card account. Initialisation first removes all mock data, including everything made by hand.
//!
//! Transaction dates are relative to the clock's date at initialisation (`today`), so the seed always
//! lies inside the 90-day windows of the account information rules; their ids do not depend on the date
//! (they are derived from account and sequence number), so they are the same on every day.

// Digits are grouped as they are read: BBAN stems as bank.class.serial (1205_10_0000), amounts as øre
// (42_350_00 is 42 350.00 NOK).
#![allow(clippy::inconsistent_digit_grouping)]

use super::model::{
    Account, AccountStatus, Agreement, BalanceType, CardAccount, CardTransaction,
    CardTransactionStatus, Customer, CustomerType, Engagement, Money, Role, Transaction,
};
use super::transactions::{append_locked, clearing_account};
use super::{agreements, derive_id};
use crate::domain::refusal::Refusal;
use crate::domain::OrgNumber;
use crate::domain::{Currency, NationalId};
use crate::store::registry::{self, Kind};
use crate::store::Store;
use build::{account, balances, booked, card_transaction, customer, nok, reference};
use rust_decimal::Decimal;
use serde::Serialize;
use time::macros::date;
use time::{Date, Duration};

/// The private customers: (birth date, name). Their numbers are synthetic (month + 80).
const PERSONS: [(Date, &str); 3] = [
    (date!(1985 - 03 - 14), "Kari Nordmann"),
    (date!(1979 - 11 - 02), "Ola Nordmann"),
    (date!(1992 - 07 - 23), "Per Hansen"),
];

/// The corporations: (first 8 digits to start the search for a valid organisation number at, name).
const CORPORATIONS: [(u32, &str); 2] = [
    (9100_0000, "Fjordkraft Testbedrift AS"),
    (9200_0000, "Nordlys Handel AS"),
];

/// The seed's national identity numbers and names, in seed order.
pub fn private_customers() -> Vec<(String, &'static str)> {
    PERSONS
        .iter()
        .map(|(birth, name)| {
            let id = (100..500)
                .find_map(|individual| NationalId::synthetic(*birth, individual))
                .expect("some individual number gives valid check digits");
            (id.as_str().to_owned(), *name)
        })
        .collect()
}

/// The seed's organisation numbers and names, in seed order.
pub fn corporate_customers() -> Vec<(String, &'static str)> {
    CORPORATIONS
        .iter()
        .map(|(stem, name)| {
            let number = (*stem..)
                .find_map(|s| OrgNumber::with_check_digit(&format!("{s:08}")))
                .expect("some stem has a check digit");
            (number.as_str().to_owned(), *name)
        })
        .collect()
}

/// What initialisation created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitSummary {
    pub customers: usize,
    pub private_customers: usize,
    pub corporate_customers: usize,
    pub accounts: usize,
    pub card_accounts: usize,
    pub transactions: usize,
    pub card_transactions: usize,
    pub agreements: usize,
    /// The date seeded transaction dates are relative to (the clock's date at initialisation).
    pub reference_date: String,
}

/// Resets the sandbox to its known state, all at once: the mock data is seeded afresh and every record of
/// the flows built on it (consents, TPP sessions, authorisations, access counts, psu-ids, payments,
/// baskets, batch runs) is removed, so flows start from the beginning and nothing points at an account that
/// no longer exists. Configuration (the clock, settings, TPP contact registrations) is kept.
pub fn reset(store: &Store, today: Date) -> Result<InitSummary, Refusal> {
    // Held until the commit: no run or mock-data write may decide against the state being replaced.
    let _runs = store.locks().runs();
    let _mock_data = store.locks().mock_data();
    store.atomically(|store| {
        let summary = seed(store, today)?;
        store.clear_trees(&registry::names(Kind::Flow))?;
        Ok(summary)
    })
}

/// Removes all mock data, then writes the seed, all at once. `today` anchors transaction dates.
pub fn initialize(store: &Store, today: Date) -> Result<InitSummary, Refusal> {
    let _mock_data = store.locks().mock_data();
    store.atomically(|store| seed(store, today))
}

fn seed(store: &Store, today: Date) -> Result<InitSummary, Refusal> {
    store.clear_trees(&registry::names(Kind::MockData))?;
    // In the seed's own commit: a start never seeds this directory again (crate::bank::startup).
    crate::store::initialised::mark(store, "seed")?;
    let days = |n: i64| today - Duration::days(n);

    let persons: Vec<Customer> = private_customers()
        .iter()
        .map(|(n, name)| customer(n, name, CustomerType::Private))
        .collect();
    let corporations: Vec<Customer> = corporate_customers()
        .iter()
        .map(|(n, name)| customer(n, name, CustomerType::Corporate))
        .collect();
    for c in persons.iter().chain(&corporations) {
        super::customers::insert(store, c)?;
    }

    // Corporate accounts first: they pay the persons' salaries.
    let mut corporate_accounts = Vec::new();
    for (j, corp) in corporations.iter().enumerate() {
        let j = j as u64;
        let operating = account(
            corp,
            1205_20_0000 + j * 100,
            "Driftskonto",
            "Bedriftskonto",
            "CACC",
            1_875_430_00 + j as i64 * 100_000_00,
        );
        let tax = account(
            corp,
            1205_25_0000 + j * 100,
            "Skattetrekkskonto",
            "Skattetrekkskonto",
            "TAXE",
            310_000_00 + j as i64 * 25_000_00,
        );
        corporate_accounts.push((operating, tax));
    }
    let mut private_accounts = Vec::new();
    for (i, person) in persons.iter().enumerate() {
        let k = i as u64;
        let current = account(
            person,
            1205_10_0000 + k * 100,
            "Brukskonto",
            "Brukskonto",
            "CACC",
            18_250_75 + i as i64 * 3_100_00,
        );
        let savings = account(
            person,
            1205_15_0000 + k * 100,
            "Sparekonto",
            "Høyrentekonto",
            "SVGS",
            152_300_00 + i as i64 * 41_000_00,
        );
        private_accounts.push((current, savings));
    }
    let all_accounts: Vec<&Account> = corporate_accounts
        .iter()
        .chain(&private_accounts)
        .flat_map(|(a, b)| [a, b])
        .collect();
    for a in &all_accounts {
        super::accounts::insert(store, a)?;
    }

    let mut cards = Vec::new();
    for (i, person) in persons.iter().enumerate() {
        let masked_pan = format!("5555 55** **** {}", 1234 + 1111 * i);
        let compact: String = masked_pan.chars().filter(|c| *c != ' ').collect();
        let used = 1_234_50 + i as i64 * 2_000_00;
        let card = CardAccount {
            id: derive_id("card-account", &compact),
            customer_id: person.id.clone(),
            customer_number: person.customer_number.clone(),
            masked_pan,
            currency: Currency::NOK,
            name: "Kredittkort".to_owned(),
            product: "Mastercard Gold".to_owned(),
            status: AccountStatus::Enabled,
            credit_limit: Some(nok(50_000_00)),
            related_account: Some(private_accounts[i].0.bban.clone()),
            balances: balances(&[
                (BalanceType::InterimBooked, -used),
                (BalanceType::InterimAvailable, 50_000_00 - used),
            ]),
        };
        super::card_accounts::insert(store, &card)?;
        cards.push(card);
    }

    // Transactions: salary in, rent and a card purchase out, a transfer to savings; customer payments and
    // salaries on the corporate side.
    let clearing = clearing_account();
    let mut transactions = Vec::new();
    for (i, (person, (current, savings))) in persons.iter().zip(&private_accounts).enumerate() {
        let (employer, (payroll, _)) = (&corporations[i % 2], &corporate_accounts[i % 2]);
        let salary = 42_350_00 + i as i64 * 1_500_00;
        transactions.push(booked(
            current,
            &person.name,
            days(25),
            salary,
            (&employer.name, reference(payroll)),
            "Lønn",
            "PMNT-RCDT-SALA",
            "SALA",
        ));
        transactions.push(booked(
            payroll,
            &employer.name,
            days(25),
            -salary,
            (&person.name, reference(current)),
            &format!("Lønn {}", person.name),
            "PMNT-ICDT-SALA",
            "SALA",
        ));
        transactions.push(booked(
            current,
            &person.name,
            days(20),
            -12_500_00,
            ("Utleiegården AS", clearing.clone()),
            "Husleie",
            "PMNT-ICDT-DMCT",
            "OTHR",
        ));
        transactions.push(booked(
            current,
            &person.name,
            days(12),
            -349_90,
            ("REMA 1000 Bryggen", clearing.clone()),
            "Varekjøp",
            "PMNT-CCRD-POSD",
            "OTHR",
        ));
        transactions.push(booked(
            current,
            &person.name,
            days(3),
            -5_000_00,
            (&person.name, reference(savings)),
            "Overføring til sparekonto",
            "PMNT-ICDT-BOOK",
            "CASH",
        ));
        transactions.push(booked(
            savings,
            &person.name,
            days(3),
            5_000_00,
            (&person.name, reference(current)),
            "Overføring fra brukskonto",
            "PMNT-RCDT-BOOK",
            "CASH",
        ));
        transactions.push(booked(
            savings,
            &person.name,
            days(30),
            123_45 + i as i64 * 10_00,
            ("Sandbox Bank ASA", clearing.clone()),
            "Renter",
            "ACMT-MDOP-INTR",
            "OTHR",
        ));
    }
    for (corp, (operating, tax)) in corporations.iter().zip(&corporate_accounts) {
        transactions.push(booked(
            operating,
            &corp.name,
            days(15),
            125_000_00,
            ("Kunde Vest AS", clearing.clone()),
            "Faktura 10023",
            "PMNT-RCDT-DMCT",
            "OTHR",
        ));
        transactions.push(booked(
            operating,
            &corp.name,
            days(10),
            -18_400_00,
            (&corp.name, reference(tax)),
            "Skattetrekk",
            "PMNT-ICDT-BOOK",
            "TAXS",
        ));
        transactions.push(booked(
            tax,
            &corp.name,
            days(10),
            18_400_00,
            (&corp.name, reference(operating)),
            "Skattetrekk",
            "PMNT-RCDT-BOOK",
            "TAXS",
        ));
    }
    let transaction_count = transactions.len();
    append_locked(store, transactions)?;

    let card_table = store.table::<CardTransaction>()?;
    let mut card_transaction_count = 0;
    for card in &cards {
        let euro = Money {
            amount: Decimal::new(-95_20, 2),
            currency: Currency::EUR,
        };
        for t in [
            card_transaction(
                card,
                1,
                CardTransactionStatus::Booked,
                days(10),
                -349_00,
                None,
                "5411",
            ),
            card_transaction(
                card,
                2,
                CardTransactionStatus::Booked,
                days(6),
                -1_120_50,
                Some(euro),
                "5812",
            ),
            card_transaction(
                card,
                3,
                CardTransactionStatus::Pending,
                days(1),
                -89_00,
                None,
                "5814",
            ),
        ] {
            card_table.insert(&t)?;
            card_transaction_count += 1;
        }
    }

    let agreement =
        |owner: &Customer, name: &str, engagements: Vec<(&Customer, &Account, Vec<Role>)>| {
            Agreement {
                id: derive_id("agreement", &format!("{}/{name}", owner.customer_number)),
                owner_customer_id: owner.id.clone(),
                owner: owner.customer_number.clone(),
                name: name.to_owned(),
                engagements: engagements
                    .into_iter()
                    .map(|(person, account, roles)| Engagement {
                        customer_id: person.id.clone(),
                        customer_number: person.customer_number.clone(),
                        account_id: account.id.clone(),
                        iban: account.iban.clone(),
                        bban: account.bban.clone(),
                        roles,
                    })
                    .collect(),
            }
        };
    use Role::{Approve, Register, View};
    let seeded_agreements = [
        agreement(
            &corporations[0],
            "Fjordkraft Testbedrift AS - fullmakt",
            vec![
                (
                    &persons[0],
                    &corporate_accounts[0].0,
                    vec![View, Register, Approve],
                ),
                (
                    &persons[0],
                    &corporate_accounts[0].1,
                    vec![View, Register, Approve],
                ),
                (&persons[1], &corporate_accounts[0].0, vec![View, Register]),
            ],
        ),
        agreement(
            &corporations[1],
            "Nordlys Handel AS - fullmakt",
            vec![
                (&persons[2], &corporate_accounts[1].0, vec![View, Approve]),
                (&persons[2], &corporate_accounts[1].1, vec![View, Approve]),
                (&persons[0], &corporate_accounts[1].0, vec![View]),
            ],
        ),
    ];
    for a in &seeded_agreements {
        agreements::insert(store, a)?;
    }

    debug_assert_eq!(store.table::<Transaction>()?.len(), transaction_count);
    Ok(InitSummary {
        customers: persons.len() + corporations.len(),
        private_customers: persons.len(),
        corporate_customers: corporations.len(),
        accounts: all_accounts.len(),
        card_accounts: cards.len(),
        transactions: transaction_count,
        card_transactions: card_transaction_count,
        agreements: seeded_agreements.len(),
        reference_date: super::model::format_date(today),
    })
}

mod build;
#[cfg(test)]
mod tests;
