//! The journal's guarantees at the store's level: every journaled write is recorded with what it replaced,
//! undoing the records gives back the state exactly (the rewind itself recorded and undoable), positions
//! follow the causes, pruning moves the reach, and writes the journal did not see stop a rewind.

use super::*;
use crate::domain::cause::{self, Cause, Timeline};
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// A record in a registered (journaled) tree of a temporary store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Note {
    id: String,
    n: u64,
}

impl Record for Note {
    const TREE: &'static str = "tpp-contacts";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// A record in another registered tree, for operations over two trees.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Other {
    id: String,
}

impl Record for Other {
    const TREE: &'static str = "settings";
    fn key(&self) -> String {
        self.id.clone()
    }
}

fn note(id: &str, n: u64) -> Note {
    Note { id: id.into(), n }
}

struct Counter(AtomicU64, u64);

impl Timeline for Counter {
    fn reserve(&self) -> Option<u64> {
        Some(self.0.fetch_add(1, Ordering::SeqCst) + 1)
    }
    fn last_given(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
    fn max_bytes(&self) -> u64 {
        self.1
    }
}

fn all(store: &Store) -> Vec<Note> {
    store.table::<Note>().unwrap().list().unwrap()
}

fn in_entry<R>(id: u64, work: impl FnOnce() -> R) -> R {
    cause::within_sync(Cause::Entry(id), work)
}

#[test]
fn a_single_write_is_recorded_with_the_bytes_it_replaced() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    in_entry(3, || notes.insert(&note("a", 1))).unwrap();
    in_entry(4, || notes.insert(&note("a", 2))).unwrap();
    in_entry(5, || notes.insert(&note("a", 2))).unwrap();
    in_entry(6, || notes.remove("a")).unwrap();
    let journal = store.journal().unwrap();
    let sets = journal.records_between(0, u64::MAX).unwrap();
    let shown: Vec<(u64, Option<String>, Option<String>)> = sets
        .iter()
        .map(|s| {
            let c = &s.changes[0];
            let text =
                |b: &Option<Vec<u8>>| b.as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
            (s.pos, text(&c.before), text(&c.after))
        })
        .collect();
    let a = |n: u64| Some(format!(r#"{{"id":"a","n":{n}}}"#));
    assert_eq!(
        shown,
        [(6, None, a(1)), (8, a(1), a(2)), (12, a(2), None)],
        "the write that changed nothing (entry 5) is not recorded"
    );
    assert!(journal.records_of(5).unwrap().is_empty());
    assert_eq!(journal.records_of(4).unwrap().len(), 1);
}

#[test]
fn rewinding_gives_back_the_state_exactly_and_is_itself_undone_by_a_rewind() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    in_entry(1, || notes.insert(&note("a", 1))).unwrap();
    in_entry(2, || notes.insert(&note("b", 1))).unwrap();
    let at_two = all(&store);
    in_entry(3, || {
        store.atomically(|s| -> Result<(), StoreError> {
            let notes = s.table::<Note>()?;
            notes.insert(&note("a", 9))?;
            notes.remove("b")?;
            notes.insert(&note("c", 1))?;
            s.table::<Other>()?.insert(&Other { id: "x".into() })?;
            Ok(())
        })
    })
    .unwrap();
    let at_three = all(&store);
    let journal = store.journal().unwrap();
    let before_three = journal.before(3).unwrap();
    assert_eq!(journal.after(2).unwrap(), before_three);
    let rewound = in_entry(10, || store.rewind_to(before_three)).unwrap();
    assert_eq!(
        rewound,
        Rewound {
            undone: 1,
            changed: 4
        }
    );
    assert_eq!(all(&store), at_two);
    assert!(store.table::<Other>().unwrap().get("x").unwrap().is_none());
    // The rewind is entry 10: returning to the state before it undoes it.
    let undo_the_rewind = journal.before(10).unwrap();
    in_entry(11, || store.rewind_to(undo_the_rewind)).unwrap();
    assert_eq!(all(&store), at_three);
    // And the state after entry 2 is still there to return to, through both rewinds.
    let after_two = journal.after(2).unwrap();
    in_entry(12, || store.rewind_to(after_two)).unwrap();
    assert_eq!(all(&store), at_two);
}

#[test]
fn a_record_written_without_the_journal_stops_a_rewind_with_nothing_written() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    in_entry(1, || notes.insert(&note("a", 1))).unwrap();
    in_entry(2, || notes.insert(&note("a", 2))).unwrap();
    // Another version of the sandbox wrote the record.
    store
        .db
        .open_tree(Note::TREE)
        .unwrap()
        .insert("a", serde_json::to_vec(&note("a", 5)).unwrap())
        .unwrap();
    let journal = store.journal().unwrap();
    let from = journal.before(1).unwrap();
    let next = journal.next_seq();
    let refused = store.rewind_to(from).unwrap_err();
    assert!(
        matches!(&refused, JournalError::Diverged { tree: "tpp-contacts", key } if key == "a"),
        "{refused}"
    );
    assert_eq!(all(&store), [note("a", 5)]);
    assert_eq!(journal.next_seq(), next, "nothing recorded");
}

#[test]
fn writes_without_a_cause_sit_between_the_entries_given_out() {
    let store = Store::temporary().unwrap();
    let timeline = Arc::new(Counter(AtomicU64::new(0), u64::MAX));
    store.journal().unwrap().attach(timeline.clone()).unwrap();
    let notes = store.table::<Note>().unwrap();
    let first = timeline.reserve().unwrap();
    in_entry(first, || notes.insert(&note("a", 1))).unwrap();
    let second = timeline.reserve().unwrap();
    // A background write after entry 2 was given out, before entry 2 wrote: it belongs after entry 2.
    notes.insert(&note("z", 1)).unwrap();
    in_entry(second, || notes.insert(&note("b", 1))).unwrap();
    let journal = store.journal().unwrap();
    let sets = journal.records_between(0, u64::MAX).unwrap();
    assert_eq!(sets.iter().map(|s| s.pos).collect::<Vec<_>>(), [2, 5, 4]);
    // Before entry 2: the background write (after it in commit order) is undone too.
    assert_eq!(journal.before(second).unwrap(), sets[1].seq);
    // After entry 2: after its own last record.
    assert_eq!(journal.after(second).unwrap(), sets[2].seq + 1);
    // An event cause takes its number when it first writes.
    let ((), event) = cause::as_event("clock", Some(timeline.clone() as Arc<dyn Timeline>), || {
        notes.insert(&note("c", 1)).unwrap();
    });
    assert_eq!(event.unwrap().id(), 3);
    assert_eq!(journal.records_of(3).unwrap().len(), 1);
}

#[test]
fn a_new_journal_reaches_back_to_the_entry_after_the_last_given_out() {
    let store = Store::temporary().unwrap();
    let timeline = Arc::new(Counter(AtomicU64::new(41), u64::MAX));
    let journal = store.journal().unwrap();
    journal.attach(timeline).unwrap();
    assert_eq!(journal.reach().oldest_entry, 42);
    assert!(matches!(
        journal.before(41),
        Err(JournalError::BeyondReach {
            entry: 41,
            oldest: 42
        })
    ));
    assert!(journal.before(42).is_ok());
}

#[test]
fn entries_the_log_forgot_are_beyond_reach_and_their_records_go() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    for id in 1..=10 {
        in_entry(id, || notes.insert(&note("a", id))).unwrap();
    }
    let journal = store.journal().unwrap();
    journal.forget_before(6).unwrap();
    assert_eq!(journal.reach().records, 5);
    assert_eq!(journal.reach().oldest_entry, 6);
    assert!(matches!(
        journal.after(5),
        Err(JournalError::BeyondReach {
            entry: 5,
            oldest: 6
        })
    ));
    let before_six = journal.before(6).unwrap();
    in_entry(11, || store.rewind_to(before_six)).unwrap();
    assert_eq!(all(&store), [note("a", 5)]);
}

#[test]
fn the_journal_keeps_at_most_the_logs_bytes() {
    let store = Store::temporary().unwrap();
    let timeline = Arc::new(Counter(AtomicU64::new(0), 64 * 1024));
    let journal = store.journal().unwrap();
    journal.attach(timeline.clone()).unwrap();
    let notes = store.table::<Note>().unwrap();
    for _ in 0..2000 {
        let id = timeline.reserve().unwrap();
        in_entry(id, || notes.insert(&note(&format!("k{id:04}"), id))).unwrap();
    }
    let reach = journal.reach();
    assert!(reach.bytes <= 64 * 1024, "{reach:?}");
    assert!(reach.oldest_entry > 500, "the oldest go first: {reach:?}");
    assert!(journal.before(reach.oldest_entry).is_ok());
    assert!(journal.before(reach.oldest_entry - 1).is_err());
}

#[test]
fn the_index_and_reach_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let (before_three, reach) = {
        let store = Store::open(dir.path(), &[]).unwrap();
        let notes = store.table::<Note>().unwrap();
        for id in 1..=4 {
            in_entry(id, || notes.insert(&note("a", id))).unwrap();
        }
        let journal = store.journal().unwrap();
        journal.forget_before(2).unwrap();
        let found = (journal.before(3).unwrap(), journal.reach());
        store.close().unwrap();
        found
    };
    let store = Store::open(dir.path(), &[]).unwrap();
    let journal = store.journal().unwrap();
    assert_eq!(journal.before(3).unwrap(), before_three);
    assert_eq!(journal.reach(), reach);
    in_entry(5, || store.rewind_to(before_three)).unwrap();
    assert_eq!(all(&store), [note("a", 2)]);
}

#[test]
fn the_index_is_read_from_the_records_at_open_leaving_out_pruned_positions_and_older_index_entries()
{
    let dir = tempfile::tempdir().unwrap();
    let (reach, before_two, after_two) = {
        let store = Store::open(dir.path(), &[]).unwrap();
        let notes = store.table::<Note>().unwrap();
        in_entry(1, || notes.insert(&note("a", 1))).unwrap();
        in_entry(2, || notes.insert(&note("b", 2))).unwrap();
        // Entry 1 writes again after entry 2 (a late step of its operation): its record comes after
        // entry 2's first one, so pruning entry 1 leaves that record behind.
        in_entry(1, || notes.insert(&note("a", 3))).unwrap();
        in_entry(3, || notes.insert(&note("c", 4))).unwrap();
        let journal = store.journal().unwrap();
        journal.forget_before(2).unwrap();
        // What an older version stored beside every record: an index entry per position.
        journal.tree().insert(key(b'i', 4), &[0u8; 24][..]).unwrap();
        let found = (
            journal.reach(),
            journal.before(2).unwrap(),
            journal.after(2).unwrap(),
        );
        store.close().unwrap();
        found
    };
    let store = Store::open(dir.path(), &[]).unwrap();
    let journal = store.journal().unwrap();
    assert_eq!(journal.reach(), reach, "the same reach, records and bytes");
    assert_eq!(journal.before(2).unwrap(), before_two);
    assert_eq!(journal.after(2).unwrap(), after_two);
    assert!(journal.records_of(1).is_err(), "entry 1 stays beyond reach");
    assert_eq!(
        journal.tree().scan_prefix([b'i']).count(),
        0,
        "the older index entries are gone"
    );
    assert_eq!(journal.records_of(3).unwrap().len(), 1);
}

#[test]
fn the_floor_an_older_version_stored_is_kept_and_an_older_version_finds_every_entry_beyond_reach() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path(), &[]).unwrap();
        let notes = store.table::<Note>().unwrap();
        for id in 1..=4 {
            in_entry(id, || notes.insert(&note("a", id))).unwrap();
        }
        // As the version before this one left it: the floor (the state before entry 3) in `m` only.
        let tree = store.journal().unwrap().tree();
        tree.remove(FLOOR).unwrap();
        tree.insert(OLD_FLOOR, &position_of(3).to_be_bytes())
            .unwrap();
        store.close().unwrap();
    }
    for _ in 0..2 {
        let store = Store::open(dir.path(), &[]).unwrap();
        let journal = store.journal().unwrap();
        assert_eq!(journal.reach().oldest_entry, 3);
        assert!(journal.before(2).is_err());
        let old_floor = journal.tree().get(OLD_FLOOR).unwrap().unwrap();
        assert_eq!(number(&old_floor), u64::MAX, "what an older version reads");
        store.close().unwrap();
    }
}

#[test]
fn a_store_without_the_journal_forgets_it() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path(), &[]).unwrap();
        in_entry(1, || store.table::<Note>().unwrap().insert(&note("a", 1))).unwrap();
        store.close().unwrap();
    }
    {
        let store = Store::open(dir.path(), &[])
            .unwrap()
            .without_journal()
            .unwrap();
        assert!(store.journal().is_none());
        store
            .table::<Note>()
            .unwrap()
            .insert(&note("a", 2))
            .unwrap();
        store.close().unwrap();
    }
    let store = Store::open(dir.path(), &[]).unwrap();
    let journal = store.journal().unwrap();
    assert_eq!(journal.reach().records, 0);
    journal
        .attach(Arc::new(Counter(AtomicU64::new(1), u64::MAX)))
        .unwrap();
    assert!(
        journal.before(1).is_err(),
        "nothing before the restart is reachable"
    );
}

#[test]
fn concurrent_writers_are_undone_in_the_order_their_commits_took_effect() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    notes.insert(&note("shared", 0)).unwrap();
    let start = store.journal().unwrap().next_seq();
    let at_start = all(&store);
    std::thread::scope(|scope| {
        for t in 0..8u64 {
            let store = store.clone();
            scope.spawn(move || {
                for i in 0..50 {
                    in_entry(100 + t * 50 + i, || {
                        store.atomically(|s| -> Result<(), StoreError> {
                            let notes = s.table::<Note>()?;
                            let n = notes.get("shared")?.map_or(0, |n| n.n);
                            notes.insert(&note("shared", n + 1))?;
                            notes.insert(&note(&format!("t{t}"), i))?;
                            Ok(())
                        })
                    })
                    .ok();
                }
            });
        }
    });
    store.rewind_to(start).unwrap();
    assert_eq!(all(&store), at_start);
}
