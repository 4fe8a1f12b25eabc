//! The traffic log's records besides its segments ([`super::segment`]): its settings, and the records of
//! earlier versions (a summary and a whole exchange per entry, and the totals), carried over into
//! segments the first time this version opens the log.

use super::chunks::Chunks;
use super::model::{Entry, Exchange};
use super::segment::{Item, Segment, SegmentInfo};
use super::shelf::Shelf;
use serde::{Deserialize, Serialize};
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::store::{Record, Store, StoreError};

/// The key of entry `id` in the earlier trees: fixed-width hex, so keys sort as numbers.
fn key(id: u64) -> String {
    format!("{id:016x}")
}

/// An entry's summary, as earlier versions stored it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredEntry {
    pub entry: Entry,
    /// The bytes the entry takes in storage (summary and detail), for the byte cap.
    pub bytes: u64,
}

impl Record for StoredEntry {
    const TREE: &'static str = "traffic-entries";
    fn key(&self) -> String {
        key(self.entry.id())
    }
}

/// A whole exchange as earlier versions stored it (binary, or earlier still JSON).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredExchange(pub Exchange);

impl Record for StoredExchange {
    const TREE: &'static str = "traffic-exchanges";
    fn key(&self) -> String {
        key(self.0.summary.id)
    }

    fn to_stored(&self) -> Result<Vec<u8>, StoreError> {
        serde_json::to_vec(&self.0).map_err(|e| StoreError::Damaged {
            tree: Self::TREE,
            reason: e.to_string(),
        })
    }

    fn from_stored(bytes: &[u8]) -> Result<Self, StoreError> {
        super::codec::decode(bytes)
            .map(StoredExchange)
            .map_err(|reason| StoreError::Damaged {
                tree: Self::TREE,
                reason,
            })
    }
}

/// How much the log held, as earlier versions counted it (the segments' keys carry it now).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Totals {
    pub id: String,
    pub entries: u64,
    pub bytes: u64,
}

impl Record for Totals {
    const TREE: &'static str = "traffic-totals";
    fn key(&self) -> String {
        "totals".to_owned()
    }
}

/// How many entries of an earlier log go into one segment.
const CARRIED_PER_SEGMENT: usize = 256;

/// Carries a log written by an earlier version (a record per entry) over into segments: their bytes go
/// to `chunks`, then their index records and the emptying of the old trees in one commit, so that after
/// a crash either the old trees or the segments hold it. Nothing to do on later starts.
pub fn carry_over_earlier_log(
    store: &Store,
    shelf: &mut Shelf,
    chunks: &mut Chunks,
) -> CoreResult<()> {
    let summaries = store.table::<StoredEntry>()?;
    if summaries.is_empty() {
        return Ok(());
    }
    let entries = summaries.list()?;
    let exchanges = store.table::<StoredExchange>()?;
    let mut wholes = Vec::with_capacity(entries.len());
    for stored in &entries {
        wholes.push(match &stored.entry {
            Entry::Exchange(summary) => exchanges.get(&key(summary.id))?.map(|e| e.0),
            Entry::Event(_) => None,
        });
    }
    let mut infos = Vec::new();
    for chunk in entries
        .iter()
        .zip(&wholes)
        .collect::<Vec<_>>()
        .chunks(CARRIED_PER_SEGMENT)
    {
        let items: Vec<Item> = chunk
            .iter()
            .filter_map(|(stored, whole)| match (&stored.entry, whole) {
                (Entry::Exchange(_), Some(whole)) => Some(Item::Exchange(whole, stored.bytes)),
                (Entry::Event(event), _) => Some(Item::Event(event, stored.bytes)),
                // A summary without its exchange was half pruned: it goes.
                (Entry::Exchange(_), None) => None,
            })
            .collect();
        if items.is_empty() {
            continue;
        }
        let segment = Segment::build(shelf.next_seq(), items);
        let location = chunks.append(&segment.bytes).map_err(Refusal::internal)?;
        infos.push(segment.info(location));
    }
    chunks.sync().map_err(Refusal::internal)?;
    store.atomically(|store| -> CoreResult<()> {
        let table = store.table::<SegmentInfo>()?;
        for info in &infos {
            table.insert(info)?;
        }
        store.clear_trees(&[StoredEntry::TREE, StoredExchange::TREE, Totals::TREE])?;
        Ok(())
    })?;
    for info in &infos {
        shelf.push(*info);
    }
    tracing::info!(
        entries = entries.len(),
        segments = infos.len(),
        "the traffic log of an earlier version was carried over into segments"
    );
    Ok(())
}

/// The log's switches and caps (settable through the workbench API).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TrafficSettings {
    pub enabled: bool,
    pub max_entries: u64,
    pub max_bytes: u64,
}

impl Default for TrafficSettings {
    fn default() -> Self {
        TrafficSettings {
            enabled: true,
            max_entries: 100_000,
            max_bytes: 256 * 1024 * 1024,
        }
    }
}

/// The stored settings, under one key.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredSettings {
    pub id: String,
    pub settings: TrafficSettings,
}

impl Record for StoredSettings {
    const TREE: &'static str = "traffic-settings";
    fn key(&self) -> String {
        "settings".to_owned()
    }
}

/// Changes asked for at start (`serve` flags); what is not given stays as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrafficOverrides {
    pub enabled: Option<bool>,
    pub max_entries: Option<u64>,
    pub max_bytes: Option<u64>,
}

impl TrafficOverrides {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// `settings` with these changes applied.
    pub fn apply(&self, mut settings: TrafficSettings) -> TrafficSettings {
        if let Some(enabled) = self.enabled {
            settings.enabled = enabled;
        }
        if let Some(max) = self.max_entries {
            settings.max_entries = max;
        }
        if let Some(max) = self.max_bytes {
            settings.max_bytes = max;
        }
        settings
    }
}
