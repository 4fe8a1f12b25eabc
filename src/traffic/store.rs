//! The traffic log's records: one summary per entry (what the list reads) and, for exchanges, the whole
//! exchange (what the detail view reads), keyed by the entry's number so key order is time order.

use super::model::{Entry, Exchange};
use crate::store::{Record, StoreError};
use serde::{Deserialize, Serialize};

/// The key of entry `id`: fixed-width hex, so keys sort as numbers.
pub fn key(id: u64) -> String {
    format!("{id:016x}")
}

/// An entry's summary.
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

/// A whole exchange, stored in the compact binary form of [`super::codec`] (one is written per request).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredExchange(pub Exchange);

impl Record for StoredExchange {
    const TREE: &'static str = "traffic-exchanges";
    fn key(&self) -> String {
        key(self.0.summary.id)
    }

    fn to_stored(&self) -> Result<Vec<u8>, StoreError> {
        Ok(super::codec::encode(&self.0))
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

/// How much the log holds, kept with it so that start-up needs no scan of the bodies.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Totals {
    pub id: String,
    pub entries: u64,
    pub bytes: u64,
}

impl Totals {
    pub const KEY: &'static str = "totals";
}

impl Record for Totals {
    const TREE: &'static str = "traffic-totals";
    fn key(&self) -> String {
        Self::KEY.to_owned()
    }
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
