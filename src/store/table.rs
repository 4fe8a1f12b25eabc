//! A typed view of one sled tree: JSON records under string keys, listed in key order.

use super::{Store, StoreError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;
use std::sync::Arc;

/// A type stored in its own tree under a string key.
pub trait Record: Serialize + DeserializeOwned {
    /// The tree's name; part of the on-disk format, so never rename one.
    const TREE: &'static str;
    /// The record's key. Keys sort byte-wise, so composite keys (`owner/sequence`) list in order.
    fn key(&self) -> String;
}

/// The records of type `R`.
pub struct Table<R> {
    tree: sled::Tree,
    store: Store,
    _record: PhantomData<R>,
}

impl<R: Record> Table<R> {
    pub(super) fn new(tree: sled::Tree, store: Store) -> Self {
        Table {
            tree,
            store,
            _record: PhantomData,
        }
    }

    fn decode(bytes: &[u8]) -> Result<R, StoreError> {
        serde_json::from_slice(bytes).map_err(|source| StoreError::Decode {
            tree: R::TREE,
            source,
        })
    }

    fn encode(record: &R) -> Result<Vec<u8>, StoreError> {
        serde_json::to_vec(record).map_err(StoreError::Encode)
    }

    /// The record under `key`, if any.
    pub fn get(&self, key: &str) -> Result<Option<R>, StoreError> {
        self.tree.get(key)?.map(|v| Self::decode(&v)).transpose()
    }

    /// Writes the record, replacing any record under the same key.
    pub fn insert(&self, record: &R) -> Result<(), StoreError> {
        self.tree.insert(record.key(), Self::encode(record)?)?;
        self.store.note_write();
        Ok(())
    }

    /// Writes the record only if its key is free; false when it was taken (nothing written).
    pub fn insert_new(&self, record: &R) -> Result<bool, StoreError> {
        let swapped = self.tree.compare_and_swap(
            record.key(),
            None as Option<&[u8]>,
            Some(Self::encode(record)?),
        )?;
        if swapped.is_ok() {
            self.store.note_write();
        }
        Ok(swapped.is_ok())
    }

    /// Removes the record under `key`; returns it if there was one.
    pub fn remove(&self, key: &str) -> Result<Option<R>, StoreError> {
        let old = self.tree.remove(key)?;
        if old.is_some() {
            self.store.note_write();
        }
        old.map(|v| Self::decode(&v)).transpose()
    }

    /// Every record, in key order.
    pub fn list(&self) -> Result<Vec<R>, StoreError> {
        self.tree
            .iter()
            .values()
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// Every record, in key order, shared: decoded once and reused until the next write to the store.
    /// For read-mostly tables on hot paths.
    pub fn list_shared(&self) -> Result<Arc<Vec<R>>, StoreError>
    where
        R: Send + Sync + 'static,
    {
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
        self.tree
            .scan_prefix(prefix)
            .values()
            .map(|v| Self::decode(&v?))
            .collect()
    }

    /// The first record for which `matches` holds, in key order.
    pub fn find(&self, matches: impl Fn(&R) -> bool) -> Result<Option<R>, StoreError> {
        for value in self.tree.iter().values() {
            let record = Self::decode(&value?)?;
            if matches(&record) {
                return Ok(Some(record));
            }
        }
        Ok(None)
    }

    // ---- Bulk access for the batch simulator (`crate::batch`), added by the batch area. ----

    /// Writes many records, noting one write. Each is a plain insert rather than one `sled::Batch`: a sled
    /// batch takes the database's exclusive lock, which would serialise the batch simulator's writes to
    /// different trees that it runs on both cores. (Nothing relies on the group being atomic: records are
    /// replaced whole, and a crash mid-way leaves each record either old or new.)
    pub fn insert_many<'r>(
        &self,
        records: impl IntoIterator<Item = &'r R>,
    ) -> Result<usize, StoreError>
    where
        R: 'r,
    {
        let mut count = 0;
        let mut buffer = Vec::with_capacity(2048);
        for record in records {
            buffer.clear();
            serde_json::to_writer(&mut buffer, record).map_err(StoreError::Encode)?;
            self.tree
                .insert(record.key().into_bytes(), buffer.as_slice())?;
            count += 1;
        }
        if count > 0 {
            self.store.note_write();
        }
        Ok(count)
    }

    /// The keys starting with `prefix`, in key order, without decoding the records (cheap when the key
    /// itself carries what the caller needs, such as a transaction's sequence number).
    pub fn keys_with_prefix(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        self.tree
            .scan_prefix(prefix)
            .keys()
            .map(|k| Ok(String::from_utf8_lossy(&k?).into_owned()))
            .collect()
    }

    /// The last `n` records in key order, last first (newest first for keys that grow with time),
    /// decoding only those.
    pub fn last_n(&self, n: usize) -> Result<Vec<R>, StoreError> {
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
        let mut raw = Vec::new();
        for value in self.tree.iter().values() {
            let value = value?;
            if keep(&value) {
                raw.push(value);
            }
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads < 2 || raw.len() < 1024 {
            return raw.iter().map(|v| Self::decode(v)).collect();
        }
        let chunk = raw.len().div_ceil(threads);
        let decoded: Vec<Result<Vec<R>, StoreError>> = std::thread::scope(|scope| {
            let workers: Vec<_> = raw
                .chunks(chunk)
                .map(|part| scope.spawn(move || part.iter().map(|v| Self::decode(v)).collect()))
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

    // ---- End of the batch simulator's block. ----

    /// How many records there are.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// True when the table holds no record.
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }
}
