//! The compact payment form: every field reads back as written, JSON records of earlier versions still
//! read, and the status can be read without decoding.

use super::*;
use crate::domain::{Country, Currency};
use rust_decimal::Decimal;
use std::str::FromStr;
use time::macros::{date, datetime};

fn order(amount: &str) -> PaymentOrder {
    PaymentOrder {
        instructed_amount: Money {
            amount: Decimal::from_str(amount).unwrap(),
            currency: Currency::NOK,
        },
        creditor_name: "Ola Nordmann".to_owned(),
        creditor_account: CreditorAccount {
            bban: Some("12051001018".to_owned()),
            iban: None,
            currency: Currency::NOK,
        },
        creditor_address: Address {
            street: Some("Storgata".to_owned()),
            building_number: Some("1".to_owned()),
            postal_code: Some("0155".to_owned()),
            town_name: Some("Oslo".to_owned()),
            country: Some(Country::NO),
        },
        creditor_agent: None,
        debtor_account: DebtorAccount::Bban {
            bban: "12051000003".to_owned(),
            currency: Currency::NOK,
        },
        ultimate_debtor: None,
        purpose_code: None,
        remittance: Some(Remittance::Unstructured {
            text: "Middag ÆØÅ €".to_owned(),
        }),
        requested_execution_date: None,
        service_level: None,
    }
}

/// A settled single payment, as a batch run leaves it.
fn settled() -> Payment {
    let at = datetime!(2026-06-01 11:00 UTC);
    Payment {
        id: "0b9e1f4c-2d3a-4e5f-9a8b-7c6d5e4f3a2b".to_owned(),
        tpp_id: "PSDNO-FSA-ABCDEF".to_owned(),
        customer_id: "5f3c2b1a-0e9d-4c8b-a7f6-e5d4c3b2a190".to_owned(),
        debtor_account_id: "a1b2c3d4-e5f6-4789-8abc-def012345678".to_owned(),
        payment: ValidatedPayment {
            service: PaymentService::Payments,
            product: PaymentProduct::NorwegianDomesticCreditTransfers,
            orders: vec![order("250.00")],
            schedule: None,
            batch_booking_preferred: None,
        },
        status: PaymentStatus::ACSC,
        funds_available: Some(true),
        fee: None,
        forced: None,
        basket_id: None,
        created_at: datetime!(2026-06-01 09:00:00.25 UTC),
        authorised_at: Some(datetime!(2026-06-01 09:01 UTC)),
        next_execution_date: None,
        executions: vec![Execution {
            at,
            order: 0,
            status: PaymentStatus::ACSC,
            reason: None,
            transaction_id: Some("c0ffee00-1234-4567-89ab-cdef01234567".to_owned()),
        }],
        history: vec![
            StatusChange {
                at: datetime!(2026-06-01 09:00:00.25 UTC),
                status: PaymentStatus::RCVD,
                reason: None,
            },
            StatusChange {
                at: datetime!(2026-06-01 09:01 UTC),
                status: PaymentStatus::ACTC,
                reason: Some("authorised".to_owned()),
            },
            StatusChange {
                at,
                status: PaymentStatus::ACSC,
                reason: None,
            },
        ],
    }
}

/// Every optional field set, every enum in a variant other than the first.
fn everything_set() -> Payment {
    let mut p = settled();
    p.id = "not-a-uuid".to_owned();
    p.customer_id = String::new();
    p.payment.service = PaymentService::BulkPayments;
    p.payment.product = PaymentProduct::CrossBorderCreditTransfers;
    p.payment.batch_booking_preferred = Some(false);
    p.payment.schedule = Some(Schedule {
        start_date: date!(2026 - 06 - 02),
        end_date: Some(date!(2027 - 06 - 02)),
        frequency: Frequency::EveryTwoMonths,
        day_of_execution: Some(31),
    });
    let mut second = order("0.01");
    second.instructed_amount.currency = Currency::EUR;
    second.creditor_account = CreditorAccount {
        bban: None,
        iban: Some("DE89370400440532013000".to_owned()),
        currency: Currency::EUR,
    };
    second.creditor_address = Address::default();
    second.creditor_agent = Some("DEUTDEFF".to_owned());
    second.debtor_account = DebtorAccount::Card {
        identification: "5555-1234".to_owned(),
        currency: Currency::NOK,
    };
    second.ultimate_debtor = Some("Kari".to_owned());
    second.purpose_code = Some("SALA".to_owned());
    second.remittance = Some(Remittance::Structured {
        references: vec![StructuredReference {
            reference: "123456789".to_owned(),
            reference_type: Some("KID".to_owned()),
            reference_issuer: Some("Issuer".to_owned()),
        }],
        as_array: true,
    });
    second.requested_execution_date = Some(date!(2026 - 07 - 01));
    second.service_level = Some("URGP".to_owned());
    p.payment.orders.push(second);
    p.status = PaymentStatus::PART;
    p.funds_available = Some(false);
    p.fee = Some(Money {
        amount: Decimal::from_str("25.00").unwrap(),
        currency: Currency::NOK,
    });
    p.forced = Some(ForcedOutcome::Partial);
    p.basket_id = Some("1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d".to_owned());
    p.created_at = datetime!(2026-06-01 11:00:00.000000001 +02:00);
    p.next_execution_date = Some(date!(2026 - 08 - 31));
    p.executions[0].reason = Some("AM04 insufficient funds".to_owned());
    p
}

#[test]
fn a_payment_reads_back_exactly_as_written() {
    for payment in [settled(), everything_set()] {
        let bytes = encode(&payment);
        let back = decode(&bytes).unwrap();
        assert_eq!(back, payment);
        // Equal instants in other offsets compare equal: the JSON must be the same too.
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&payment).unwrap()
        );
    }
}

#[test]
fn payments_stored_as_json_by_earlier_versions_still_read() {
    let payment = everything_set();
    let json = serde_json::to_vec(&payment).unwrap();
    assert_eq!(decode(&json).unwrap(), payment);
    assert_eq!(stored_status(&json), None, "JSON: the caller decodes");
}

#[test]
fn the_status_is_read_without_decoding() {
    let mut payment = settled();
    for status in STATUSES {
        payment.status = status;
        assert_eq!(stored_status(&encode(&payment)), Some(status));
    }
}

#[test]
fn a_settled_payment_takes_under_a_third_of_its_json() {
    let payment = settled();
    let (compact, json) = (
        encode(&payment).len(),
        serde_json::to_vec(&payment).unwrap().len(),
    );
    assert!(compact * 3 < json, "{compact} bytes against {json} of JSON");
}

#[test]
fn damaged_bytes_are_an_error() {
    let bytes = encode(&settled());
    assert!(decode(&bytes[..bytes.len() - 1]).is_err());
    let mut unknown = bytes.clone();
    unknown[1] = 200;
    assert!(decode(&unknown).is_err());
    assert!(decode(&[]).is_err());
}

/// The payments of a data directory as stored, read with sled itself (`Store::open` would migrate it).
fn stored_payments(dir: &std::path::Path) -> Vec<(Vec<u8>, Vec<u8>)> {
    let db = sled::Config::new().path(dir).open().unwrap();
    let tree = db.open_tree(Payment::TREE).unwrap();
    tree.iter()
        .map(|pair| {
            let (key, value) = pair.unwrap();
            (key.to_vec(), value.to_vec())
        })
        .collect()
}

#[test]
fn the_stored_data_directories_migrate_to_compact_payments_that_read_back_the_same() {
    use crate::bank::migrations::MIGRATIONS;
    use crate::store::migrate::fixture;
    // Format 2 is this change (formats are never renumbered).
    let migration = MIGRATIONS.iter().find(|m| m.to == 2).expect("registered");
    let versions = fixture::versions();
    assert!(!versions.is_empty(), "a stored data directory");
    for version in versions {
        let before_dir = tempfile::tempdir().unwrap();
        let before = stored_payments(&fixture::unpack(&version, before_dir.path()).unwrap());
        assert!(
            before.len() >= 9,
            "{version}: the fixture's payments ({})",
            before.len()
        );
        let (_keep, dir) = fixture::migrated(&version, MIGRATIONS, migration).unwrap();
        let after = stored_payments(&dir);
        assert_eq!(after.len(), before.len(), "{version}");
        for ((key, old), (new_key, new)) in before.iter().zip(&after) {
            assert_eq!(key, new_key);
            assert!(
                new.first() == Some(&FORMAT),
                "{version}: payment {} is stored compact",
                String::from_utf8_lossy(key)
            );
            assert_eq!(
                decode(new).unwrap(),
                decode(old).unwrap(),
                "{version}: payment {} reads back the same",
                String::from_utf8_lossy(key)
            );
        }
        // And through the store, as the service reads them.
        let store = crate::store::Store::open(&dir, crate::bank::migrations::active()).unwrap();
        let listed = store.table::<Payment>().unwrap().list().unwrap();
        let expected: Vec<Payment> = before.iter().map(|(_, v)| decode(v).unwrap()).collect();
        assert_eq!(listed, expected, "{version}");
        let transactions = store
            .table::<crate::bank::mock::model::Transaction>()
            .unwrap()
            .list()
            .unwrap();
        assert!(!transactions.is_empty());
        store.close().unwrap();
    }
}
