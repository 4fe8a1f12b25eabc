//! The composer's history: every request it sent with its answer, newest first, capped so that it never
//! grows without limit (the oldest go first).

use serde::{Deserialize, Serialize};
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::store::{Record, Store};

/// How many sent requests are kept.
pub const KEPT: usize = 500;

/// One sent request as the composer recorded it: `sent` holds the whole exchange as the UI shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryRecord {
    /// Zero-padded and increasing, so key order is the order of sending.
    pub id: String,
    pub sent: serde_json::Value,
}

impl Record for HistoryRecord {
    const TREE: &'static str = "workbench-history";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// Stores a sent request under a fresh id (returned) and drops the oldest beyond [`KEPT`], together.
pub fn record(store: &Store, make: impl FnOnce(&str) -> serde_json::Value) -> CoreResult<String> {
    let id = format!("{:012}", store.next_number()?);
    let sent = make(&id);
    store.atomically(|store| {
        let table = store.table::<HistoryRecord>()?;
        table.insert(&HistoryRecord {
            id: id.clone(),
            sent,
        })?;
        let keys = table.keys_with_prefix("")?;
        for old in keys.iter().take(keys.len().saturating_sub(KEPT)) {
            table.remove(old)?;
        }
        Ok(id.clone())
    })
}

/// The last `limit` sent requests, newest first.
pub fn recent(store: &Store, limit: usize) -> CoreResult<Vec<HistoryRecord>> {
    Ok(store.table::<HistoryRecord>()?.last_n(limit)?)
}

/// One sent request: 404 RESOURCE_UNKNOWN at `id` when the history does not hold it (never sent, or
/// gone with the oldest).
pub fn get(store: &Store, id: &str) -> CoreResult<HistoryRecord> {
    store
        .table::<HistoryRecord>()?
        .get(id)?
        .ok_or_else(|| Refusal::unknown("id", "sent request", id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_the_newest_entries_only() {
        let store = Store::temporary().unwrap();
        for n in 0..KEPT + 3 {
            record(&store, |_| serde_json::json!({ "n": n })).unwrap();
        }
        let all = recent(&store, KEPT + 10).unwrap();
        assert_eq!(all.len(), KEPT);
        assert_eq!(all[0].sent["n"], KEPT + 2, "newest first");
    }

    #[test]
    fn refuses_a_request_it_does_not_hold() {
        let store = Store::temporary().unwrap();
        let id = record(&store, |_| serde_json::json!({ "n": 1 })).unwrap();
        assert_eq!(get(&store, &id).unwrap().sent["n"], 1);
        let refusal = get(&store, "h-none").unwrap_err();
        assert_eq!(
            (refusal.status(), refusal.code, refusal.path.as_deref()),
            (
                404,
                xs2a_core::domain::refusal::Code::ResourceUnknown,
                Some("id")
            )
        );
        assert_eq!(
            refusal.text,
            "No sent request with id 'h-none' exists in this sandbox."
        );
    }
}
