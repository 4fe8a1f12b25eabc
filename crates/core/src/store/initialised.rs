//! Whether a data directory has been initialised: seeded at its first start, or given its state by a
//! fixture or an import. Only a directory never initialised is seeded when the service starts, so a
//! fixture that starts from an empty bank, or a sandbox whose user removed every customer, stays as it
//! was set across restarts and kill -9 (docs/data-directory.md).
//!
//! The marker lives in a tree of its own, of the log kind: state files do not carry it, an import or a
//! reset does not clear it, and rewind does not undo it (returning to before the seed is still a choice
//! the user made, not a directory to seed again).

use super::{RawRecords, Record, Store, StoreError};
use serde::{Deserialize, Serialize};

/// The one marker record.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Initialised {
    /// How the directory got its first state: `seed`, `state file` or `existing data` (a directory of a
    /// version before the marker, found holding data).
    how: String,
}

const KEY: &str = "initialised";

impl Record for Initialised {
    const TREE: &'static str = "data-directory";
    fn key(&self) -> String {
        KEY.to_owned()
    }
}

/// True once the directory was initialised (seeded, or given a state by a fixture or import).
pub fn is_initialised(store: &Store) -> Result<bool, StoreError> {
    Ok(store.table::<Initialised>()?.get(KEY)?.is_some())
}

/// Marks the directory initialised. Inside [`Store::atomically`] it commits with the operation's other
/// writes (the seed), so a kill -9 leaves either both or neither.
pub fn mark(store: &Store, how: &str) -> Result<(), StoreError> {
    store.table::<Initialised>()?.insert(&Initialised {
        how: how.to_owned(),
    })
}

/// The marker as a raw write, for an import that commits its records through [`Store::write_raw`]: the
/// state and the marker land in the same commit.
pub fn marker_write(how: &str) -> Result<(&'static str, RawRecords), StoreError> {
    let record = Initialised {
        how: how.to_owned(),
    };
    Ok((
        Initialised::TREE,
        vec![(KEY.as_bytes().to_vec(), record.to_stored()?)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_store_is_not_initialised_until_marked_and_an_import_write_marks_it() {
        let store = Store::temporary().unwrap();
        assert!(!is_initialised(&store).unwrap());
        mark(&store, "seed").unwrap();
        assert!(is_initialised(&store).unwrap());

        let other = Store::temporary().unwrap();
        other
            .write_raw(&[], vec![marker_write("state file").unwrap()])
            .unwrap();
        assert!(is_initialised(&other).unwrap());
    }
}
