//! Named snapshots of the whole state (the trainer's "back to the start of the demo"): a snapshot is a
//! state file (`crate::state_file`) kept under a name in the store; restoring one is an import that
//! replaces the state, in one commit. Snapshots live in a tree of their own, outside state files and
//! untouched by initialisation, like the logs.

use crate::app_state::AppState;
use crate::state_file::{self, Mode, Preview};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::store::Record;

/// The most snapshots kept (each is a whole state).
pub const MAX_SNAPSHOTS: usize = 50;

/// One stored snapshot.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub name: String,
    /// When it was taken, by the sandbox clock.
    #[serde(with = "time::serde::rfc3339")]
    pub taken_at: OffsetDateTime,
    /// The state file, as text.
    pub state: String,
    /// The last traffic-log entry when it was taken: what was served since is the flow played on it.
    #[serde(default)]
    pub traffic_after: u64,
}

impl Record for Snapshot {
    const TREE: &'static str = "workbench-snapshots";
    fn key(&self) -> String {
        self.name.clone()
    }
}

/// What the list shows of a snapshot.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub name: String,
    #[serde(with = "time::serde::rfc3339")]
    pub taken_at: OffsetDateTime,
    pub bytes: usize,
}

impl From<&Snapshot> for Summary {
    fn from(s: &Snapshot) -> Self {
        Summary {
            name: s.name.clone(),
            taken_at: s.taken_at,
            bytes: s.state.len(),
        }
    }
}

/// A name is 1 to 100 characters, none of them a control character or `/`.
fn check_name(name: &str) -> CoreResult<()> {
    if name.is_empty()
        || name.chars().count() > 100
        || name.chars().any(|c| c.is_control() || c == '/')
    {
        return Err(Refusal::format(
            "name",
            "a snapshot's name has 1 to 100 characters, without control characters or '/'",
        ));
    }
    Ok(())
}

/// Takes (or retakes) the snapshot `name` of the current state.
pub fn take(state: &AppState, name: &str) -> CoreResult<Summary> {
    check_name(name)?;
    let table = state.store.table::<Snapshot>()?;
    if table.get(name)?.is_none() && table.len() >= MAX_SNAPSHOTS {
        return Err(Refusal::conflict(
            "name",
            format!("{MAX_SNAPSHOTS} snapshots are kept at most; delete one first"),
        ));
    }
    let bytes = state_file::export(&state.store).map_err(Refusal::from)?;
    let snapshot = Snapshot {
        name: name.to_owned(),
        taken_at: state.clock.now(),
        state: String::from_utf8(bytes).map_err(Refusal::internal)?,
        traffic_after: state.traffic.last_given(),
    };
    table.insert(&snapshot)?;
    Ok(Summary::from(&snapshot))
}

/// The snapshots, by name.
pub fn list(state: &AppState) -> CoreResult<Vec<Summary>> {
    Ok(state
        .store
        .table::<Snapshot>()?
        .list()?
        .iter()
        .map(Summary::from)
        .collect())
}

/// The state file of snapshot `name`.
pub fn get(state: &AppState, name: &str) -> CoreResult<Snapshot> {
    state
        .store
        .table::<Snapshot>()?
        .get(name)?
        .ok_or_else(|| Refusal::unknown("name", "snapshot", name))
}

/// Every exchange served since snapshot `name` was taken, as a flow that starts from it (the trainer's
/// demo, or a tester's journeys, to replay on the snapshot's state in CI).
pub fn flow_since(state: &AppState, name: &str) -> CoreResult<crate::flow::FlowFile> {
    let snapshot = get(state, name)?;
    let traffic = &state.traffic;
    traffic.settle(std::time::Duration::from_secs(2));
    let mut flow = crate::flow::from_traffic::since(traffic, snapshot.traffic_after)?;
    flow.state = Some(format!("{name}.state.json"));
    flow.description = Some(format!("everything served since the snapshot '{name}'"));
    Ok(flow)
}

/// Puts the state back as snapshot `name` holds it, all at once.
pub fn restore(state: &AppState, name: &str) -> CoreResult<Preview> {
    let snapshot = get(state, name)?;
    Ok(state_file::live::import(
        state,
        snapshot.state.as_bytes(),
        Mode::Replace,
    )?)
}

/// Deletes snapshot `name`.
pub fn delete(state: &AppState, name: &str) -> CoreResult<()> {
    state
        .store
        .table::<Snapshot>()?
        .remove(name)?
        .map(|_| ())
        .ok_or_else(|| Refusal::unknown("name", "snapshot", name))
}
