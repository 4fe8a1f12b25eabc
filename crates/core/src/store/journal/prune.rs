//! The journal's caps, the traffic log's: the records of entries the log no longer keeps go with them,
//! and the journal keeps at most as many bytes as the log (the oldest positions go first, 1/64 of the cap
//! below it at once, as the log prunes). Pruning moves the floor: the oldest position still reachable.

use super::{key, position_of, Journal, State, StoreError};

impl Journal {
    /// Forgets what entries before `entry` did (the traffic log pruned them): the state before them can no
    /// longer be returned to.
    pub fn forget_before(&self, entry: u64) -> Result<(), StoreError> {
        let mut state = self.lock();
        self.forget_below(&mut state, position_of(entry))
    }

    /// Prunes the oldest positions until the journal holds at most `goal` bytes.
    pub(super) fn prune_to_bytes(&self, state: &mut State, goal: u64) -> Result<(), StoreError> {
        let mut held = state.bytes;
        let mut cut = None;
        for (pos, span) in &state.index {
            if held <= goal {
                break;
            }
            held = held.saturating_sub(span.bytes);
            cut = Some(pos + 1);
        }
        match cut {
            Some(cut) => self.forget_below(state, cut),
            None => Ok(()),
        }
    }

    /// Removes the positions below `pos` from the index and every record older than the first record of
    /// the positions kept, and raises the floor to `pos`; in one batch.
    fn forget_below(&self, state: &mut State, pos: u64) -> Result<(), StoreError> {
        if pos <= state.floor && state.index.range(..pos).next().is_none() {
            return Ok(());
        }
        let kept_from = Self::first_from(state, pos);
        let mut batch = sled::Batch::default();
        let mut freed = 0;
        let gone: Vec<u64> = state.index.range(..pos).map(|(p, _)| *p).collect();
        for p in &gone {
            if let Some(span) = state.index.remove(p) {
                freed += span.bytes;
            }
        }
        let mut removed = 0;
        for k in self.tree.range(key(b'r', 0)..key(b'r', kept_from)).keys() {
            batch.remove(k?);
            removed += 1;
        }
        state.floor = state.floor.max(pos);
        state.floor_set = true;
        batch.insert(&super::FLOOR[..], &state.floor.to_be_bytes()[..]);
        self.tree.apply_batch(batch)?;
        state.bytes = state.bytes.saturating_sub(freed);
        state.records = state.records.saturating_sub(removed);
        tracing::debug!(
            positions = gone.len(),
            records = removed,
            floor = state.floor,
            "change journal pruned"
        );
        Ok(())
    }
}
