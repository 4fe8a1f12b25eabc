//! The log's storage across its edges: numbers that interleave between segments, a log written by an
//! earlier version, and a chunk lost to a crash.

use super::model::Entry;
use super::segment::sample_captured;
use super::store::{StoredEntry, StoredExchange};
use super::TrafficLog;
use std::time::Duration;
use xs2a_core::bank::events::Events;
use xs2a_core::store::Store;

fn record(log: &TrafficLog, id: u64) {
    log.record_exchange(Box::new(move || sample_captured(id, &"C".repeat(200))));
    assert!(log.settle(Duration::from_secs(5)), "stored");
}

fn ids(entries: &[Entry]) -> Vec<u64> {
    entries.iter().map(Entry::id).collect()
}

#[test]
fn an_entry_stored_after_a_newer_one_still_pages_in_number_order() {
    let log = TrafficLog::start(Store::temporary().unwrap(), &Events::default()).unwrap();
    let (older, newer, newest) = (log.next_id(), log.next_id(), log.next_id());
    // A slow request: numbered first, answered (and stored) last, in a segment of its own.
    record(&log, newer);
    record(&log, newest);
    record(&log, older);
    assert_eq!(
        ids(&log.page(None, 10, |_| true).unwrap()),
        [newest, newer, older]
    );
    assert_eq!(ids(&log.page(None, 2, |_| true).unwrap()), [newest, newer]);
    assert_eq!(ids(&log.page(Some(newer), 5, |_| true).unwrap()), [older]);
    assert_eq!(ids(&log.after(0, 2).unwrap()), [older, newer]);
    assert_eq!(ids(&log.after(older, 10).unwrap()), [newer, newest]);
    assert!(log.after(0, 0).unwrap().is_empty());
    let Some(Ok(whole)) = log.get(older).unwrap() else {
        panic!("the late entry reads whole");
    };
    assert_eq!(whole.request.headers[0].1, "C".repeat(200));
    assert!(log.get(newest + 1).unwrap().is_none());
}

#[test]
fn a_log_written_by_an_earlier_version_is_carried_over_whole() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), xs2a_core::bank::migrations::active()).unwrap();
    let log = TrafficLog::start(Store::temporary().unwrap(), &Events::default()).unwrap();
    // The records as the earlier version kept them: a summary and the exchange, one each per entry.
    for id in [1, 2] {
        record(&log, id);
        let Some(Ok(whole)) = log.get(id).unwrap() else {
            panic!("recorded");
        };
        store
            .table::<StoredEntry>()
            .unwrap()
            .insert(&StoredEntry {
                entry: Entry::Exchange(whole.summary.clone()),
                bytes: 500,
            })
            .unwrap();
        store
            .table::<StoredExchange>()
            .unwrap()
            .insert(&StoredExchange(whole))
            .unwrap();
    }
    let carried = TrafficLog::start(store.clone(), &Events::default()).unwrap();
    assert_eq!(ids(&carried.page(None, 10, |_| true).unwrap()), [2, 1]);
    assert!(matches!(carried.get(2).unwrap(), Some(Ok(e)) if e.request.headers[0].1.len() == 200));
    assert!(store.table::<StoredEntry>().unwrap().is_empty());
    assert!(store.table::<StoredExchange>().unwrap().is_empty());
    assert_eq!(
        carried.next_id(),
        3,
        "numbering goes on after the carried entries"
    );
}

#[test]
fn a_lost_chunk_leaves_the_rest_of_the_log_readable() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path(), xs2a_core::bank::migrations::active()).unwrap();
        let log = TrafficLog::start(store.clone(), &Events::default()).unwrap();
        record(&log, log.next_id());
        store.close().unwrap();
    }
    // As after a power cut: the index record reached the disk, the chunk's bytes did not.
    let chunk_dir = dir.path().join("traffic-log");
    for file in std::fs::read_dir(&chunk_dir).unwrap() {
        std::fs::write(file.unwrap().path(), b"").unwrap();
    }
    let store = Store::open(dir.path(), xs2a_core::bank::migrations::active()).unwrap();
    let log = TrafficLog::start(store, &Events::default()).unwrap();
    assert!(log.page(None, 10, |_| true).unwrap().is_empty());
    assert!(log.get(1).unwrap().is_none());
    let next = log.next_id();
    record(&log, next);
    assert_eq!(ids(&log.page(None, 10, |_| true).unwrap()), [next]);
}

/// The traffic log's tables are logs, not state: the store's change journal leaves them out.
#[test]
fn logs_are_not_journaled() {
    let store = Store::temporary().unwrap();
    let segments = store.table::<super::store::Totals>().unwrap();
    segments.insert(&super::store::Totals::default()).unwrap();
    assert_eq!(store.journal().unwrap().next_seq(), 1);
}

/// "Clear traffic": the entries, their files and their journeys go, on disk before it answers; the
/// numbers go on; what comes after is kept, across a restart too.
#[test]
fn a_cleared_log_keeps_nothing_of_before_and_numbering_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let chunk_files = || {
        std::fs::read_dir(dir.path().join("traffic-log"))
            .unwrap()
            .count()
    };
    let after;
    {
        let store = Store::open(dir.path(), xs2a_core::bank::migrations::active()).unwrap();
        let log = TrafficLog::start(store.clone(), &Events::default()).unwrap();
        let first = log.next_id();
        record(&log, first);
        record(&log, log.next_id());
        assert_eq!(chunk_files(), 1);
        let cleared = log.clear().unwrap();
        assert_eq!((cleared.removed, cleared.through), (2, first + 1));
        assert_eq!(chunk_files(), 0, "the files go with the entries");
        assert!(log.page(None, 10, |_| true).unwrap().is_empty());
        assert!(log.get(first).unwrap().is_none());
        assert!(log.journeys(10).is_empty());
        after = log.next_id();
        assert!(after > cleared.through, "numbers are never reused");
        record(&log, after);
        assert_eq!(ids(&log.page(None, 10, |_| true).unwrap()), [after]);
        store.close().unwrap();
    }
    let store = Store::open(dir.path(), xs2a_core::bank::migrations::active()).unwrap();
    let log = TrafficLog::start(store, &Events::default()).unwrap();
    assert_eq!(ids(&log.page(None, 10, |_| true).unwrap()), [after]);
    assert!(log.next_id() > after);
}
