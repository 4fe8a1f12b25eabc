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
pub fn encode(pos: u64, changes: &[Change]) -> sled::IVec {
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
    let mut record = RecordWriter::with_capacity(size);
    for change in changes {
        record.push(
            change.tree,
            &change.key,
            change.before.as_deref(),
            change.after.as_deref(),
        );
    }
    record.finish(pos)
}

/// Room kept before a record's changes for its header: the version byte and two numbers of at most ten
/// bytes each (the position and the number of changes, known only once every change is written).
const HEADER_ROOM: usize = 1 + 10 + 10;

/// One record written change by change, as a commit applies them: the bytes [`encode`] gives, without
/// first copying every change's key and values into a [`Change`] of its own. A batch run's record holds
/// every payment it settled before and after and every booking block it wrote (about 80 MB for 100 000
/// payments), so each copy of it and each of its 200 000 small allocations showed in the run's time.
pub struct RecordWriter {
    /// [`HEADER_ROOM`] bytes, then the changes.
    bytes: Vec<u8>,
    changes: u64,
}

impl RecordWriter {
    /// A record with room for about `size` bytes of changes.
    pub fn with_capacity(size: usize) -> RecordWriter {
        let mut bytes = Vec::with_capacity(HEADER_ROOM + size);
        bytes.resize(HEADER_ROOM, 0);
        RecordWriter { bytes, changes: 0 }
    }

    /// Adds one record's change: its tree, key and bytes before and after (None: absent).
    pub fn push(&mut self, tree: &str, key: &[u8], before: Option<&[u8]>, after: Option<&[u8]>) {
        let mut w = Writer::continuing(std::mem::take(&mut self.bytes));
        w.str(tree);
        w.bytes(key);
        w.u8(u8::from(before.is_some()) | (u8::from(after.is_some()) << 1));
        if let Some(before) = before {
            w.bytes(before);
        }
        if let Some(after) = after {
            w.bytes(after);
        }
        self.bytes = w.finish();
        self.changes += 1;
    }

    /// True when no change was added.
    pub fn is_empty(&self) -> bool {
        self.changes == 0
    }

    /// The stored record at `pos`: the header written into the room left for it, just before the changes,
    /// and the whole copied once, into the value sled keeps.
    pub fn finish(mut self, pos: u64) -> sled::IVec {
        let mut header = Writer::new(VERSION, HEADER_ROOM);
        header.u64(pos);
        header.u64(self.changes);
        let header = header.finish();
        let start = HEADER_ROOM - header.len();
        self.bytes[start..HEADER_ROOM].copy_from_slice(&header);
        sled::IVec::from(&self.bytes[start..])
    }
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
    fn a_record_keeps_the_bytes_stored_journals_hold() {
        let changes = [
            Change {
                tree: "payments",
                key: b"p-1".to_vec(),
                before: None,
                after: Some(b"A".to_vec()),
            },
            Change {
                tree: "settings",
                key: vec![0, 255],
                before: Some(b"xy".to_vec()),
                after: None,
            },
        ];
        let mut expected = vec![1, 0xac, 0x02, 2];
        expected.extend_from_slice(b"\x08payments\x03p-1\x02\x01A");
        expected.extend_from_slice(b"\x08settings\x02\x00\xff\x01\x02xy");
        assert_eq!(&encode(300, &changes)[..], &expected[..]);
        let mut many = RecordWriter::with_capacity(0);
        for _ in 0..200 {
            many.push("settings", b"k", None, None);
        }
        let many = many.finish(u64::MAX);
        assert_eq!(
            many[..14],
            [1, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1, 0xc8, 1, 8]
        );
        assert_eq!(decode(1, &many).unwrap().changes.len(), 200);
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
        let mut longer = bytes.to_vec();
        longer.push(0);
        assert!(decode(1, &longer).unwrap_err().contains("after its last"));
        let mut other = bytes.to_vec();
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
