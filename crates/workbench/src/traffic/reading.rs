//! Reading the traffic log: entries after an id (a reconnecting stream), pages of the newest, one entry
//! whole, the exchanges a report grades, and the journeys; each stored segment is read through
//! [`read_segment`], which skips what a crash or the pruning left unreadable.

use super::*;

/// A filter's verdict on an entry's summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Yes,
    No,
    /// Kept if the exchange whole passes (its bodies hold the searched text).
    IfWhole,
}

impl TrafficLog {
    /// The kept entries after `id`, oldest first, at most `limit` (a reconnecting stream).
    pub fn after(&self, id: u64, limit: usize) -> CoreResult<Vec<Entry>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
        let mut found: Vec<Entry> = Vec::new();
        for (info, min_from_here) in shelf.after(id) {
            if found.len() >= limit {
                found.sort_unstable_by_key(Entry::id);
                found.truncate(limit);
                if found[limit - 1].id() < min_from_here {
                    break;
                }
            }
            read_segment(&self.inner, info, |view| {
                for entry in view.entries.iter().filter(|e| e.id > id) {
                    found.push(view.summary(entry)?);
                }
                Ok(())
            })?;
        }
        found.sort_unstable_by_key(Entry::id);
        found.truncate(limit);
        Ok(found)
    }

    /// The newest entries before `before` that `keep` accepts, at most `limit`, newest first.
    pub fn page(
        &self,
        before: Option<u64>,
        limit: usize,
        keep: impl Fn(&Entry) -> bool,
    ) -> CoreResult<Vec<Entry>> {
        self.page_searching(
            before,
            limit,
            |entry| if keep(entry) { Keep::Yes } else { Keep::No },
            |_| false,
        )
    }

    /// [`TrafficLog::page`] for a filter that may need an exchange whole to decide (text in its bodies):
    /// `keep` judges the summary, and for an exchange it answers [`Keep::IfWhole`] `keep_whole` judges
    /// the exchange, decoded from the same segment while it is read (no second read, no lock taken again).
    /// On the workbench's read path only, never on a request's.
    pub fn page_searching(
        &self,
        before: Option<u64>,
        limit: usize,
        keep: impl Fn(&Entry) -> Keep,
        keep_whole: impl Fn(&Exchange) -> bool,
    ) -> CoreResult<Vec<Entry>> {
        let before = before.unwrap_or(u64::MAX);
        let newest_first = |found: &mut Vec<Entry>| {
            found.sort_unstable_by_key(|e| std::cmp::Reverse(e.id()));
            found.truncate(limit);
        };
        let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
        let mut found: Vec<Entry> = Vec::with_capacity(limit);
        for shelved in shelf.segments().rev() {
            if limit == 0 {
                break;
            }
            if shelved.info.min >= before {
                continue;
            }
            if found.len() >= limit {
                newest_first(&mut found);
                if found[limit - 1].id() > shelved.max_so_far {
                    break;
                }
            }
            read_segment(&self.inner, shelved.info, |view| {
                for entry in view.entries.iter().rev().filter(|e| e.id < before) {
                    let summary = view.summary(entry)?;
                    let kept = match keep(&summary) {
                        Keep::Yes => true,
                        Keep::No => false,
                        Keep::IfWhole => {
                            matches!(view.whole(entry)?, Ok(exchange) if keep_whole(&exchange))
                        }
                    };
                    if kept {
                        found.push(summary);
                    }
                }
                Ok(())
            })?;
        }
        newest_first(&mut found);
        Ok(found)
    }

    /// One entry whole: the exchange, or the event.
    pub fn get(&self, id: u64) -> CoreResult<Option<Result<Exchange, EventEntry>>> {
        let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
        let mut whole = None;
        for info in shelf.holding(id) {
            read_segment(&self.inner, info, |view| {
                if let Some(entry) = view.entries.iter().find(|e| e.id == id) {
                    whole = Some(view.whole(entry)?);
                }
                Ok(())
            })?;
            if whole.is_some() {
                break;
            }
        }
        Ok(whole)
    }

    /// The kept exchanges whose summary `keep` accepts, whole and oldest first: the newest `limit` of
    /// them, and whether more matched. Each segment is read at most twice (the conformance report grades
    /// thousands of exchanges, where [`TrafficLog::get`] would read a segment per exchange).
    pub fn exchanges_where(
        &self,
        keep: impl Fn(&ExchangeSummary) -> bool,
        limit: usize,
    ) -> CoreResult<(Vec<Exchange>, bool)> {
        let infos: Vec<SegmentInfo> = {
            let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
            shelf.segments().map(|s| s.info).collect()
        };
        let mut ids = Vec::new();
        for info in &infos {
            read_segment(&self.inner, *info, |view| {
                for entry in &view.entries {
                    if let Entry::Exchange(summary) = view.summary(entry)? {
                        if keep(&summary) {
                            ids.push(summary.id);
                        }
                    }
                }
                Ok(())
            })?;
        }
        ids.sort_unstable();
        let truncated = ids.len() > limit;
        let wanted: std::collections::HashSet<u64> = ids[ids.len().saturating_sub(limit)..]
            .iter()
            .copied()
            .collect();
        let mut found = Vec::with_capacity(wanted.len());
        for info in infos
            .iter()
            .filter(|i| wanted.iter().any(|id| (i.min..=i.max).contains(id)))
        {
            read_segment(&self.inner, *info, |view| {
                for entry in view.entries.iter().filter(|e| wanted.contains(&e.id)) {
                    if let Ok(exchange) = view.whole(entry)? {
                        found.push(exchange);
                    }
                }
                Ok(())
            })?;
        }
        found.sort_by_key(|e: &Exchange| e.summary.id);
        Ok((found, truncated))
    }

    /// The journeys, the most recently active first.
    pub fn journeys(&self, limit: usize) -> Vec<Journey> {
        let index = self.inner.index.lock().unwrap_or_else(|p| p.into_inner());
        let mut all: Vec<Journey> = index.journeys.values().cloned().collect();
        all.sort_by(|a, b| b.last_at.cmp(&a.last_at).then(b.id.cmp(&a.id)));
        all.truncate(limit);
        all
    }

    pub fn journey(&self, id: &str) -> Option<Journey> {
        let index = self.inner.index.lock().unwrap_or_else(|p| p.into_inner());
        index.journeys.get(id).cloned()
    }
}

/// Reads the segment `info` names and hands its live entries to `read` (those below `info.min` were
/// pruned). A segment pruned since `info` was read is skipped; so is one whose bytes did not survive (a
/// power cut can leave an index record whose chunk never reached the disk): the rest of the log stays
/// readable, and the loss is logged.
pub(super) fn read_segment(
    inner: &Inner,
    info: SegmentInfo,
    read: impl FnOnce(&segment::SegmentView) -> Result<(), String>,
) -> CoreResult<()> {
    let bytes = match chunks::read(&inner.chunk_dir, info.location()) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => {
            tracing::warn!(%error, segment = info.seq, "a traffic log segment is unreadable; skipped");
            return Ok(());
        }
    };
    let mut view = match segment::SegmentView::parse(&bytes) {
        Ok(view) => view,
        Err(error) => {
            tracing::warn!(%error, segment = info.seq, "a traffic log segment is damaged; skipped");
            return Ok(());
        }
    };
    view.entries.retain(|e| e.id >= info.min);
    read(&view).map_err(damaged)
}

fn damaged(reason: String) -> Refusal {
    Refusal::internal(format!("a traffic log segment is damaged: {reason}"))
}
