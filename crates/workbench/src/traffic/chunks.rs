//! Where the traffic log's segments are kept: append-only files ("chunks") of a few MiB in a directory
//! beside the database. The log is written once and pruned oldest first, which files do at the cost of
//! a write; sled, whose nodes hold many values and are rewritten whole as they change, copied each
//! segment several times over (as blobs, once segments grew past its inline size). sled keeps only each
//! segment's small index record (`SegmentInfo`), written after the segment's bytes are in the file.
//!
//! A segment in a chunk: its length (u32, little-endian), the CRC-32 of its bytes, then the bytes. A chunk
//! is appended to by one process only and never after a restart (each start opens a new one), so a torn
//! tail left by a crash is never followed by good data; a read checks length and CRC, and a segment that
//! fails them reads as damaged rather than as something else.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A chunk is closed and a new one begun once it holds this much.
const CHUNK_BYTES: u64 = 8 * 1024 * 1024;
const HEADER: usize = 8;

/// Where a segment's bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub chunk: u64,
    /// Where its header begins.
    pub offset: u64,
    /// The length of its bytes (without the header).
    pub len: u64,
}

/// The chunk being written.
struct Open {
    number: u64,
    file: File,
    len: u64,
}

/// The chunk files of one log: the writer appends and releases, readers read by location.
pub struct Chunks {
    dir: PathBuf,
    open: Option<Open>,
    /// How many live segments each chunk holds; a chunk whose count falls to zero is deleted.
    live: BTreeMap<u64, u64>,
    next_number: u64,
}

impl Chunks {
    /// Opens the chunks in `dir` (creating it) where the segments at `kept` are: chunk files that hold
    /// none of them (pruned, or written by a process that died before indexing them) are deleted.
    pub fn open(dir: &Path, kept: impl Iterator<Item = Location>) -> io::Result<Chunks> {
        std::fs::create_dir_all(dir)?;
        let mut live = BTreeMap::new();
        for location in kept {
            *live.entry(location.chunk).or_insert(0) += 1;
        }
        let mut highest = 0;
        for file in std::fs::read_dir(dir)? {
            let path = file?.path();
            let Some(number) = chunk_number(&path) else {
                continue;
            };
            highest = highest.max(number);
            if !live.contains_key(&number) {
                std::fs::remove_file(&path)?;
            }
        }
        let next_number = highest.max(live_highest(&live)) + 1;
        Ok(Chunks {
            dir: dir.to_owned(),
            open: None,
            live,
            next_number,
        })
    }

    /// Appends a segment's bytes and says where they are. The bytes are in the file (the kernel's) when
    /// it returns: a crash of the process after it loses nothing.
    pub fn append(&mut self, bytes: &[u8]) -> io::Result<Location> {
        let len = u32::try_from(bytes.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a segment over 4 GiB"))?;
        if self.open.as_ref().is_none_or(|o| o.len >= CHUNK_BYTES) {
            let number = self.next_number;
            self.next_number += 1;
            let file = OpenOptions::new()
                .create_new(true)
                .append(true)
                .open(path_of(&self.dir, number))?;
            self.open = Some(Open {
                number,
                file,
                len: 0,
            });
        }
        let open = self.open.as_mut().expect("opened above");
        let mut record = Vec::with_capacity(HEADER + bytes.len());
        record.extend_from_slice(&len.to_le_bytes());
        record.extend_from_slice(&crc32fast::hash(bytes).to_le_bytes());
        record.extend_from_slice(bytes);
        open.file.write_all(&record)?;
        let location = Location {
            chunk: open.number,
            offset: open.len,
            len: u64::from(len),
        };
        open.len += record.len() as u64;
        *self.live.entry(open.number).or_insert(0) += 1;
        Ok(location)
    }

    /// The segment at `location` left the log: its chunk goes once it holds no live segment (and is
    /// not the one being written).
    pub fn release(&mut self, location: Location) -> io::Result<()> {
        let Some(count) = self.live.get_mut(&location.chunk) else {
            return Ok(());
        };
        *count -= 1;
        let writing = self.open.as_ref().map(|o| o.number) == Some(location.chunk);
        if *count == 0 && !writing {
            self.live.remove(&location.chunk);
            match std::fs::remove_file(path_of(&self.dir, location.chunk)) {
                Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
                _ => {}
            }
        }
        Ok(())
    }

    /// Every segment left the log at once (it was cleared): the chunk being written is closed and every
    /// chunk file deleted. The numbers go on, so no new chunk takes a deleted one's name.
    pub fn clear(&mut self) -> io::Result<()> {
        self.open = None;
        self.live.clear();
        for file in std::fs::read_dir(&self.dir)? {
            let path = file?.path();
            if chunk_number(&path).is_some() {
                match std::fs::remove_file(&path) {
                    Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Puts what was appended on disk (the database is flushed on its own schedule; this is the log's).
    pub fn sync(&self) -> io::Result<()> {
        match &self.open {
            Some(open) => open.file.sync_data(),
            None => Ok(()),
        }
    }
}

/// Reads the segment at `location` in the chunks of `dir`, checking its length and CRC.
pub fn read(dir: &Path, location: Location) -> io::Result<Vec<u8>> {
    let damaged = |why: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "traffic chunk {} at {}: {why}",
                location.chunk, location.offset
            ),
        )
    };
    let file = File::open(path_of(dir, location.chunk))?;
    let mut bytes = vec![0; HEADER + location.len as usize];
    xs2a_core::platform::read_at::read_exact_at(&file, &mut bytes, location.offset)
        .map_err(|_| damaged("the chunk ends early"))?;
    let len = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes"));
    let crc = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
    if u64::from(len) != location.len {
        return Err(damaged("the length differs from the index"));
    }
    bytes.drain(..HEADER);
    if crc32fast::hash(&bytes) != crc {
        return Err(damaged("the CRC does not match"));
    }
    Ok(bytes)
}

fn live_highest(live: &BTreeMap<u64, u64>) -> u64 {
    live.keys().next_back().copied().unwrap_or(0)
}

fn path_of(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("{number:08}.chunk"))
}

fn chunk_number(path: &Path) -> Option<u64> {
    let name = path.file_name()?.to_str()?;
    name.strip_suffix(".chunk")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_read_back_and_a_chunk_goes_when_its_last_segment_does() {
        let dir = tempfile::tempdir().unwrap();
        let mut chunks = Chunks::open(dir.path(), std::iter::empty()).unwrap();
        let a = chunks.append(b"first").unwrap();
        let b = chunks.append(b"second").unwrap();
        assert_eq!((a.chunk, a.offset, a.len), (1, 0, 5));
        assert_eq!((b.chunk, b.offset), (1, 13));
        assert_eq!(read(dir.path(), b).unwrap(), b"second");
        // A restart writes into a new chunk; chunks holding nothing the index knows are deleted.
        drop(chunks);
        let mut chunks = Chunks::open(dir.path(), [b].into_iter()).unwrap();
        let c = chunks.append(b"third").unwrap();
        assert_eq!(c.chunk, 2);
        chunks.release(b).unwrap();
        assert!(!path_of(dir.path(), 1).exists(), "chunk 1 held only b");
        assert!(read(dir.path(), a).is_err());
        assert_eq!(read(dir.path(), c).unwrap(), b"third");
        Chunks::open(dir.path(), std::iter::empty()).unwrap();
        assert!(
            !path_of(dir.path(), 2).exists(),
            "unindexed chunks are removed"
        );
    }

    #[test]
    fn a_torn_or_altered_segment_reads_as_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let mut chunks = Chunks::open(dir.path(), std::iter::empty()).unwrap();
        let a = chunks.append(b"0123456789").unwrap();
        chunks.sync().unwrap();
        let path = path_of(dir.path(), a.chunk);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER + 3] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let error = read(dir.path(), a).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        std::fs::write(&path, &bytes[..HEADER + 4]).unwrap();
        assert!(read(dir.path(), a).is_err(), "a torn tail");
    }
}
