//! Clearing the traffic log (the inspector's "Clear traffic"): every stored entry goes, with the chunk
//! files that hold them and the journeys they made, in one step on the writer thread after what was
//! queued before the request. The entry numbers go on from where they were (never reused), so a stream
//! that resumes after an old number misses nothing new. What the cleared entries changed goes with them,
//! as with pruning: the sandbox can no longer rewind to before the clear.
//!
//! All or nothing across a crash: the index records go in one batch and reach the disk before a file is
//! deleted. A crash before that leaves the log whole; a crash after it leaves files no record points at,
//! which the next start deletes (`Chunks::open`).

use super::*;

/// What a clear removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrafficCleared {
    /// How many entries were removed.
    pub removed: u64,
    /// The last entry number given out before the clear: entries after it are new. (A request that was
    /// under way took its number before and is stored after; it shows as new.)
    pub through: u64,
}

impl TrafficLog {
    /// Empties the log (see the module's comment): answers once it is on disk, or why it could not be.
    /// Blocks until the writer has stored what came before it: call it off the async runtime.
    pub fn clear(&self) -> CoreResult<TrafficCleared> {
        let (asker, answer) = std::sync::mpsc::sync_channel(1);
        self.inner
            .queue
            .send(Pending::Clear(asker))
            .map_err(|_| Refusal::internal("the traffic log's writer has stopped"))?;
        answer
            .recv()
            .map_err(|_| Refusal::internal("the traffic log's writer stopped before clearing"))?
    }
}

/// The clear itself, on the writer thread.
pub(super) fn clear(inner: &Inner) -> CoreResult<TrafficCleared> {
    let through = inner.next_id.load(Ordering::SeqCst).saturating_sub(1);
    // Readers hold the shelf while they read segments: they finish first, and none starts on a segment
    // whose file is about to go.
    let mut shelf = inner.shelf.write().unwrap_or_else(|p| p.into_inner());
    let (removed, _) = shelf.totals();
    let keys: Vec<String> = shelf.segments().map(|s| s.info.key()).collect();
    inner.store.table::<SegmentInfo>()?.delete_many(&keys)?;
    if let Some(journal) = inner.store.journal() {
        journal.forget_before(through + 1)?;
    }
    inner.store.flush_now()?;
    shelf.clear();
    *inner.index.lock().unwrap_or_else(|p| p.into_inner()) = Index::default();
    inner
        .chunks
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clear()
        .map_err(Refusal::internal)?;
    Ok(TrafficCleared { removed, through })
}
