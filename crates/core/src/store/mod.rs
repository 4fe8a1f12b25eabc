//! Durable storage: sled behind a small interface the rest of the code owns.
//!
//! Records are JSON in named trees ([`Table`]), every tree listed in the [`registry`]. Two guarantees:
//! - **All or nothing.** An operation that writes several records runs inside [`Store::atomically`]: its
//!   writes are held in memory (reads inside it see them) and committed in one sled transaction over all
//!   the trees it touched, which sled recovers whole or not at all after a crash. An operation that fails
//!   part-way writes nothing.
//! - **A 2xx means on disk.** A request that wrote waits, before its answer leaves, until the
//!   [`flusher`] has made its writes durable (group commit; see `api::layers::durability`).

mod commit;
mod deferred_frees;
mod flusher;
pub mod format;
pub mod initialised;
pub mod journal;
pub mod locks;
pub mod migrate;
mod overlay;
mod raw;
pub mod registry;
mod table;

pub use deferred_frees::release_deferred_frees;
pub use migrate::upgrade::DataFormat;
pub use migrate::Migration;
pub use raw::RawRecords;
pub use table::{Record, Table};

use flusher::{Counters, Flusher};
use locks::Locks;
use overlay::WriteBuffer;
use std::any::Any;
use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The most memory sled's page cache takes, unless the opener asks for another bound ([`Store::open_with`]).
pub const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Decoded copies of whole tables, each tagged with the write count it was read at.
type Snapshots = Mutex<HashMap<&'static str, (u64, Arc<dyn Any + Send + Sync>)>>;

tokio::task_local! {
    /// The highest write number made by the request running on this task (see [`track_writes`]).
    static REQUEST_WRITES: Arc<AtomicU64>;
}

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
    #[error("stored record in {tree} could not be read: {reason}")]
    Damaged { tree: &'static str, reason: String },
    #[error("record could not be encoded: {0}")]
    Encode(serde_json::Error),
    #[error("a storage transaction was aborted: {0}")]
    Aborted(String),
    #[error("the tree {0} is not in the store's registry")]
    Unregistered(&'static str),
    #[error("another process holds the data directory {0}")]
    Locked(String),
    /// The directory was written by a newer version; the text names both versions and what to do.
    #[error("{0}")]
    NewerFormat(String),
    /// The format file cannot be read or understood.
    #[error("{0}")]
    Format(String),
    /// A migration (or the file steps around it) failed; the directory is as it was.
    #[error("{0}")]
    Migration(String),
}

// The store turns its own failures into the internal refusal here, below the rules that meet them with `?`:
// the refusal (domain) knows nothing of storage.
impl From<StoreError> for crate::domain::refusal::Refusal {
    fn from(error: StoreError) -> Self {
        crate::domain::refusal::Refusal::internal(error)
    }
}

/// The database. Cheap to clone; clones share everything (a clone made inside [`Store::atomically`] also
/// shares that operation's pending writes).
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    counters: Arc<Counters>,
    flusher: Flusher,
    /// Read-mostly tables are listed on hot paths; decoding every record from JSON on each read would
    /// dominate their cost, so a decoded copy is kept until the next write to the state's trees.
    snapshots: Arc<Snapshots>,
    /// Counts writes to every tree but the logs (see [`registry::Kind::Log`]): snapshots are tagged with
    /// it, so that the traffic log, written on every request, does not throw them away each time.
    generation: Arc<AtomicU64>,
    locks: Arc<Locks>,
    /// The data directory (None for a temporary database).
    dir: Option<Arc<Path>>,
    /// The directory's data format, and its last migration.
    format: Arc<DataFormat>,
    /// Set inside [`Store::atomically`]: writes go here and are committed together at its end.
    pending: Option<Arc<Mutex<WriteBuffer>>>,
    /// What every commit changed (None when the store runs without it: `serve --no-journal`).
    journal: Option<Arc<journal::Journal>>,
}

impl Store {
    /// Opens (or creates) the database in `dir`, in the format the format changes `migrations` make (the
    /// app's are `crate::bank::migrations::active()`). Its format file is read first: a directory of a newer
    /// format is refused with nothing written, one of an older format migrated (see [`migrate::upgrade`]).
    pub fn open(dir: &Path, migrations: &[Migration]) -> Result<Store, StoreError> {
        Store::open_with(dir, migrations, CACHE_BYTES)
    }

    /// [`Store::open`] for a directory whose holder has just let it go (a server stopped and waited for, a
    /// store closed and dropped): its lock can outlive the holder by a moment, because a process forked at
    /// that moment (any `Command` in the same program) holds a copy of every open file until its exec, and
    /// sled's own threads let go of theirs after the last handle. So Locked is tried again, `tries` times
    /// at most, 10 ms apart; anything else is answered at once.
    pub fn open_once_released(
        dir: &Path,
        migrations: &[Migration],
        tries: u32,
    ) -> Result<Store, StoreError> {
        let mut tried = 1;
        loop {
            match Store::open(dir, migrations) {
                Err(StoreError::Locked(_)) if tried < tries => {
                    tried += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                other => return other,
            }
        }
    }

    /// [`Store::open`] with a page cache of at most `cache_bytes`.
    pub fn open_with(
        dir: &Path,
        migrations: &[Migration],
        cache_bytes: u64,
    ) -> Result<Store, StoreError> {
        let format = migrate::upgrade::prepare(dir, migrations)?;
        let db = sled::Config::new()
            .path(dir)
            // The flusher thread is the only one that flushes (see `flusher`).
            .flush_every_ms(None)
            // sled's page cache defaults to 1 GiB; a sandbox's working set is small, and a bounded cache
            // keeps the process's memory flat however much traffic passes through.
            .cache_capacity(cache_bytes)
            .open()
            .map_err(|error| match error {
                sled::Error::Io(io) if io.to_string().contains("lock") => {
                    StoreError::Locked(dir.display().to_string())
                }
                other => StoreError::Sled(other),
            })?;
        Self::wrap(db, Some(dir), format)
    }

    /// A throw-away database deleted when dropped (tests). It says it is in the first format: nothing else
    /// ever reads it, and `serve --ephemeral` makes its own with [`Store::temporary_with`].
    pub fn temporary() -> Result<Store, StoreError> {
        Store::temporary_with(&[], CACHE_BYTES)
    }

    /// A throw-away database with a page cache of at most `cache_bytes`, saying it is in the format the
    /// format changes `migrations` make (the session shows it).
    pub fn temporary_with(migrations: &[Migration], cache_bytes: u64) -> Result<Store, StoreError> {
        let db = sled::Config::new()
            .temporary(true)
            .flush_every_ms(None)
            .cache_capacity(cache_bytes)
            .open()?;
        Self::wrap(db, None, DataFormat::temporary(migrations))
    }

    fn wrap(db: sled::Db, dir: Option<&Path>, format: DataFormat) -> Result<Store, StoreError> {
        let journal = Arc::new(journal::Journal::open(&db)?);
        let counters = Arc::new(Counters {
            written: AtomicU64::new(0),
            durable: AtomicU64::new(0),
        });
        Ok(Store {
            flusher: Flusher::start(db.clone(), Arc::clone(&counters)),
            db,
            counters,
            snapshots: Arc::new(Mutex::new(HashMap::new())),
            generation: Arc::new(AtomicU64::new(0)),
            locks: Arc::new(Locks::default()),
            dir: dir.map(Arc::from),
            format: Arc::new(format),
            pending: None,
            journal: Some(journal),
        })
    }

    /// This store without the change journal (`serve --no-journal`): its records are removed, since what
    /// happens while it is off is not seen, and nothing recorded before could be undone afterwards.
    /// Call it before the store is cloned.
    pub fn without_journal(mut self) -> Result<Store, StoreError> {
        journal::Journal::clear(&self.db)?;
        self.journal = None;
        Ok(self)
    }

    /// The change journal, unless the store runs without it.
    pub fn journal(&self) -> Option<&journal::Journal> {
        self.journal.as_deref()
    }

    /// Whether writes to `tree` are journaled (and so committed as operations, never as bare writes).
    pub(crate) fn journals(&self, tree: &str) -> bool {
        self.journal.is_some() && journal::covers(tree)
    }

    /// The typed table of record type `R`.
    pub fn table<R: Record>(&self) -> Result<Table<R>, StoreError> {
        if registry::find(R::TREE).is_none() && !R::TREE.starts_with("test-") {
            return Err(StoreError::Unregistered(R::TREE));
        }
        let tree = self.db.open_tree(R::TREE)?;
        Ok(Table::new(tree, self.clone()))
    }

    /// The data directory, where files that are not records live beside the database (the traffic log's
    /// chunks); None for a temporary database.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The data format of the directory, and its last migration (the workbench's session shows it).
    pub fn data_format(&self) -> &DataFormat {
        &self.format
    }

    /// The locks of this store's read-modify-write operations.
    pub fn locks(&self) -> &Locks {
        &self.locks
    }

    /// Runs `operation` so that its writes are applied all together or not at all: they are held until it
    /// returns `Ok` and then committed in one transaction; on `Err` (or a panic) nothing is written. Inside,
    /// the `Store` the operation receives reads its own pending writes. Nested calls join the outer one.
    pub fn atomically<T, E>(&self, operation: impl FnOnce(&Store) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        if self.pending.is_some() {
            return operation(self);
        }
        let scoped = Store {
            pending: Some(Arc::new(Mutex::new(WriteBuffer::default()))),
            ..self.clone()
        };
        let value = operation(&scoped)?;
        let buffer = std::mem::take(
            &mut *scoped
                .pending
                .as_ref()
                .expect("set above")
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        );
        self.commit(buffer)?;
        Ok(value)
    }

    /// The pending writes of the operation this store handle belongs to, if any.
    pub(crate) fn pending(&self) -> Option<std::sync::MutexGuard<'_, WriteBuffer>> {
        self.pending
            .as_ref()
            .map(|p| p.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// A fresh, strictly increasing number (unique across restarts).
    pub fn next_number(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id()?)
    }

    /// The number of writes to trees that are not logs so far; a snapshot taken at this count is current
    /// until it changes. (Log trees are never snapshotted: see [`Table::list_shared`].)
    pub(crate) fn write_count(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
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

    /// Records that a write to `trees` reached sled: takes the next write number, and tells the request
    /// running on this task (if any) that it now owes durability up to it; a write to any tree but the
    /// logs also ends the snapshots' validity.
    pub(crate) fn note_write(&self, trees: &[&str]) {
        if trees.iter().any(|name| !is_log(name)) {
            self.generation.fetch_add(1, Ordering::SeqCst);
        }
        let number = self.counters.written.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = REQUEST_WRITES.try_with(|w| w.fetch_max(number, Ordering::SeqCst));
    }

    /// The number of the last write made so far.
    pub fn last_write(&self) -> u64 {
        self.counters.written.load(Ordering::SeqCst)
    }

    /// True when writes happened that are not yet on disk.
    pub fn has_unflushed_writes(&self) -> bool {
        self.counters.written.load(Ordering::SeqCst) > self.counters.durable.load(Ordering::SeqCst)
    }

    /// Waits until every write made so far is on disk (group commit: see [`flusher`]).
    pub async fn make_durable(&self) -> Result<(), StoreError> {
        self.make_durable_up_to(self.last_write()).await
    }

    /// Waits until the writes numbered up to `write` are on disk.
    pub async fn make_durable_up_to(&self, write: u64) -> Result<(), StoreError> {
        self.flusher
            .wait_for(write)
            .await
            .map_err(StoreError::Aborted)
    }

    /// Flushes synchronously (start-up and shutdown, outside any request).
    pub fn flush_now(&self) -> Result<(), StoreError> {
        let target = self.last_write();
        self.db.flush()?;
        self.counters.durable.fetch_max(target, Ordering::SeqCst);
        Ok(())
    }

    /// Stops the flusher thread after a last flush, so that the directory can be opened again at once.
    pub fn close(&self) -> Result<(), StoreError> {
        self.flush_now()?;
        self.flusher.stop();
        Ok(())
    }

    /// Empties the named trees, all at once (inside an operation: with its other writes).
    pub fn clear_trees(&self, names: &[&'static str]) -> Result<(), StoreError> {
        self.atomically(|store| {
            let mut pending = store.pending().expect("inside atomically");
            for name in names {
                pending.clear(name);
            }
            Ok(())
        })
    }

    /// Whether any of the named trees holds a record on disk (read at start-up, before any operation).
    pub fn any_record_in(&self, names: &[&str]) -> Result<bool, StoreError> {
        for name in names {
            if !self.db.open_tree(name)?.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The names of the trees on disk that hold records but are not in the registry (left by another
    /// version of the sandbox); reported at start-up, never touched.
    pub fn unknown_trees(&self) -> Vec<String> {
        self.db
            .tree_names()
            .into_iter()
            .map(|n| String::from_utf8_lossy(&n).into_owned())
            .filter(|n| n != "__sled__default" && registry::find(n).is_none())
            .filter(|n| self.db.open_tree(n).map(|t| !t.is_empty()).unwrap_or(false))
            .collect()
    }
}

/// Whether `tree` is a log (its writes leave the snapshots of other trees current).
pub(crate) fn is_log(tree: &str) -> bool {
    registry::find(tree).is_some_and(|info| info.kind == registry::Kind::Log)
}

/// Runs a request's future and returns, with its output, the number of the last write it made (0 when
/// it wrote nothing), so the caller can wait for exactly that much durability.
pub async fn track_writes<F: Future>(future: F) -> (F::Output, u64) {
    let writes = Arc::new(AtomicU64::new(0));
    let output = REQUEST_WRITES.scope(Arc::clone(&writes), future).await;
    (output, writes.load(Ordering::SeqCst))
}

#[cfg(test)]
mod tests;

pub mod codec;
