//! The store's guarantees: durable after `make_durable`, all or nothing inside `atomically`, reads that see
//! an operation's own writes, and group commit under many concurrent writers.

use super::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Note {
    id: String,
    text: String,
}

impl Record for Note {
    const TREE: &'static str = "test-notes";
    fn key(&self) -> String {
        self.id.clone()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Tag {
    id: String,
}

impl Record for Tag {
    const TREE: &'static str = "test-tags";
    fn key(&self) -> String {
        self.id.clone()
    }
}

fn note(id: &str) -> Note {
    Note {
        id: id.into(),
        text: format!("note {id}"),
    }
}

#[tokio::test]
async fn records_survive_reopening_after_being_made_durable() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path(), &[]).unwrap();
        store.table::<Note>().unwrap().insert(&note("a")).unwrap();
        assert!(store.has_unflushed_writes());
        store.make_durable().await.unwrap();
        assert!(!store.has_unflushed_writes());
        store.close().unwrap();
    }
    let store = Store::open(dir.path(), &[]).unwrap();
    assert_eq!(
        store.table::<Note>().unwrap().get("a").unwrap(),
        Some(note("a"))
    );
}

#[tokio::test]
async fn a_second_open_of_a_held_directory_says_it_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let _first = Store::open(dir.path(), &[]).unwrap();
    assert!(matches!(
        Store::open(dir.path(), &[]),
        Err(StoreError::Locked(_))
    ));
}

#[test]
fn open_once_released_waits_out_a_holder_that_lets_go_and_not_one_that_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = Store::open(dir.path(), &[]).unwrap();
    assert!(matches!(
        Store::open_once_released(dir.path(), &[], 3),
        Err(StoreError::Locked(_))
    ));
    let holder = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        first.close().unwrap();
        drop(first);
    });
    // 1,000 tries are 10 s of waiting at least: far beyond the holder's 50 ms on any machine.
    let second = Store::open_once_released(dir.path(), &[], 1_000);
    holder.join().unwrap();
    assert!(second.is_ok(), "{:?}", second.err());
}

#[tokio::test]
async fn insert_new_refuses_an_existing_key() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    assert!(notes.insert_new(&note("a")).unwrap());
    assert!(!notes.insert_new(&note("a")).unwrap());
    assert_eq!(notes.list().unwrap().len(), 1);
}

#[tokio::test]
async fn prefix_scans_return_records_in_key_order() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    for id in ["x/2", "x/1", "y/1"] {
        notes.insert(&note(id)).unwrap();
    }
    let ids: Vec<_> = notes
        .scan_prefix("x/")
        .unwrap()
        .into_iter()
        .map(|n| n.id)
        .collect();
    assert_eq!(ids, ["x/1", "x/2"]);
    notes.remove("x/1").unwrap();
    assert_eq!(notes.scan_prefix("x/").unwrap().len(), 1);
    assert_eq!(
        notes.list_shared().unwrap().len(),
        2,
        "a write makes the snapshot stale"
    );
}

#[test]
fn writes_to_a_log_leave_the_snapshots_of_other_trees_current() {
    let store = Store::temporary().unwrap();
    let notes = store.table::<Note>().unwrap();
    notes.insert(&note("a")).unwrap();
    let before = notes.list_shared().unwrap();
    store
        .write_raw(
            &[],
            vec![("traffic-totals", vec![(b"k".to_vec(), b"{}".to_vec())])],
        )
        .unwrap();
    assert!(
        Arc::ptr_eq(&before, &notes.list_shared().unwrap()),
        "a log's write keeps the snapshot"
    );
    store
        .table::<Tag>()
        .unwrap()
        .insert(&Tag { id: "t".into() })
        .unwrap();
    assert!(
        !Arc::ptr_eq(&before, &notes.list_shared().unwrap()),
        "any other write makes it stale"
    );
    assert_eq!(
        store.last_write(),
        3,
        "every write still counts for durability"
    );
}

#[test]
fn an_operation_sees_its_own_writes_and_others_see_them_only_after_it_commits() {
    let store = Store::temporary().unwrap();
    store.table::<Note>().unwrap().insert(&note("a")).unwrap();
    store
        .atomically(|inside| -> Result<(), StoreError> {
            let notes = inside.table::<Note>()?;
            notes.insert(&note("b"))?;
            notes.remove("a")?;
            assert_eq!(notes.get("b")?, Some(note("b")));
            assert_eq!(notes.get("a")?, None);
            assert_eq!(notes.keys_with_prefix("")?, ["b"]);
            assert_eq!(notes.len(), 1);
            let outside = store.table::<Note>()?;
            assert_eq!(outside.get("a")?, Some(note("a")), "not yet committed");
            assert_eq!(outside.get("b")?, None);
            Ok(())
        })
        .unwrap();
    let notes = store.table::<Note>().unwrap();
    assert_eq!(notes.get("a").unwrap(), None);
    assert_eq!(notes.get("b").unwrap(), Some(note("b")));
}

#[test]
fn a_failed_operation_writes_nothing_to_any_tree() {
    let store = Store::temporary().unwrap();
    let outcome: Result<(), StoreError> = store.atomically(|inside| {
        inside.table::<Note>()?.insert(&note("a"))?;
        inside.table::<Tag>()?.insert(&Tag { id: "t".into() })?;
        Err(StoreError::Aborted(
            "the operation was refused part-way".into(),
        ))
    });
    assert!(outcome.is_err());
    assert!(store.table::<Note>().unwrap().is_empty());
    assert!(store.table::<Tag>().unwrap().is_empty());
}

#[test]
fn clearing_inside_an_operation_removes_the_stored_records_at_commit_only() {
    let store = Store::temporary().unwrap();
    for id in ["a", "b"] {
        store.table::<Note>().unwrap().insert(&note(id)).unwrap();
    }
    store
        .atomically(|inside| -> Result<(), StoreError> {
            inside.clear_trees(&["test-notes"])?;
            inside.table::<Note>()?.insert(&note("c"))?;
            assert_eq!(inside.table::<Note>()?.keys_with_prefix("")?, ["c"]);
            assert_eq!(store.table::<Note>()?.len(), 2);
            Ok(())
        })
        .unwrap();
    assert_eq!(
        store.table::<Note>().unwrap().keys_with_prefix("").unwrap(),
        ["c"]
    );
}

#[test]
fn an_insert_new_that_lost_a_race_aborts_the_whole_operation() {
    let store = Store::temporary().unwrap();
    let outcome: Result<(), StoreError> = store.atomically(|inside| {
        assert!(inside.table::<Note>()?.insert_new(&note("a"))?);
        inside.table::<Tag>()?.insert(&Tag { id: "t".into() })?;
        // Another writer takes the key before this operation commits.
        store.table::<Note>()?.insert(&note("a"))?;
        Ok(())
    });
    assert!(matches!(outcome, Err(StoreError::Aborted(_))));
    assert!(store.table::<Tag>().unwrap().is_empty());
}

#[test]
fn a_table_outside_the_registry_is_refused() {
    #[derive(Serialize, Deserialize)]
    struct Stray;
    impl Record for Stray {
        const TREE: &'static str = "not-registered";
        fn key(&self) -> String {
            String::new()
        }
    }
    assert!(matches!(
        Store::temporary().unwrap().table::<Stray>(),
        Err(StoreError::Unregistered("not-registered"))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_writers_waiting_for_durability_all_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &[]).unwrap();
    let mut writers = tokio::task::JoinSet::new();
    for w in 0..64 {
        let store = store.clone();
        writers.spawn(async move {
            for i in 0..20 {
                let (_, wrote) = track_writes(async {
                    store
                        .table::<Note>()
                        .unwrap()
                        .insert(&note(&format!("{w}/{i}")))
                        .unwrap();
                })
                .await;
                assert!(wrote > 0);
                store.make_durable_up_to(wrote).await.unwrap();
            }
        });
    }
    let all = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while let Some(done) = writers.join_next().await {
            done.unwrap();
        }
    })
    .await;
    assert!(all.is_ok(), "the writers finished (no deadlock)");
    assert!(!store.has_unflushed_writes());
    assert_eq!(store.table::<Note>().unwrap().len(), 64 * 20);
}
