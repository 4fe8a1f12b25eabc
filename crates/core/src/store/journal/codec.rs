//! The stored form of one journal record: a commit's changes, each the tree, the key and the bytes before
//! and after (absent for a record that did not exist / was removed). Binary, not JSON: the bytes are
//! records in their own stored form, and escaping them as JSON strings would double their size.
//!
//! Layout (in `crate::store::codec`'s primitives): a version byte (1), the timeline position, the number of
//! changes, then per change the tree name, the key, a presence byte (bit 0: before, bit 1: after) and the
//! present values, each length-prefixed.

use crate::store::codec::{DecodeError, Reader, Writer};

/// What one commit changed: its position on the timeline and the changed records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeSet {
    /// The commit's number in the journal (its key; commit order).
    pub seq: u64,
    /// Where on the timeline it happened (see `super::position`).
    pub pos: u64,
    pub changes: Vec<Change>,
}

/// One record's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub tree: &'static str,
    pub key: Vec<u8>,
    pub before: Option<Vec<u8>>,
    pub after: Option<Vec<u8>>,
}

const VERSION: u8 = 1;

/// The stored bytes of a record's changes at `pos` (the seq is its key, not repeated inside).
pub fn encode(pos: u64, changes: &[Change]) -> Vec<u8> {
    let size: usize = changes
        .iter()
        .map(|c| {
            c.tree.len()
                + c.key.len()
                + c.before.as_ref().map_or(0, Vec::len)
                + c.after.as_ref().map_or(0, Vec::len)
                + 16
        })
        .sum();
    let mut w = Writer::new(VERSION, size + 12);
    w.u64(pos);
    w.u64(changes.len() as u64);
    for change in changes {
        w.str(change.tree);
        w.bytes(&change.key);
        let presence = u8::from(change.before.is_some()) | (u8::from(change.after.is_some()) << 1);
        w.u8(presence);
        if let Some(before) = &change.before {
            w.bytes(before);
        }
        if let Some(after) = &change.after {
            w.bytes(after);
        }
    }
    w.finish()
}

/// The timeline position of a stored record, read from its header alone (the index is built from it).
pub fn position(bytes: &[u8]) -> Result<u64, DecodeError> {
    let mut reader = Reader::of(bytes);
    match reader.u8()? {
        VERSION => reader.u64(),
        version => Err(format!(
            "a journal record is of version {version}, which this sandbox does not read"
        )),
    }
}

/// The changes stored under journal number `seq`. A tree the registry does not know (written by another
/// version) is an error: such a record cannot be undone by this one.
pub fn decode(seq: u64, bytes: &[u8]) -> Result<ChangeSet, DecodeError> {
    let mut reader = Reader::of(bytes);
    let version = reader.u8()?;
    if version != VERSION {
        return Err(format!(
            "journal record {seq} is of version {version}, which this sandbox does not read"
        ));
    }
    let pos = reader.u64()?;
    let changes = reader.list(|reader| {
        let name = reader.text()?;
        let tree = crate::store::registry::find(name)
            .map(|t| t.name)
            .ok_or_else(|| {
                format!(
                    "journal record {seq} names the tree {name}, which this sandbox does not know"
                )
            })?;
        let key = reader.bytes()?.to_vec();
        let presence = reader.u8()?;
        let before = (presence & 1 != 0)
            .then(|| reader.bytes().map(<[u8]>::to_vec))
            .transpose()?;
        let after = (presence & 2 != 0)
            .then(|| reader.bytes().map(<[u8]>::to_vec))
            .transpose()?;
        Ok(Change {
            tree,
            key,
            before,
            after,
        })
    })?;
    if reader.left() > 0 {
        return Err(format!(
            "journal record {seq} has {} bytes after its last change",
            reader.left()
        ));
    }
    Ok(ChangeSet { seq, pos, changes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let changes = vec![
            Change {
                tree: "payments",
                key: b"p-1".to_vec(),
                before: None,
                after: Some(br#"{"id":"p-1"}"#.to_vec()),
            },
            Change {
                tree: "sandbox-accounts",
                key: vec![0, 255, 7],
                before: Some(vec![1; 300]),
                after: None,
            },
        ];
        let bytes = encode(u64::MAX - 3, &changes);
        let read = decode(9, &bytes).unwrap();
        assert_eq!(
            read,
            ChangeSet {
                seq: 9,
                pos: u64::MAX - 3,
                changes
            }
        );
    }

    #[test]
    fn damaged_records_are_refused_with_a_reason() {
        let bytes = encode(
            4,
            &[Change {
                tree: "payments",
                key: b"k".to_vec(),
                before: Some(b"x".to_vec()),
                after: Some(b"y".to_vec()),
            }],
        );
        assert!(decode(1, &bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("runs past"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(1, &longer).unwrap_err().contains("after its last"));
        let mut other = bytes.clone();
        other[0] = 2;
        assert!(decode(1, &other).unwrap_err().contains("version 2"));
        let unknown = encode(
            4,
            &[Change {
                tree: "payments",
                key: Vec::new(),
                before: None,
                after: None,
            }],
        );
        let renamed: Vec<u8> = unknown
            .iter()
            .map(|b| if *b == b'p' { b'q' } else { *b })
            .collect();
        assert!(decode(1, &renamed).unwrap_err().contains("does not know"));
    }
}
