//! Benchmark: one batch run over 100 000 approved (ACTC) payments between the seeded sandbox accounts, in a
//! temporary store. Target: under 2 s on a 2-core machine. Also checks that the run conserves money (every
//! creditor is a sandbox account, so the sum of all balances is unchanged) and that every payment was booked.
//!
//! Run: `cargo bench --bench batch_run` (optionally `-- --payments 200000`). Without `--bench` (as under
//! `cargo test --all-targets`) it makes a small smoke run that only checks that the benchmark still works.
//! Beside the run's time it prints a reference measured in the same process (the run's records written
//! as one plain sled batch), so that a figure taken on a loaded machine still says something: the ratio.

use rust_decimal::Decimal;
use std::time::Instant;
use time::macros::datetime;
use xs2a_core::bank::batch::{run_batch, Trigger};
use xs2a_core::bank::events::Events;
use xs2a_core::bank::mock::booking_blocks::BookingBlock;
use xs2a_core::bank::mock::model::{Account, CardAccount};
use xs2a_core::bank::pis::model::{
    Address, CreditorAccount, DebtorAccount, Money, Payment, PaymentOrder, PaymentProduct,
    PaymentService, Remittance, ValidatedPayment,
};
use xs2a_core::bank::pis::status::PaymentStatus;
use xs2a_core::domain::Currency;
use xs2a_core::store::{Record, Store};

/// How many of the seeded payments are written in one operation (see `main`).
const SEEDED_TOGETHER: usize = 1000;

fn payments_wanted() -> usize {
    let args: Vec<String> = std::env::args().collect();
    let measuring = args.iter().any(|a| a == "--bench");
    args.iter()
        .position(|a| a == "--payments")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(if measuring { 100_000 } else { 2_000 })
}

fn money_in(store: &Store) -> Decimal {
    let accounts: Decimal = store
        .table::<Account>()
        .unwrap()
        .list()
        .unwrap()
        .iter()
        .flat_map(|a| &a.balances)
        .map(|b| b.balance_amount.amount)
        .sum::<Decimal>();
    let cards: Decimal = store
        .table::<CardAccount>()
        .unwrap()
        .list()
        .unwrap()
        .iter()
        .flat_map(|c| &c.balances)
        .map(|b| b.balance_amount.amount)
        .sum::<Decimal>();
    accounts + cards
}

fn payment(i: usize, from: &Account, to: &Account) -> Payment {
    let at = datetime!(2026-06-01 09:00 UTC);
    Payment {
        id: format!("bench-{i:07}"),
        tpp_id: "PSDNO-FSA-BENCH".to_owned(),
        customer_id: from.customer_id.clone(),
        debtor_account_id: from.id.clone(),
        payment: ValidatedPayment {
            service: PaymentService::Payments,
            product: PaymentProduct::NorwegianDomesticCreditTransfers,
            orders: vec![PaymentOrder {
                // 1.00 to 1.09 NOK: each account pays at most about 11 000 NOK over the run.
                instructed_amount: Money {
                    amount: Decimal::new(100 + (i % 10) as i64, 2),
                    currency: Currency::NOK,
                },
                creditor_name: "Benk Mottaker".to_owned(),
                creditor_account: CreditorAccount {
                    bban: Some(to.bban.clone()),
                    iban: None,
                    currency: Currency::NOK,
                },
                creditor_address: Address::default(),
                creditor_agent: None,
                debtor_account: DebtorAccount::Bban {
                    bban: from.bban.clone(),
                    currency: Currency::NOK,
                },
                ultimate_debtor: None,
                purpose_code: None,
                remittance: Some(Remittance::Unstructured {
                    text: format!("Faktura {i}"),
                }),
                requested_execution_date: None,
                service_level: None,
            }],
            schedule: None,
            batch_booking_preferred: None,
        },
        status: PaymentStatus::ACTC,
        funds_available: None,
        fee: None,
        forced: None,
        basket_id: None,
        created_at: at,
        authorised_at: Some(at),
        next_execution_date: None,
        executions: Vec::new(),
        history: Vec::new(),
    }
}

/// The reference measured in the same run: every payment and booking block the run left in the store,
/// written again (the same keys and bytes) as one plain `sled::Batch` into a fresh temporary database with
/// the store's page cache: what the run's writes cost sled alone, without reading, deciding or atomicity.
fn plain_sled_write(store: &Store) -> std::time::Duration {
    let mut batch = sled::Batch::default();
    for tree in ["payments", "sandbox-payment-bookings"] {
        for (key, value) in store.raw_records(tree).unwrap() {
            batch.insert(key, value);
        }
    }
    let db = sled::Config::new()
        .temporary(true)
        .flush_every_ms(None)
        .cache_capacity(xs2a_core::store::CACHE_BYTES)
        .open()
        .unwrap();
    let tree = db.open_tree("reference").unwrap();
    let started = Instant::now();
    tree.apply_batch(batch).unwrap();
    started.elapsed()
}

/// The CPU time this process has used so far (all its threads), from /proc/self/stat; 0 where there is
/// none. On a loaded machine it says more than the wall clock about what the run itself costs.
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(") ")
        .map_or("", |(_, rest)| rest)
        .split(' ')
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0 // USER_HZ, 100 on Linux
}

fn main() {
    let n = payments_wanted();
    let store = Store::temporary().unwrap();
    xs2a_core::bank::mock::seed::initialize(&store, time::macros::date!(2026 - 06 - 01)).unwrap();
    let accounts = store.table::<Account>().unwrap().list().unwrap();
    let seeding = Instant::now();
    let payments: Vec<Payment> = (0..n)
        .map(|i| {
            payment(
                i,
                &accounts[i % accounts.len()],
                &accounts[(i + 1) % accounts.len()],
            )
        })
        .collect();
    // In operations of SEEDED_TOGETHER payments, as payments arrive (each request commits its own), not
    // as one: with the change journal on, one insert_many is one sled transaction of 100 000 new records,
    // which leaves the run's first read to free that transaction's old pages and to split the leaves it
    // filled (a profile showed a fifth of the run there), a cost of the seeding, not of the run.
    for together in payments.chunks(SEEDED_TOGETHER) {
        store
            .table::<Payment>()
            .unwrap()
            .insert_many(together)
            .unwrap();
    }
    drop(payments);
    println!(
        "seeded {n} ACTC payments over {} accounts in {:.2?}",
        accounts.len(),
        seeding.elapsed()
    );

    let before = money_in(&store);
    let events = Events::default();
    let cpu_before = process_cpu_seconds();
    let started = Instant::now();
    let run = run_batch(
        &store,
        &events,
        datetime!(2026-06-01 11:00 UTC),
        Trigger::Scheduled,
    )
    .unwrap();
    let elapsed = started.elapsed();
    let cpu = process_cpu_seconds() - cpu_before;
    let flushing = Instant::now();
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(store.make_durable())
        .unwrap();
    let flushed = flushing.elapsed();

    let booked = run
        .outcomes
        .iter()
        .filter(|o| o.after == PaymentStatus::ACSC)
        .count();
    println!(
        "batch run: {} payments processed ({booked} booked) in {:.3} s (CPU {cpu:.2} s) = {:.0} payments/s; make_durable {:.3} s",
        run.processed,
        elapsed.as_secs_f64(),
        run.processed as f64 / elapsed.as_secs_f64(),
        flushed.as_secs_f64()
    );
    let after = money_in(&store);
    assert_eq!(booked, n, "every payment is booked");
    assert_eq!(before, after, "money is conserved among sandbox accounts");
    println!("money conserved: sum of all sandbox balances {before} before and after");
    let sample: Vec<Payment> = store.table::<Payment>().unwrap().last_n(100).unwrap();
    let blocks = store.table::<BookingBlock>().unwrap().list().unwrap();
    let bookings: usize = blocks.iter().map(|b| b.transactions.len()).sum();
    let stored = |bytes: usize, count: usize| bytes / count.max(1);
    println!(
        "stored: a settled payment ~{} bytes (~{} as JSON); {bookings} bookings in {} blocks, ~{} bytes each (~{} as JSON)",
        stored(sample.iter().map(|p| p.to_stored().unwrap().len()).sum(), sample.len()),
        stored(sample.iter().map(|p| serde_json::to_vec(p).unwrap().len()).sum(), sample.len()),
        blocks.len(),
        stored(blocks.iter().map(|b| b.to_stored().unwrap().len()).sum(), bookings),
        stored(blocks.iter().flat_map(|b| &b.transactions).map(|t| serde_json::to_vec(t).unwrap().len()).sum(), bookings),
    );
    let reference = plain_sled_write(&store);
    println!(
        "reference: the same records written as one plain sled batch into a fresh tree in {:.3} s; \
         the run took {:.1} x that",
        reference.as_secs_f64(),
        elapsed.as_secs_f64() / reference.as_secs_f64()
    );
    if n >= 100_000 && elapsed.as_secs_f64() >= 2.0 {
        println!("WARNING: above the 2 s target");
    }
}
