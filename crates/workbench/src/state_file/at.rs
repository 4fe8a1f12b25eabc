//! The state file of an earlier state: the state as the journal says it was before one of its records,
//! computed from the current state without changing it (the tester's "the state at the moment this
//! request failed", as a fixture for `serve --fixture` and `replay`).
//!
//! The trees are read first, without holding anything; then, under the journal's lock, every record
//! changed from that point up to the newest commit is put back as it was. A record that changed while the
//! trees were read is among those, so the result is exact however busy the sandbox is.

use super::error::FileError;
use super::export::write;
use super::trees::CARRIED;
use std::collections::BTreeMap;
use xs2a_core::store::journal::{Journal, JournalError};
use xs2a_core::store::Store;

/// The state before journal record `from` as a state file (the same bytes an export gave then).
pub fn export_at(store: &Store, journal: &Journal, from: u64) -> Result<Vec<u8>, AtError> {
    let mut trees: BTreeMap<&'static str, BTreeMap<Vec<u8>, Vec<u8>>> = BTreeMap::new();
    for carried in CARRIED {
        trees.insert(
            carried.tree,
            store.raw_records(carried.tree)?.into_iter().collect(),
        );
    }
    let undo = journal.undo_from(from)?;
    for ((tree, key), value) in undo.values {
        let Some(records) = trees.get_mut(tree) else {
            continue;
        };
        match value {
            Some(value) => records.insert(key, value),
            None => records.remove(&key),
        };
    }
    let ordered = CARRIED
        .iter()
        .map(|c| {
            let records = trees.remove(c.tree).unwrap_or_default();
            (c.tree, records.into_values().collect())
        })
        .collect();
    Ok(write(ordered)?)
}

/// Why the state at a point could not be written.
#[derive(Debug)]
pub enum AtError {
    Journal(JournalError),
    File(FileError),
}

impl From<JournalError> for AtError {
    fn from(error: JournalError) -> Self {
        AtError::Journal(error)
    }
}

impl From<FileError> for AtError {
    fn from(error: FileError) -> Self {
        AtError::File(error)
    }
}

impl From<xs2a_core::store::StoreError> for AtError {
    fn from(error: xs2a_core::store::StoreError) -> Self {
        AtError::Journal(error.into())
    }
}
