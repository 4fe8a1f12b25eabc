//! Durable storage: sled behind a small interface the rest of the code owns.
//!
//! Records are JSON in named trees ([`Table`]). Writes are cheap and not yet durable; [`Store::make_durable`]
//! flushes them to disk. The HTTP layer calls it after every request that wrote, before the response leaves,
//! so that a 2xx always means the data survives a kill -9 (see `api::durability`).

mod table;

pub use table::{Record, Table};

use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Decoded copies of whole tables, each tagged with the write count it was read at.
type Snapshots = Mutex<HashMap<&'static str, (u64, Arc<dyn Any + Send + Sync>)>>;

/// A storage failure. Never the client's fault; it becomes a 500 without internals.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("storage: {0}")]
    Sled(#[from] sled::Error),
    #[error("stored record in {tree} could not be decoded: {source}")]
    Decode {
        tree: &'static str,
        source: serde_json::Error,
    },
    #[error("record could not be encoded: {0}")]
    Encode(serde_json::Error),
    #[error("a storage transaction was aborted: {0}")]
    Aborted(String),
}

/// The database. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    /// Bumped by every write; compared with `durable` to know whether a flush is owed.
    written: Arc<AtomicU64>,
    durable: Arc<AtomicU64>,
    /// Read-mostly tables are listed on hot paths; decoding every record from JSON on each read would
    /// dominate their cost, so a decoded copy is kept until the next write anywhere in the store.
    snapshots: Arc<Snapshots>,
}

impl Store {
    /// Opens (or creates) the database in `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Sled(sled::Error::Io(e)))?;
        let db = sled::Config::new()
            .path(dir)
            // Flushing is explicit (after each writing request); sled's periodic flush is a backstop.
            .flush_every_ms(Some(1000))
            .open()?;
        Ok(Self::wrap(db))
    }

    /// A throw-away database deleted when dropped (tests, `serve --ephemeral`).
    pub fn temporary() -> Result<Store, StoreError> {
        let db = sled::Config::new().temporary(true).open()?;
        Ok(Self::wrap(db))
    }

    fn wrap(db: sled::Db) -> Store {
        Store {
            db,
            written: Arc::new(AtomicU64::new(0)),
            durable: Arc::new(AtomicU64::new(0)),
            snapshots: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The typed table of record type `R`.
    pub fn table<R: Record>(&self) -> Result<Table<R>, StoreError> {
        let tree = self.db.open_tree(R::TREE)?;
        Ok(Table::new(tree, self.clone()))
    }

    /// A fresh, strictly increasing number (unique across restarts).
    pub fn next_number(&self) -> Result<u64, StoreError> {
        self.note_write();
        Ok(self.db.generate_id()?)
    }

    /// The number of writes so far; a snapshot taken at this count is current until it changes.
    pub(crate) fn write_count(&self) -> u64 {
        self.written.load(Ordering::SeqCst)
    }

    /// A snapshot of `tree` still current at write count `at`, if one is kept.
    pub(crate) fn snapshot(
        &self,
        tree: &'static str,
        at: u64,
    ) -> Option<Arc<dyn Any + Send + Sync>> {
        let snapshots = self.snapshots.lock().expect("snapshot lock");
        snapshots
            .get(tree)
            .filter(|(taken, _)| *taken == at)
            .map(|(_, s)| Arc::clone(s))
    }

    /// Keeps a snapshot of `tree` read at write count `at`.
    pub(crate) fn keep_snapshot(
        &self,
        tree: &'static str,
        at: u64,
        snapshot: Arc<dyn Any + Send + Sync>,
    ) {
        self.snapshots
            .lock()
            .expect("snapshot lock")
            .insert(tree, (at, snapshot));
    }

    /// Records that a write happened, so the next [`make_durable`](Self::make_durable) flushes.
    pub(crate) fn note_write(&self) {
        self.written.fetch_add(1, Ordering::SeqCst);
    }

    /// True when writes happened since the last flush.
    pub fn has_unflushed_writes(&self) -> bool {
        self.written.load(Ordering::SeqCst) > self.durable.load(Ordering::SeqCst)
    }

    /// Flushes every write made so far to disk. Cheap when nothing was written.
    pub async fn make_durable(&self) -> Result<(), StoreError> {
        let target = self.written.load(Ordering::SeqCst);
        if self.durable.load(Ordering::SeqCst) >= target {
            return Ok(());
        }
        self.db.flush_async().await?;
        self.durable.fetch_max(target, Ordering::SeqCst);
        Ok(())
    }

    /// Removes every record of every tree (sandbox initialisation starts from here).
    pub fn clear_trees(&self, names: &[&str]) -> Result<(), StoreError> {
        for name in names {
            self.db.open_tree(name)?.clear()?;
        }
        self.note_write();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
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
            let store = Store::open(dir.path()).unwrap();
            store.table::<Note>().unwrap().insert(&note("a")).unwrap();
            assert!(store.has_unflushed_writes());
            store.make_durable().await.unwrap();
            assert!(!store.has_unflushed_writes());
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(
            store.table::<Note>().unwrap().get("a").unwrap(),
            Some(note("a"))
        );
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
}
