//! What one entry of the timeline changed: the journal records its cause wrote, net per record (a
//! payment written three times by one request shows once, from before the first write to after the last).

use super::point::{check_entry, journal, refusal};
use super::summary::{net_of, summarise, ChangeSummary};
use crate::app_state::AppState;
use serde::Serialize;
use xs2a_core::domain::refusal::CoreResult;

/// The state changes of one entry.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryChanges {
    pub entry: u64,
    /// How many commits it made (0: it changed nothing).
    pub commits: usize,
    #[serde(flatten)]
    pub summary: ChangeSummary,
}

/// The changes entry `entry` made; `path` names the parameter for refusals.
pub fn of_entry(state: &AppState, entry: u64, path: &str) -> CoreResult<EntryChanges> {
    let journal = journal(state, path)?;
    let _known = check_entry(state, entry, path)?;
    let sets = journal.records_of(entry).map_err(|e| refusal(e, path))?;
    Ok(EntryChanges {
        entry,
        commits: sets.len(),
        summary: summarise(net_of(&sets)),
    })
}
