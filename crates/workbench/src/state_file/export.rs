//! Writing a state file: every carried tree in registry order, each record exactly as the store holds
//! it, one record per line (so fixtures diff well in git), and nothing that changes from one export of
//! the same state to the next (no export time), so export -> import -> export gives the same bytes.

use super::error::FileError;
use super::trees::{stored_as_json, CARRIED};
use super::{FORMAT, VERSION};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;
use xs2a_core::store::Store;

/// The trees in order, each a list of records as stored.
struct Trees(Vec<(&'static str, Vec<Box<RawValue>>)>);

impl Serialize for Trees {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, records) in &self.0 {
            map.serialize_entry(name, records)?;
        }
        map.end()
    }
}

#[derive(serde::Serialize)]
struct Out<'a> {
    format: &'a str,
    version: u64,
    trees: Trees,
}

/// The state of `store` as a state file. Each tree is read as committed; a state that is being written
/// meanwhile may show one tree before and another after a write (export a served sandbox when it is
/// idle, or take a snapshot, which is read the same way).
pub fn export(store: &Store) -> Result<Vec<u8>, FileError> {
    let mut trees = Vec::with_capacity(CARRIED.len());
    for carried in CARRIED {
        let records = store.raw_records(carried.tree)?.into_iter().map(|(_, v)| v);
        trees.push((carried.tree, records.collect()));
    }
    write(trees)
}

/// The state file of `trees`: each carried tree's stored records (as the store holds them: binary
/// encodings are written as their JSON), in key order.
pub(super) fn write(trees: Vec<(&'static str, Vec<Vec<u8>>)>) -> Result<Vec<u8>, FileError> {
    let mut out_trees = Vec::with_capacity(trees.len());
    for (tree, values) in trees {
        let records = values
            .into_iter()
            .map(|value| {
                let value = stored_as_json(tree, value)?;
                let text = String::from_utf8(value)
                    .map_err(|_| FileError::storage(format!("a record in {tree} is not UTF-8")))?;
                RawValue::from_string(text)
                    .map_err(|e| FileError::storage(format!("a record in {tree} is not JSON: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        out_trees.push((tree, records));
    }
    let out = Out {
        format: FORMAT,
        version: VERSION,
        trees: Trees(out_trees),
    };
    let mut bytes = serde_json::to_vec_pretty(&out).map_err(FileError::storage)?;
    bytes.push(b'\n');
    Ok(bytes)
}
