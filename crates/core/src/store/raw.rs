//! Whole trees as stored bytes, for the state file (`crate::state_file`): reading every record of a tree
//! without decoding it, and replacing or extending trees with records already encoded, all in one commit.

use super::{registry, Store, StoreError};
use std::collections::HashMap;

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

    /// Calls `each` with every stored `(key, value)` of the registered tree `name`, in key order, without
    /// copying them (committed data only).
    pub fn raw_for_each(
        &self,
        name: &'static str,
        mut each: impl FnMut(&[u8], &[u8]),
    ) -> Result<(), StoreError> {
        if registry::find(name).is_none() {
            return Err(StoreError::Unregistered(name));
        }
        for pair in self.db.open_tree(name)?.iter() {
            let (k, v) = pair?;
            each(&k, &v);
        }
        Ok(())
    }

    /// Writes encoded records: each tree in `cleared` is emptied first, then every record is put. All of
    /// it is one commit (joined to the surrounding operation, if any): after a crash either every write
    /// is there or none is.
    ///
    /// Outside an operation (an import), each tree's writes go straight into one `sled::Batch`, all the
    /// batches applied in the one transaction [`Store::atomically`] uses: in a cleared tree, a stored
    /// record the new state does not hold is removed, and one it holds unchanged (same bytes) is left as
    /// it is instead of being written again.
    pub fn write_raw(
        &self,
        cleared: &[&'static str],
        records: Vec<(&'static str, RawRecords)>,
    ) -> Result<(), StoreError> {
        // Journaled, the writes go through an operation: its commit reads what each write replaces for
        // the journal, and leaves records whose bytes do not change as they are.
        if self.pending.is_some() || self.journal.is_some() {
            return self.atomically(|store| {
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
            });
        }
        let mut by_tree: Vec<(&'static str, RawRecords)> = Vec::with_capacity(records.len());
        for name in cleared {
            if !records.iter().any(|(n, _)| n == name) && !by_tree.iter().any(|(n, _)| n == name) {
                by_tree.push((name, Vec::new()));
            }
        }
        by_tree.extend(records);
        let mut names = Vec::with_capacity(by_tree.len());
        let mut trees = Vec::with_capacity(by_tree.len());
        let mut batches = Vec::with_capacity(by_tree.len());
        for (name, pairs) in by_tree {
            if registry::find(name).is_none() {
                return Err(StoreError::Unregistered(name));
            }
            let tree = self.db.open_tree(name)?;
            let mut batch = sled::Batch::default();
            // Writes left out of the batch: a record stored with the same bytes, or one written again
            // later in `pairs` (the later write wins, as in the write buffer).
            let mut skip = vec![false; pairs.len()];
            if cleared.contains(&name) {
                let index: HashMap<&[u8], usize> = pairs
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (k.as_slice(), i))
                    .collect();
                for (i, (key, _)) in pairs.iter().enumerate() {
                    skip[i] = index[key.as_slice()] != i;
                }
                for pair in tree.iter() {
                    let (key, value) = pair?;
                    match index.get(key.as_ref()) {
                        None => batch.remove(key),
                        Some(&i) => skip[i] = pairs[i].1 == value.as_ref(),
                    }
                }
            }
            for ((key, value), skip) in pairs.into_iter().zip(skip) {
                if !skip {
                    batch.insert(key, value);
                }
            }
            names.push(name);
            trees.push(tree);
            batches.push(batch);
        }
        let checks = vec![Default::default(); names.len()];
        self.apply_batches(&names, &trees, &batches, &checks)?;
        Ok(())
    }
}
