//! Whole trees as stored bytes, for the state file (`crate::state_file`): reading every record of a tree
//! without decoding it, and replacing or extending trees with records already encoded, all in one commit.

use super::{registry, Store, StoreError};

/// One tree's stored `(key, value)` pairs, in key order.
pub type RawRecords = Vec<(Vec<u8>, Vec<u8>)>;

impl Store {
    /// Every stored record of the registered tree `name`, as bytes, in key order. Outside an operation:
    /// what is committed.
    pub fn raw_records(&self, name: &'static str) -> Result<RawRecords, StoreError> {
        if registry::find(name).is_none() {
            return Err(StoreError::Unregistered(name));
        }
        let tree = self.db.open_tree(name)?;
        tree.iter()
            .map(|pair| {
                pair.map(|(k, v)| (k.to_vec(), v.to_vec()))
                    .map_err(StoreError::from)
            })
            .collect()
    }

    /// The stored value under `key` in tree `name` (committed data only).
    pub fn raw_get(&self, name: &'static str, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.db.open_tree(name)?.get(key)?.map(|v| v.to_vec()))
    }

    /// Writes encoded records: each tree in `cleared` is emptied first, then every record is put. All of
    /// it is one commit (joined to the surrounding operation, if any): after a crash either every write
    /// is there or none is.
    pub fn write_raw(
        &self,
        cleared: &[&'static str],
        records: Vec<(&'static str, RawRecords)>,
    ) -> Result<(), StoreError> {
        self.atomically(|store| {
            let mut pending = store.pending().expect("inside atomically");
            for name in cleared {
                pending.clear(name);
            }
            for (name, pairs) in records {
                for (key, value) in pairs {
                    pending.put(name, key, value);
                }
            }
            Ok(())
        })
    }
}
