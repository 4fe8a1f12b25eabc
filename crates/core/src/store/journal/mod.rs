//! The change journal: what every commit changed in the state's trees, recorded in the same sled
//! transaction as the writes it describes, so that the two never disagree after a crash. Each record is
//! one commit — its number (commit order), its position on the timeline (the exchange or event that
//! caused it: [`cause`]) and per changed record the tree, key and bytes before and after. Undoing the
//! records from the newest down to a point gives the state at that point exactly ([`crate::rewind`]).
//!
//! Every registered tree but the logs is journaled. Commits to journaled trees are serialised by the
//! journal's lock, so that the journal's order is the order in which the commits took effect and the
//! bytes read "before" are the bytes the commit replaced. Single writes outside an operation become
//! operations of one write (`Table`), so they are journaled the same way.
//!
//! In the journal's tree (`change-journal`, a log): `r<seq>` the records and `f` the floor (positions below
//! it are beyond reach). The index — per timeline position the first and last record and their bytes — is
//! held in memory only, read from the records' headers at open: storing it beside each record doubled the
//! bytes every journaled write put on disk (docs/rewind.md, "What the journal costs"). It shares the traffic log's caps: records of entries the log pruned go
//! with them ([`Journal::forget_before`]), and it keeps at most as many bytes as the log.

pub mod codec;
mod prune;
mod rewind;
#[cfg(test)]
mod tests;

pub use codec::{Change, ChangeSet, RecordWriter};
pub use rewind::{Rewound, Undo};

use super::{registry, StoreError};
use crate::domain::cause::{self, Cause, Timeline};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

/// The journal's tree.
pub const TREE: &str = "change-journal";

/// Whether writes to `tree` are journaled: every registered tree but the logs.
pub fn covers(tree: &str) -> bool {
    registry::find(tree).is_some_and(|t| t.kind != registry::Kind::Log)
}

/// The records of one timeline position: the first and last record numbers and their stored bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub first: u64,
    pub last: u64,
    pub bytes: u64,
}

/// What the journal can reach now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    /// The oldest timeline entry the sandbox can return to (the state before it).
    pub oldest_entry: u64,
    /// How many records the journal holds, and their bytes.
    pub records: u64,
    pub bytes: u64,
}

/// Why the journal cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The records needed were pruned (or never kept: before the journal began).
    #[error("entry {entry} is beyond the journal's reach: the oldest point it can return to is the state before entry {oldest}")]
    BeyondReach { entry: u64, oldest: u64 },
    /// A record's current bytes are not what the journal says the last change left: something wrote the
    /// state without the journal (an older version, or a run with the journal off).
    #[error("the record {key} in {tree} was changed without the journal (by another version of the sandbox, or a run with the journal off): the journal cannot undo what it did not see")]
    Diverged { tree: &'static str, key: String },
    /// The journal pruned the records needed while they were being found.
    #[error("the journal pruned the records needed meanwhile: the oldest point it can return to is the state before entry {oldest}")]
    Pruned { oldest: u64 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sled::Error> for JournalError {
    fn from(error: sled::Error) -> Self {
        JournalError::Store(error.into())
    }
}

/// The journal's state, guarded by its lock (held across every journaled commit).
#[derive(Debug, Default)]
pub struct State {
    next_seq: u64,
    index: BTreeMap<u64, Span>,
    /// Positions below it are beyond reach.
    floor: u64,
    /// Whether the floor is stored (a journal that never had a timeline has none).
    floor_set: bool,
    bytes: u64,
    records: u64,
    /// The highest entry number a position named, so that positions of writes without a cause never go
    /// back even when no timeline is attached.
    last_entry: u64,
}

/// The journal of one store.
pub struct Journal {
    tree: sled::Tree,
    state: Mutex<State>,
    timeline: RwLock<Option<Arc<dyn Timeline>>>,
}

/// The floor's key.
const FLOOR: [u8; 1] = [b'f'];
/// Where the version before this one kept the floor (see [`Journal::open`]).
const OLD_FLOOR: [u8; 1] = [b'm'];

/// The stored floor: `f`, or the floor an older version left in `m` (unless that is the marker this
/// version leaves there).
fn read_floor(tree: &sled::Tree) -> Result<Option<u64>, StoreError> {
    if let Some(floor) = tree.get(FLOOR)? {
        return Ok(Some(number(&floor)));
    }
    Ok(tree
        .get(OLD_FLOOR)?
        .map(|floor| number(&floor))
        .filter(|floor| *floor != u64::MAX))
}

fn key(prefix: u8, n: u64) -> [u8; 9] {
    let mut key = [prefix; 9];
    key[1..].copy_from_slice(&n.to_be_bytes());
    key
}

fn number(bytes: &[u8]) -> u64 {
    let mut n = [0u8; 8];
    let len = bytes.len().min(8);
    n[..len].copy_from_slice(&bytes[..len]);
    u64::from_be_bytes(n)
}

/// The position of an exchange or event numbered `entry`: `2 * entry`. A write with no cause is placed
/// just after the newest entry given out then (`2 * entry + 1`): between that entry and the next.
pub fn position_of(entry: u64) -> u64 {
    entry.saturating_mul(2)
}

impl Journal {
    /// Opens the journal of `db`, reading its index into memory from the records' headers. Index entries
    /// an older version stored (`i<pos>`) are removed: the records say the same.
    pub(super) fn open(db: &sled::Db) -> Result<Journal, StoreError> {
        let tree = db.open_tree(TREE)?;
        let mut state = State::default();
        let mut stale = sled::Batch::default();
        for key in tree.scan_prefix([b'i']).keys() {
            stale.remove(key?);
        }
        tree.apply_batch(stale)?;
        if let Some(floor) = read_floor(&tree)? {
            state.floor = floor;
            state.floor_set = true;
            tree.insert(FLOOR, &floor.to_be_bytes())?;
        }
        // The version before this one read its index from the `i` entries and its floor from `m`: with
        // `m` above every position, it refuses every rewind in this journal (409, beyond reach) instead
        // of trusting an index this version no longer stores.
        tree.insert(OLD_FLOOR, &u64::MAX.to_be_bytes())?;
        for pair in tree.scan_prefix([b'r']) {
            let (k, v) = pair?;
            let seq = number(&k[1..]);
            state.records += 1;
            state.next_seq = seq + 1;
            let pos =
                codec::position(&v).map_err(|reason| StoreError::Damaged { tree: TREE, reason })?;
            if pos < state.floor {
                // A record of a pruned position that pruning left (it came after a kept one).
                continue;
            }
            let size = v.len() as u64;
            let span = state.index.entry(pos).or_insert(Span {
                first: seq,
                last: seq,
                bytes: 0,
            });
            span.first = span.first.min(seq);
            span.last = span.last.max(seq);
            span.bytes += size;
            state.bytes += size;
            state.last_entry = state.last_entry.max(pos / 2);
        }
        state.next_seq = state.next_seq.max(1);
        Ok(Journal {
            tree,
            state: Mutex::new(state),
            timeline: RwLock::new(None),
        })
    }

    /// Removes every record (a store opened without the journal: what happens meanwhile is not seen, so
    /// nothing recorded before may be undone after it).
    pub(super) fn clear(db: &sled::Db) -> Result<(), StoreError> {
        Ok(db.open_tree(TREE)?.clear()?)
    }

    /// Attaches the timeline positions refer to. A journal that never had one starts its reach here: what
    /// happened before it began cannot be undone.
    pub fn attach(&self, timeline: Arc<dyn Timeline>) -> Result<(), StoreError> {
        let mut state = self.lock();
        if !state.floor_set {
            state.floor = position_of(timeline.last_given() + 1);
            state.floor_set = true;
            self.tree.insert(FLOOR, &state.floor.to_be_bytes())?;
        }
        *self.timeline.write().unwrap_or_else(|p| p.into_inner()) = Some(timeline);
        Ok(())
    }

    /// The attached timeline, if any.
    pub fn timeline(&self) -> Option<Arc<dyn Timeline>> {
        self.timeline
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn tree(&self) -> &sled::Tree {
        &self.tree
    }

    /// The position of a commit made now by the work running on this task.
    pub(crate) fn position_now(&self, state: &State) -> u64 {
        match cause::current() {
            Some(Cause::Entry(id)) => position_of(id),
            Some(Cause::Event(event)) => {
                event.note_write();
                match event.id() {
                    0 => self.position_between(state),
                    id => position_of(id),
                }
            }
            None => self.position_between(state),
        }
    }

    fn position_between(&self, state: &State) -> u64 {
        let given = self.timeline().map_or(0, |t| t.last_given());
        position_of(given.max(state.last_entry)) + 1
    }

    /// The record of a commit (`record`, from [`codec::encode`] or a [`RecordWriter`]): its number and
    /// the write to add to the commit. Applied to `state` (the in-memory index) by [`Journal::committed`]
    /// once the commit succeeded.
    pub(crate) fn prepare(&self, state: &State, pos: u64, record: sled::IVec) -> Prepared {
        let seq = state.next_seq;
        let size = record.len() as u64;
        let span = match state.index.get(&pos) {
            Some(span) => Span {
                last: seq,
                bytes: span.bytes + size,
                ..*span
            },
            None => Span {
                first: seq,
                last: seq,
                bytes: size,
            },
        };
        Prepared {
            seq,
            pos,
            span,
            size,
            record,
        }
    }

    /// Takes a committed record into the state, and prunes when the journal is over its byte cap.
    pub(crate) fn committed(&self, state: &mut State, prepared: Prepared) {
        state.next_seq = prepared.seq + 1;
        state.index.insert(prepared.pos, prepared.span);
        state.bytes += prepared.size;
        state.records += 1;
        state.last_entry = state.last_entry.max(prepared.pos / 2);
        let cap = self.timeline().map_or(u64::MAX, |t| t.max_bytes());
        if state.bytes > cap {
            if let Err(error) = self.prune_to_bytes(state, cap - cap / 64) {
                tracing::error!(%error, "the change journal could not be pruned");
            }
        }
    }

    /// What the journal reaches now.
    pub fn reach(&self) -> Reach {
        let state = self.lock();
        Reach {
            oldest_entry: state.floor.div_ceil(2),
            records: state.records,
            bytes: state.bytes,
        }
    }

    fn check_reach(state: &State, entry: u64) -> Result<(), JournalError> {
        if position_of(entry) < state.floor {
            return Err(JournalError::BeyondReach {
                entry,
                oldest: state.floor.div_ceil(2),
            });
        }
        Ok(())
    }

    /// The first record at or after position `pos` (in commit order), or the next record number when
    /// there is none.
    fn first_from(state: &State, pos: u64) -> u64 {
        state
            .index
            .range(pos..)
            .map(|(_, span)| span.first)
            .min()
            .unwrap_or(state.next_seq)
    }

    /// The record number from which the journal is undone to return to the state before entry `entry`.
    pub fn before(&self, entry: u64) -> Result<u64, JournalError> {
        let state = self.lock();
        Self::check_reach(&state, entry)?;
        Ok(Self::first_from(&state, position_of(entry)))
    }

    /// The record number from which the journal is undone to return to the state after entry `entry`:
    /// after its own last record and before anything that came after it.
    pub fn after(&self, entry: u64) -> Result<u64, JournalError> {
        let state = self.lock();
        Self::check_reach(&state, entry)?;
        let own_end = state
            .index
            .get(&position_of(entry))
            .map_or(0, |span| span.last + 1);
        Ok(own_end.max(Self::first_from(&state, position_of(entry) + 1)))
    }

    /// The records entry `entry` caused, oldest first.
    pub fn records_of(&self, entry: u64) -> Result<Vec<ChangeSet>, JournalError> {
        let pos = position_of(entry);
        let span = {
            let state = self.lock();
            Self::check_reach(&state, entry)?;
            state.index.get(&pos).copied()
        };
        let Some(span) = span else {
            return Ok(Vec::new());
        };
        let mut sets = self.records_between(span.first, span.last + 1)?;
        sets.retain(|set| set.pos == pos);
        Ok(sets)
    }

    /// The records numbered from `from` up to (not including) `to`, oldest first.
    pub fn records_between(&self, from: u64, to: u64) -> Result<Vec<ChangeSet>, StoreError> {
        let mut sets = Vec::new();
        for pair in self.tree.range(key(b'r', from)..key(b'r', to)) {
            let (k, v) = pair?;
            let set = codec::decode(number(&k[1..]), &v)
                .map_err(|reason| StoreError::Damaged { tree: TREE, reason })?;
            sets.push(set);
        }
        Ok(sets)
    }

    /// The next record number (every record so far is below it).
    pub fn next_seq(&self) -> u64 {
        self.lock().next_seq
    }

    /// Whether record `from` is still held (pruning may have removed it since it was found).
    pub fn holds(&self, state: &State, from: u64) -> Result<bool, StoreError> {
        let first = self.tree.scan_prefix([b'r']).keys().next().transpose()?;
        Ok(from >= state.next_seq || first.is_some_and(|k| number(&k[1..]) <= from))
    }

    /// The refusal of a record number pruned meanwhile.
    pub fn pruned(state: &State) -> JournalError {
        JournalError::Pruned {
            oldest: state.floor.div_ceil(2),
        }
    }
}

/// A journal record about to be committed.
pub(crate) struct Prepared {
    seq: u64,
    pos: u64,
    span: Span,
    size: u64,
    pub record: sled::IVec,
}

impl Prepared {
    /// The record's key in the journal's tree.
    pub fn key(&self) -> [u8; 9] {
        key(b'r', self.seq)
    }
}
