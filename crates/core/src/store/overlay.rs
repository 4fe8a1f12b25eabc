//! The pending writes of one atomic operation ([`super::Store::atomically`]): puts, removals and cleared
//! trees, kept in memory until the operation commits them in one sled transaction. Reads made inside the
//! operation see these writes over the stored data (read-your-writes), so the code of an operation needs
//! no change to run atomically.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A pending change to one key: the new bytes, or `None` for a removal.
pub type Pending = Option<Vec<u8>>;

/// Stored `(key, value)` pairs, in key order.
pub type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

/// The pending writes of one tree.
#[derive(Debug, Default)]
pub struct TreeWrites {
    /// True when the operation cleared the tree: stored records are then invisible and removed at commit.
    pub cleared: bool,
    pub writes: BTreeMap<Vec<u8>, Pending>,
    /// Keys written with "only if absent": the commit re-checks them against the stored data.
    pub must_be_new: BTreeSet<Vec<u8>>,
}

/// Every pending write of an operation, by tree name.
#[derive(Debug, Default)]
pub struct WriteBuffer {
    pub trees: HashMap<&'static str, TreeWrites>,
}

/// What the buffer says about one key.
pub enum Lookup<'a> {
    /// The operation wrote (or removed) it: this is the value it sees.
    Pending(&'a Pending),
    /// The operation cleared the tree and did not write the key: it is absent.
    Cleared,
    /// The operation did not touch it: read the stored value.
    Untouched,
}

impl WriteBuffer {
    pub fn put(&mut self, tree: &'static str, key: Vec<u8>, value: Vec<u8>) {
        self.trees
            .entry(tree)
            .or_default()
            .writes
            .insert(key, Some(value));
    }

    pub fn put_new(&mut self, tree: &'static str, key: Vec<u8>, value: Vec<u8>) {
        let writes = self.trees.entry(tree).or_default();
        writes.must_be_new.insert(key.clone());
        writes.writes.insert(key, Some(value));
    }

    pub fn remove(&mut self, tree: &'static str, key: Vec<u8>) {
        self.trees.entry(tree).or_default().writes.insert(key, None);
    }

    pub fn clear(&mut self, tree: &'static str) {
        let writes = self.trees.entry(tree).or_default();
        writes.cleared = true;
        writes.writes.clear();
        writes.must_be_new.clear();
    }

    pub fn lookup(&self, tree: &str, key: &[u8]) -> Lookup<'_> {
        match self.trees.get(tree) {
            None => Lookup::Untouched,
            Some(t) => match t.writes.get(key) {
                Some(pending) => Lookup::Pending(pending),
                None if t.cleared => Lookup::Cleared,
                None => Lookup::Untouched,
            },
        }
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.trees
            .values()
            .all(|t| !t.cleared && t.writes.is_empty())
    }

    /// The stored `(key, value)` pairs of a tree with this buffer's writes applied, in key order,
    /// restricted to keys starting with `prefix`.
    pub fn merge(
        &self,
        tree: &str,
        prefix: &[u8],
        stored: impl Iterator<Item = Result<(Vec<u8>, Vec<u8>), sled::Error>>,
    ) -> Result<Pairs, sled::Error> {
        let Some(pending) = self.trees.get(tree) else {
            return stored.collect();
        };
        let mut merged: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        if !pending.cleared {
            for pair in stored {
                let (k, v) = pair?;
                merged.insert(k, v);
            }
        }
        for (k, v) in pending.writes.range(prefix.to_vec()..) {
            if !k.starts_with(prefix) {
                break;
            }
            match v {
                Some(v) => merged.insert(k.clone(), v.clone()),
                None => merged.remove(k),
            };
        }
        Ok(merged.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Stored = Vec<Result<(Vec<u8>, Vec<u8>), sled::Error>>;

    fn stored(pairs: &[(&str, &str)]) -> Stored {
        pairs
            .iter()
            .map(|(k, v)| Ok((k.as_bytes().to_vec(), v.as_bytes().to_vec())))
            .collect()
    }

    fn keys(pairs: Pairs) -> Vec<String> {
        pairs
            .into_iter()
            .map(|(k, v)| {
                format!(
                    "{}={}",
                    String::from_utf8(k).unwrap(),
                    String::from_utf8(v).unwrap()
                )
            })
            .collect()
    }

    #[test]
    fn pending_writes_override_and_hide_stored_records_in_key_order() {
        let mut buffer = WriteBuffer::default();
        buffer.put("t", b"b".to_vec(), b"new".to_vec());
        buffer.remove("t", b"c".to_vec());
        buffer.put("t", b"d".to_vec(), b"4".to_vec());
        let merged = buffer
            .merge(
                "t",
                b"",
                stored(&[("a", "1"), ("b", "2"), ("c", "3")]).into_iter(),
            )
            .unwrap();
        assert_eq!(keys(merged), ["a=1", "b=new", "d=4"]);
    }

    #[test]
    fn a_cleared_tree_shows_only_what_the_operation_wrote_after_clearing() {
        let mut buffer = WriteBuffer::default();
        buffer.put("t", b"x".to_vec(), b"old".to_vec());
        buffer.clear("t");
        buffer.put("t", b"y".to_vec(), b"1".to_vec());
        let merged = buffer
            .merge("t", b"", stored(&[("a", "1")]).into_iter())
            .unwrap();
        assert_eq!(keys(merged), ["y=1"]);
        assert!(matches!(buffer.lookup("t", b"a"), Lookup::Cleared));
        assert!(matches!(buffer.lookup("u", b"a"), Lookup::Untouched));
    }

    #[test]
    fn prefixes_limit_the_pending_writes_merged() {
        let mut buffer = WriteBuffer::default();
        buffer.put("t", b"p/1".to_vec(), b"a".to_vec());
        buffer.put("t", b"q/1".to_vec(), b"b".to_vec());
        let merged = buffer
            .merge("t", b"p/", stored(&[("p/0", "z")]).into_iter())
            .unwrap();
        assert_eq!(keys(merged), ["p/0=z", "p/1=a"]);
    }
}
