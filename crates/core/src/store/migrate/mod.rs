//! Format changes of the data directory. A [`Migration`] turns a directory of format N-1 into format N; the
//! list of them is handed to `Store::open` by whoever opens a data directory (the app's list is
//! `crate::bank::migrations`: its entries read records of modules above the store), and the format a list makes
//! is its last entry's.
//! A migration works on a copy of the data directory through [`Migrating`] (the records as stored bytes,
//! and the files beside them); [`upgrade`] runs the list at start, all or nothing across a kill -9, and
//! keeps the directory as it was beside it (docs/data-directory.md).

pub mod files;
pub mod fixture;
pub mod upgrade;

use super::{RawRecords, Record, StoreError};
use std::path::Path;

/// One format change: the function that turns a directory of format `to - 1` into format `to`.
#[derive(Clone, Copy)]
pub struct Migration {
    /// The format version it makes (from the one before).
    pub to: u32,
    /// What changes, in a few words (the start-up log and errors name it).
    pub what: &'static str,
    /// The change, applied to a copy of the directory; an `Err` abandons the whole migration.
    pub run: fn(&Migrating) -> Result<(), MigrationError>,
}

impl std::fmt::Debug for Migration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "migration to format {} ({})", self.to, self.what)
    }
}

/// Why a migration failed; the directory is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MigrationError(pub String);

impl MigrationError {
    pub fn new(text: impl Into<String>) -> Self {
        MigrationError(text.into())
    }
}

impl From<sled::Error> for MigrationError {
    fn from(error: sled::Error) -> Self {
        MigrationError(format!("storage: {error}"))
    }
}

impl From<StoreError> for MigrationError {
    fn from(error: StoreError) -> Self {
        MigrationError(error.to_string())
    }
}

impl From<std::io::Error> for MigrationError {
    fn from(error: std::io::Error) -> Self {
        MigrationError(format!("file: {error}"))
    }
}

/// What [`Migrating::rewrite`] does with one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rewrite {
    /// Leave it as stored.
    Keep,
    /// Store these bytes under the same key instead.
    Put(Vec<u8>),
    /// Remove it.
    Remove,
}

/// The copy of a data directory a migration changes: its database's trees, by name, as stored bytes
/// (registered or not: a migration may read a tree this version no longer has, or make a new one), and
/// the files beside the database ([`Migrating::dir`]). Nothing here is transactional, and nothing needs to
/// be: the copy becomes the data only once every migration has finished and it is on disk.
pub struct Migrating<'a> {
    db: &'a sled::Db,
    dir: &'a Path,
}

impl<'a> Migrating<'a> {
    pub(crate) fn new(db: &'a sled::Db, dir: &'a Path) -> Self {
        Migrating { db, dir }
    }

    /// The copy's directory: files that are not records live here (the traffic log's chunks in
    /// `traffic-log/`). Replace a file by writing a new one and renaming it over the old.
    pub fn dir(&self) -> &Path {
        self.dir
    }

    /// The names of the trees that hold at least one record.
    pub fn tree_names(&self) -> Result<Vec<String>, MigrationError> {
        let mut names = Vec::new();
        for name in self.db.tree_names() {
            let name = String::from_utf8_lossy(&name).into_owned();
            if name != "__sled__default" && !self.db.open_tree(&name)?.is_empty() {
                names.push(name);
            }
        }
        Ok(names)
    }

    /// Every `(key, value)` of `tree`, in key order (an empty list for a tree that does not exist).
    pub fn records(&self, tree: &str) -> Result<RawRecords, MigrationError> {
        let mut records = Vec::new();
        for pair in self.db.open_tree(tree)?.iter() {
            let (key, value) = pair?;
            records.push((key.to_vec(), value.to_vec()));
        }
        Ok(records)
    }

    /// The value under `key` in `tree`.
    pub fn get(&self, tree: &str, key: &[u8]) -> Result<Option<Vec<u8>>, MigrationError> {
        Ok(self.db.open_tree(tree)?.get(key)?.map(|v| v.to_vec()))
    }

    /// Stores `value` under `key` in `tree` (made if it does not exist).
    pub fn put(&self, tree: &str, key: &[u8], value: &[u8]) -> Result<(), MigrationError> {
        self.db.open_tree(tree)?.insert(key, value)?;
        Ok(())
    }

    /// Removes `key` from `tree`.
    pub fn remove(&self, tree: &str, key: &[u8]) -> Result<(), MigrationError> {
        self.db.open_tree(tree)?.remove(key)?;
        Ok(())
    }

    /// Removes the whole of `tree` (a tree the new format no longer has).
    pub fn drop_tree(&self, tree: &str) -> Result<(), MigrationError> {
        self.db.drop_tree(tree)?;
        Ok(())
    }

    /// Calls `change` with every record of `tree`, in key order, and applies what it says; returns how
    /// many records it put or removed. An `Err` stops the migration, and names the tree and key.
    pub fn rewrite(
        &self,
        tree: &str,
        mut change: impl FnMut(&[u8], &[u8]) -> Result<Rewrite, MigrationError>,
    ) -> Result<usize, MigrationError> {
        let handle = self.db.open_tree(tree)?;
        let mut changed = 0;
        for pair in handle.iter() {
            let (key, value) = pair?;
            let outcome = change(&key, &value).map_err(|error| {
                MigrationError(format!(
                    "{tree}, record {}: {error}",
                    String::from_utf8_lossy(&key)
                ))
            })?;
            match outcome {
                Rewrite::Keep => continue,
                Rewrite::Put(bytes) => {
                    handle.insert(&key, bytes)?;
                }
                Rewrite::Remove => {
                    handle.remove(&key)?;
                }
            }
            changed += 1;
        }
        Ok(changed)
    }

    /// Stores every record of `R`'s tree again in `R`'s current form: each is read with
    /// [`Record::from_stored`] (which reads the form before, e.g. JSON) and written with
    /// [`Record::to_stored`]. The migration of a change of encoding is often just this.
    pub fn reencode<R: Record>(&self) -> Result<usize, MigrationError> {
        self.rewrite(R::TREE, |_, value| {
            let record = R::from_stored(value)?;
            let bytes = record.to_stored()?;
            Ok(if bytes == value {
                Rewrite::Keep
            } else {
                Rewrite::Put(bytes)
            })
        })
    }
}

/// The data format a list of migrations makes: the last one's, or the first format with none.
pub fn format_made_by(list: &[Migration]) -> u32 {
    list.last()
        .map_or(super::format::FIRST, |migration| migration.to)
}

/// The format of the data directory `dir` as its format file says (format 1 without one).
pub fn format_of(dir: &Path) -> Result<u32, String> {
    Ok(super::format::read(dir)?.map_or(super::format::FIRST, |file| file.format))
}

/// A pause point for the kill -9 trials: with `XS2A_TEST_MIGRATION_PAUSE=<step>`, the process says so on
/// stderr and waits there for ever (to be killed). Does nothing otherwise.
pub(crate) fn checkpoint(step: &str) {
    if std::env::var("XS2A_TEST_MIGRATION_PAUSE").as_deref() == Ok(step) {
        eprintln!("xs2a-sandbox: migration paused at {step}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

/// The test-only migration (`crate::bank::migrations::active` adds it with `XS2A_TEST_MIGRATION=1`: the kill -9
/// trials need a format change that the released formats do not have yet): a format change that keeps the
/// meaning of every record, so the service works the same after it, and writes enough to be caught
/// half-way.
pub mod test_only {
    use super::{checkpoint, Migrating, Migration, MigrationError, Rewrite};

    /// The test-only migration to format `to`.
    pub fn migration(to: u32) -> Migration {
        Migration {
            to,
            what: "test only: every customer and account stored again with its members in another order",
            run,
        }
    }

    fn run(migrating: &Migrating) -> Result<(), MigrationError> {
        for tree in ["sandbox-customers", "sandbox-accounts"] {
            migrating.rewrite(tree, |_, value| {
                // Through a JSON tree, whose members are in name order: the same record in other bytes.
                let record: serde_json::Value = serde_json::from_slice(value)
                    .map_err(|e| MigrationError::new(e.to_string()))?;
                Ok(Rewrite::Put(serde_json::to_vec(&record).expect("JSON")))
            })?;
            checkpoint(&format!("test-migration-{tree}"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
