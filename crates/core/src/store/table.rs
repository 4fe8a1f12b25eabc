//! A typed view of one sled tree: JSON records under string keys, listed in key order. Inside
//! [`Store::atomically`] every method reads through the operation's pending writes and writes into them.

use super::overlay::Lookup;
use super::{Store, StoreError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;
use std::sync::Arc;

/// A type stored in its own tree under a string key.
pub trait Record: Serialize + DeserializeOwned {
    /// The tree's name; part of the on-disk format, so never rename one. Listed in `store::registry`.
    const TREE: &'static str;
    /// The record's key. Keys sort byte-wise, so composite keys (`owner/sequence`) list in order.
    fn key(&self) -> String;

    /// The stored bytes: JSON, unless the type has a form of its own (and then reads its JSON too).
    fn to_stored(&self) -> Result<Vec<u8>, StoreError> {
        serde_json::to_vec(self).map_err(StoreError::Encode)
    }

    /// The record of stored bytes.
    fn from_stored(bytes: &[u8]) -> Result<Self, StoreError> {
        serde_json::from_slice(bytes).map_err(|source| StoreError::Decode {
            tree: Self::TREE,
            source,
        })
    }
}

/// The records of type `R`.
pub struct Table<R> {
    tree: sled::Tree,
    store: Store,
    _record: PhantomData<R>,
}

use super::overlay::Pairs;

impl<R: Record> Table<R> {
    pub(super) fn new(tree: sled::Tree, store: Store) -> Self {
        Table {
            tree,
            store,
            _record: PhantomData,
        }
    }

    fn decode(bytes: &[u8]) -> Result<R, StoreError> {
        R::from_stored(bytes)
    }

    fn encode(record: &R) -> Result<Vec<u8>, StoreError> {
        record.to_stored()
    }

    /// True when this handle belongs to an operation that has pending writes to this tree.
    fn touched(&self) -> bool {
        self.store
            .pending()
            .is_some_and(|p| p.trees.contains_key(R::TREE))
    }

    /// True when a write outside an operation must become an operation of its own: the tree is journaled,
    /// and the journal's record is committed with the write.
    fn through_journal(&self) -> bool {
        self.store.pending.is_none() && self.store.journals(R::TREE)
    }

    /// `write` as an operation of its own, on this table as the operation sees it.
    fn as_operation<T>(
        &self,
        write: impl FnOnce(&Table<R>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.store.atomically(|store| write(&store.table::<R>()?))
    }

    /// The stored pairs under `prefix` with the operation's pending writes applied.
    fn merged(&self, prefix: &str) -> Result<Pairs, StoreError> {
        let stored = self
            .tree
            .scan_prefix(prefix)
            .map(|pair| pair.map(|(k, v)| (k.to_vec(), v.to_vec())));
        let pending = self.store.pending().expect("only called when touched");
        Ok(pending.merge(R::TREE, prefix.as_bytes(), stored)?)
    }

    /// The raw bytes under `key` as this operation sees them.
    fn get_raw(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(pending) = self.store.pending() {
            match pending.lookup(R::TREE, key.as_bytes()) {
                Lookup::Pending(value) => return Ok(value.clone()),
                Lookup::Cleared => return Ok(None),
                Lookup::Untouched => {}
            }
        }
        Ok(self.tree.get(key)?.map(|v| v.to_vec()))
    }

    /// The record under `key`, if any.
    pub fn get(&self, key: &str) -> Result<Option<R>, StoreError> {
        self.get_raw(key)?.map(|v| Self::decode(&v)).transpose()
    }

    /// Writes the record, replacing any record under the same key.
    pub fn insert(&self, record: &R) -> Result<(), StoreError> {
        if self.through_journal() {
            return self.as_operation(|table| table.insert(record));
        }
        let value = Self::encode(record)?;
        if let Some(mut pending) = self.store.pending() {
            pending.put(R::TREE, record.key().into_bytes(), value);
            return Ok(());
        }
        self.tree.insert(record.key(), value)?;
        self.store.note_write(&[R::TREE]);
        Ok(())
    }

    /// Writes the record only if its key is free; false when it was taken (nothing written).
    pub fn insert_new(&self, record: &R) -> Result<bool, StoreError> {
        if self.through_journal() {
            // "Only if absent" is checked again by the commit: a record written first by another
            // operation aborts it, which is what the answer false means here.
            return match self.as_operation(|table| table.insert_new(record)) {
                Err(StoreError::Aborted(_)) => Ok(false),
                other => other,
            };
        }
        let key = record.key();
        let value = Self::encode(record)?;
        if self.store.pending().is_some() {
            if self.get_raw(&key)?.is_some() {
                return Ok(false);
            }
            let mut pending = self.store.pending().expect("checked");
            pending.put_new(R::TREE, key.into_bytes(), value);
            return Ok(true);
        }
        let swapped = self
            .tree
            .compare_and_swap(key, None as Option<&[u8]>, Some(value))?;
        if swapped.is_ok() {
            self.store.note_write(&[R::TREE]);
        }
        Ok(swapped.is_ok())
    }

    /// Removes the record under `key`; returns it if there was one.
    pub fn remove(&self, key: &str) -> Result<Option<R>, StoreError> {
        if self.through_journal() {
            return self.as_operation(|table| table.remove(key));
        }
        if self.store.pending().is_some() {
            let old = self.get_raw(key)?;
            if old.is_some() {
                let mut pending = self.store.pending().expect("checked");
                pending.remove(R::TREE, key.as_bytes().to_vec());
            }
            return old.map(|v| Self::decode(&v)).transpose();
        }
        let old = self.tree.remove(key)?;
        if old.is_some() {
            self.store.note_write(&[R::TREE]);
        }
        old.map(|v| Self::decode(&v)).transpose()
    }

    /// Removes the records under `keys` without reading them (inside an operation: with its other writes).
    pub fn delete_many(&self, keys: &[String]) -> Result<(), StoreError> {
        if self.through_journal() {
            return self.as_operation(|table| table.delete_many(keys));
        }
        if let Some(mut pending) = self.store.pending() {
            for key in keys {
                pending.remove(R::TREE, key.as_bytes().to_vec());
            }
            return Ok(());
        }
        let mut batch = sled::Batch::default();
        for key in keys {
            batch.remove(key.as_bytes());
        }
        self.tree.apply_batch(batch)?;
        if !keys.is_empty() {
            self.store.note_write(&[R::TREE]);
        }
        Ok(())
    }

    /// Every record, in key order.
    pub fn list(&self) -> Result<Vec<R>, StoreError> {
        self.scan_prefix("")
    }

    /// Every record, in key order, shared: decoded once and reused until the next write to the store's
    /// trees other than the logs. For read-mostly tables on hot paths (a log's table is read afresh).
    pub fn list_shared(&self) -> Result<Arc<Vec<R>>, StoreError>
    where
        R: Send + Sync + 'static,
    {
        if self.touched() || super::is_log(R::TREE) {
            return Ok(Arc::new(self.list()?));
        }
        let at = self.store.write_count();
        if let Some(snapshot) = self.store.snapshot(R::TREE, at) {
            if let Ok(records) = snapshot.downcast::<Vec<R>>() {
                return Ok(records);
            }
        }
        let records = Arc::new(self.list()?);
        self.store.keep_snapshot(R::TREE, at, records.clone());
        Ok(records)
    }

    /// The records whose key starts with `prefix`, in key order.
    pub fn scan_prefix(&self, prefix: &str) -> Result<Vec<R>, StoreError> {
        if self.touched() {
            return self
                .merged(prefix)?
                .iter()
                .map(|(_, v)| Self::decode(v))
                .collect();
        }
        self.tree
            .scan_prefix(prefix)
            .values()
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// The first record for which `matches` holds, in key order.
    pub fn find(&self, matches: impl Fn(&R) -> bool) -> Result<Option<R>, StoreError> {
        if self.touched() {
            return Ok(self.list()?.into_iter().find(|r| matches(r)));
        }
        for value in self.tree.iter().values() {
            let record = Self::decode(&value?)?;
            if matches(&record) {
                return Ok(Some(record));
            }
        }
        Ok(None)
    }

    /// Writes many records (inside an operation: with its other writes).
    pub fn insert_many<'r>(
        &self,
        records: impl IntoIterator<Item = &'r R>,
    ) -> Result<usize, StoreError>
    where
        R: 'r,
    {
        if self.through_journal() {
            return self.as_operation(|table| table.insert_many(records));
        }
        let mut count = 0;
        if let Some(mut pending) = self.store.pending() {
            for record in records {
                pending.put(R::TREE, record.key().into_bytes(), Self::encode(record)?);
                count += 1;
            }
            return Ok(count);
        }
        for record in records {
            self.tree
                .insert(record.key().into_bytes(), Self::encode(record)?)?;
            count += 1;
        }
        if count > 0 {
            self.store.note_write(&[R::TREE]);
        }
        Ok(count)
    }

    /// The keys starting with `prefix`, in key order, without decoding the records (cheap when the key
    /// itself carries what the caller needs, such as a transaction's sequence number).
    pub fn keys_with_prefix(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        if self.touched() {
            return Ok(self
                .merged(prefix)?
                .into_iter()
                .map(|(k, _)| String::from_utf8_lossy(&k).into_owned())
                .collect());
        }
        self.tree
            .scan_prefix(prefix)
            .keys()
            .map(|k| Ok(String::from_utf8_lossy(&k?).into_owned()))
            .collect()
    }

    /// The last key in key order (the newest for keys that grow with time), under `prefix`.
    pub fn last_key_with_prefix(&self, prefix: &str) -> Result<Option<String>, StoreError> {
        if self.touched() {
            return Ok(self.keys_with_prefix(prefix)?.pop());
        }
        Ok(self
            .tree
            .scan_prefix(prefix)
            .keys()
            .next_back()
            .transpose()?
            .map(|k| String::from_utf8_lossy(&k).into_owned()))
    }

    /// The first `n` records under `prefix` in key order (the oldest for keys that grow with time),
    /// decoding only those: cheap however many there are, when the tree is untouched by the operation.
    pub fn first_n_with_prefix(&self, prefix: &str, n: usize) -> Result<Vec<R>, StoreError> {
        if self.touched() {
            return self
                .merged(prefix)?
                .iter()
                .take(n)
                .map(|(_, v)| Self::decode(v))
                .collect();
        }
        self.tree
            .scan_prefix(prefix)
            .values()
            .take(n)
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// The first `n` records whose key sorts before `bound` (for keys that begin with a zero-padded
    /// time: those due by then), decoding only those.
    pub fn first_n_below(&self, bound: &str, n: usize) -> Result<Vec<R>, StoreError> {
        if self.touched() {
            return self
                .merged("")?
                .iter()
                .take_while(|(k, _)| k.as_slice() < bound.as_bytes())
                .take(n)
                .map(|(_, v)| Self::decode(v))
                .collect();
        }
        self.tree
            .range(..bound.as_bytes())
            .values()
            .take(n)
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// The last `n` records in key order, last first (newest first for keys that grow with time),
    /// decoding only those.
    pub fn last_n(&self, n: usize) -> Result<Vec<R>, StoreError> {
        if self.touched() {
            let mut all = self.list()?;
            all.reverse();
            all.truncate(n);
            return Ok(all);
        }
        self.tree
            .iter()
            .values()
            .rev()
            .take(n)
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// The records whose stored JSON passes `keep` (a cheap byte-level pre-filter, e.g. for a status),
    /// in key order, decoded on every core: a batch run reads all payments, and decoding dominates.
    pub fn list_filtered_parallel(&self, keep: impl Fn(&[u8]) -> bool) -> Result<Vec<R>, StoreError>
    where
        R: Send,
    {
        if self.touched() {
            let merged: Vec<Vec<u8>> = self
                .merged("")?
                .into_iter()
                .map(|(_, v)| v)
                .filter(|v| keep(v))
                .collect();
            return Self::decode_parallel(merged);
        }
        // Stored values are kept as sled hands them out (a shared buffer, not copied): a run reads 100 000
        // payments, and a copy of each was 100 000 allocations before any decoding.
        let mut raw = Vec::new();
        for value in self.tree.iter().values() {
            let value = value?;
            if keep(&value) {
                raw.push(value);
            }
        }
        Self::decode_parallel(raw)
    }

    /// Decodes `raw` in key order, on every core when there are enough values to share out.
    fn decode_parallel<V: AsRef<[u8]> + Sync>(raw: Vec<V>) -> Result<Vec<R>, StoreError>
    where
        R: Send,
    {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads < 2 || raw.len() < 1024 {
            return raw.iter().map(|v| Self::decode(v.as_ref())).collect();
        }
        let chunk = raw.len().div_ceil(threads);
        let decoded: Vec<Result<Vec<R>, StoreError>> = std::thread::scope(|scope| {
            let workers: Vec<_> = raw
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || part.iter().map(|v| Self::decode(v.as_ref())).collect())
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("decoding does not panic"))
                .collect()
        });
        let mut records = Vec::with_capacity(raw.len());
        for part in decoded {
            records.extend(part?);
        }
        Ok(records)
    }

    /// Visits the records before `before` (all when `None`), last first, until `visit` says stop. Reads
    /// stored data only (not for use inside an operation's pending writes): for logs read newest first.
    pub fn scan_back(
        &self,
        before: Option<&str>,
        mut visit: impl FnMut(R) -> bool,
    ) -> Result<(), StoreError> {
        let range = match before {
            Some(key) => self.tree.range(..key.as_bytes().to_vec()),
            None => self.tree.range::<Vec<u8>, _>(..),
        };
        for value in range.values().rev() {
            if !visit(Self::decode(&value?)?) {
                break;
            }
        }
        Ok(())
    }

    /// The records after `after`, in key order, at most `limit` (stored data only, as [`Self::scan_back`]).
    pub fn after(&self, after: &str, limit: usize) -> Result<Vec<R>, StoreError> {
        let mut start = after.as_bytes().to_vec();
        start.push(0);
        self.tree
            .range(start..)
            .values()
            .take(limit)
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// The first key in key order (the oldest, for keys that grow with time), stored data only.
    pub fn first_key(&self) -> Result<Option<String>, StoreError> {
        Ok(self
            .tree
            .first()?
            .map(|(k, _)| String::from_utf8_lossy(&k).into_owned()))
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        if self.touched() {
            return self.merged("").map_or(0, |m| m.len());
        }
        self.tree.len()
    }

    /// True when the table holds no record.
    pub fn is_empty(&self) -> bool {
        if self.touched() {
            return self.len() == 0;
        }
        self.tree.is_empty()
    }
}
