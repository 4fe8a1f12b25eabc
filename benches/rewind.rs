//! Benchmark: rewinding over 10,000 exchanges (docs/rewind.md). In-process, on a data directory on disk:
//! 10,000 exchanges each booking one transaction (one journaled commit each, attributed to its exchange),
//! then one rewind to the state before the first of them, timed; the reference is the time the same
//! 10,000 writes took in the same run.
//!
//! Run: `cargo bench --bench rewind` (optionally `-- --exchanges 10000`). Under `cargo test --all-targets`
//! it makes a small smoke run (500 exchanges).

use std::time::Instant;
use time::macros::datetime;
use xs2a_core::bank::mock::model::Transaction;
use xs2a_core::domain::cause::{within_sync, Cause};
use xs2a_http::app::{App, AppConfig, ClockStart, DataDir};

fn exchanges() -> u64 {
    let args: Vec<String> = std::env::args().collect();
    let measuring = args.iter().any(|a| a == "--bench");
    args.iter()
        .position(|a| a == "--exchanges")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(if measuring { 10_000 } else { 500 })
}

fn main() {
    let count = exchanges();
    let dir = tempfile::tempdir().unwrap();
    let app = App::build(AppConfig {
        data: DataDir::At(dir.path().to_owned()),
        clock: ClockStart::FrozenAt(datetime!(2026-06-01 10:30 UTC)),
        ..AppConfig::default()
    })
    .unwrap();
    let store = &app.state().store;
    let table = store.table::<Transaction>().unwrap();
    let template = table
        .list()
        .unwrap()
        .into_iter()
        .next()
        .expect("seeded transactions");
    let seeded = table.list().unwrap().len();
    // Entry numbers above any the log gave out at the start.
    let first = 1_000_000u64;
    let started = Instant::now();
    for i in 0..count {
        let mut booked = template.clone();
        booked.id = format!("bench-{i:06}");
        within_sync(Cause::Entry(first + i), || table.insert(&booked)).unwrap();
    }
    let writing = started.elapsed();
    let journal = store.journal().expect("the journal is on");
    let reach = journal.reach();
    let started = Instant::now();
    let from = journal.before(first).expect("within reach");
    let rewound = store.rewind_to(from).expect("the rewind");
    let rewinding = started.elapsed();
    assert_eq!(
        rewound.undone as u64, count,
        "one journal record per exchange"
    );
    assert_eq!(table.list().unwrap().len(), seeded, "every booking undone");
    println!(
        "journal: {} records, {:.1} MB before the rewind",
        reach.records,
        reach.bytes as f64 / 1e6
    );
    println!(
        "{count} exchanges written (one journaled commit each) in {:.0} ms = {:.1} µs each",
        writing.as_secs_f64() * 1e3,
        writing.as_secs_f64() * 1e6 / count as f64
    );
    println!(
        "rewind over {count} exchanges ({} records written back, one commit): {:.0} ms = {:.3} x writing them",
        rewound.changed,
        rewinding.as_secs_f64() * 1e3,
        rewinding.as_secs_f64() / writing.as_secs_f64()
    );
    drop(table);
    app.close().unwrap();
}
