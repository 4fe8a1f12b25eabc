//! A point of the timeline to read or return to: the state before or after one entry (an exchange or an
//! event the traffic log holds), found as a journal record number. Every refusal says which entry and
//! why: unknown to the log, beyond the journal's reach, or the journal is off.

use crate::app_state::AppState;
use crate::traffic::model::{EventEntry, Exchange};
use serde::{Deserialize, Serialize};
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::store::journal::{Journal, JournalError};

/// Before or after an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Position {
    Before,
    After,
}

impl Position {
    pub fn as_str(self) -> &'static str {
        match self {
            Position::Before => "before",
            Position::After => "after",
        }
    }
}

/// The state before or after entry `entry`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Point {
    pub entry: u64,
    pub position: Position,
}

/// The journal, or the refusal of a sandbox that runs without it.
pub fn journal<'s>(state: &'s AppState, path: &str) -> CoreResult<&'s Journal> {
    state.store.journal().ok_or_else(|| {
        Refusal::conflict(
            path,
            "The change journal is off (the sandbox was started with --no-journal): it keeps no record of \
             what changed, so it cannot show or return to an earlier state. Start it without \
             --no-journal.",
        )
    })
}

/// The refusal of a journal error, at `path` (the parameter that named the entry).
pub fn refusal(error: JournalError, path: &str) -> Refusal {
    match error {
        JournalError::Store(error) => error.into(),
        other @ (JournalError::BeyondReach { .. }
        | JournalError::Pruned { .. }
        | JournalError::Diverged { .. }) => Refusal::conflict(path, other.to_string()),
    }
}

/// Checks that the traffic log holds entry `entry`, waiting for what was handed to it to be stored, and
/// returns it as read (the exchange, or the event).
pub fn check_entry(
    state: &AppState,
    entry: u64,
    path: &str,
) -> CoreResult<Result<Exchange, EventEntry>> {
    if !state.traffic.issued(entry) || entry == 0 {
        return Err(Refusal::unknown(path, "timeline entry", &entry.to_string()));
    }
    state.traffic.settle(std::time::Duration::from_secs(2));
    state
        .traffic
        .get(entry)?
        .ok_or_else(|| Refusal::unknown(path, "timeline entry", &entry.to_string()))
}

/// The entry whose journal records make up `entry`'s changes: the entry itself, or for an event whose
/// changes were recorded under another entry (a batch run a request asked for, a payment's status step
/// within a run), that entry (`causedBy`, see `xs2a_core::bank::events`). Returning to such an event returns to
/// the point of the entry that made its changes, so that "before the run" undoes the run.
fn owner_of(entry: u64, read: &Result<Exchange, EventEntry>) -> u64 {
    let caused_by = match read {
        Err(event) => event.data[xs2a_core::bank::events::CAUSED_BY].as_u64(),
        Ok(_) => None,
    };
    caused_by.filter(|owner| *owner != entry).unwrap_or(entry)
}

/// The journal record number from which the journal is undone to return to `point`, for a point the
/// log and the journal both hold, and the entry that point was taken at (see [`owner_of`]).
pub fn resolve(state: &AppState, point: Point, path: &str) -> CoreResult<(u64, u64)> {
    let journal = journal(state, path)?;
    let read = check_entry(state, point.entry, path)?;
    let owner = owner_of(point.entry, &read);
    let found = match point.position {
        Position::Before => journal.before(owner),
        Position::After => journal.after(owner),
    };
    Ok((found.map_err(|e| refusal(e, path))?, owner))
}

/// The journal record number from which the journal is undone to return to `point`.
pub fn record_of(state: &AppState, point: Point, path: &str) -> CoreResult<u64> {
    Ok(resolve(state, point, path)?.0)
}
