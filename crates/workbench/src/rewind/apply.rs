//! Returning the sandbox to a point: the journal undone from the point's record up to the newest, in one
//! commit over every journaled tree, under the locks an import takes (no batch run or mock-data write
//! decides against a state being replaced). The rewind is an event of the timeline (`rewind`), whose
//! journal record holds what it replaced: returning to the state before it undoes it. What the service
//! holds in memory from the state (the clock, the traffic log's switches, the rehearsal's profile and
//! fault plan) is read again, the store's decoded snapshots are stale from the commit on, and the
//! workbench is told `sandbox.changed {what: "all"}`. The sandbox rewinds only itself: the TPP's own
//! records (tokens, ids it kept) stay as they are.

use super::point::{record_of, refusal, resolve, Point};
use crate::app_state::AppState;
use serde::Serialize;
use serde_json::json;
use xs2a_core::bank::events::EventKind;
use xs2a_core::domain::cause;
use xs2a_core::domain::refusal::CoreResult;

/// What a rewind did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Rewound {
    /// The point the sandbox is at now.
    pub to: Point,
    /// The rewind's own entry on the timeline (null when the traffic log is off): return to the state
    /// before it to undo the rewind.
    #[schema(required = true)]
    pub entry: Option<u64>,
    /// How many journal records (commits) were undone, and how many records of the state changed.
    pub undone: usize,
    pub changed: usize,
    /// Said when the rewind changed nothing, or when it returned to the entry that made the named event's
    /// changes rather than to the event itself (docs/rewind.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What a rewind to a point would do now, nothing applied: the confirmation shows it, and offers no
/// rewind where nothing would change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RewindPreview {
    pub to: Point,
    /// How many journal records (commits) a rewind would undo, and how many records of the state it
    /// would change.
    pub undone: usize,
    pub changed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The words for a rewind (or its preview) that undoes `undone` records, at `point`, whose changes are
/// `owner`'s.
fn note(point: Point, owner: u64, undone: usize, changed: usize) -> Option<String> {
    let mut words = Vec::new();
    if owner != point.entry {
        words.push(format!(
            "Entry {} is an event whose changes were made by entry {owner} (the exchange or run that \
             caused it): the sandbox returns to the state {} entry {owner}.",
            point.entry,
            point.position.as_str()
        ));
    }
    if undone == 0 || changed == 0 {
        words.push(format!(
            "Nothing to undo: no change to the sandbox's state was recorded {} this point, so the state \
             is already what it was there.",
            match point.position {
                super::Position::Before => "at or after",
                super::Position::After => "after",
            }
        ));
    }
    (!words.is_empty()).then(|| words.join(" "))
}

/// What [`rewind`] to `point` would undo now, without changing anything.
pub fn preview(state: &AppState, point: Point, path: &str) -> CoreResult<RewindPreview> {
    let (from, owner) = resolve(state, point, path)?;
    let journal = super::point::journal(state, path)?;
    let undo = journal.undo_from(from).map_err(|e| refusal(e, path))?;
    let changed = undo
        .values
        .iter()
        .filter(|(place, before)| undo.expected.get(*place) != Some(*before))
        .count();
    Ok(RewindPreview {
        to: point,
        undone: undo.records,
        changed,
        note: note(point, owner, undo.records, changed),
    })
}

/// Returns the sandbox to `point`. `path` names the parameter for refusals.
pub fn rewind(state: &AppState, point: Point, path: &str) -> CoreResult<Rewound> {
    let (from, owner) = resolve(state, point, path)?;
    let store = &state.store;
    let (outcome, cause) = {
        let _runs = store.locks().runs();
        let _mock_data = store.locks().mock_data();
        let _access_log = store.locks().access_log();
        let timeline = store.journal().and_then(|j| j.timeline());
        cause::as_event(EventKind::Rewind.name(), timeline, || -> CoreResult<_> {
            let rewound = store.rewind_to(from).map_err(|e| refusal(e, path))?;
            state.events.publish(
                EventKind::Rewind,
                state.clock.now(),
                json!({
                    "to": point.entry,
                    "position": point.position,
                    "undone": rewound.undone,
                    "changed": rewound.changed,
                }),
            );
            Ok(rewound)
        })
    };
    let rewound = outcome?;
    crate::state_file::live::reload_memory(state)?;
    state.events.publish(
        EventKind::SandboxChanged,
        state.clock.now(),
        json!({"what": "all"}),
    );
    Ok(Rewound {
        to: point,
        entry: cause.map(|c| c.id()).filter(|id| *id > 0),
        undone: rewound.undone,
        changed: rewound.changed,
        note: note(point, owner, rewound.undone, rewound.changed),
    })
}

/// The state at `point` as a state file, the live state untouched.
pub fn state_at(state: &AppState, point: Point, path: &str) -> CoreResult<Vec<u8>> {
    let from = record_of(state, point, path)?;
    let journal = super::point::journal(state, path)?;
    crate::state_file::at::export_at(&state.store, journal, from).map_err(|e| match e {
        crate::state_file::at::AtError::Journal(e) => refusal(e, path),
        crate::state_file::at::AtError::File(e) => e.into(),
    })
}
