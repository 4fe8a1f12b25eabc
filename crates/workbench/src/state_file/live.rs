//! Importing into a running service: besides the store, what the service holds in memory from stored
//! configuration (the clock, the traffic log's switches, the rehearsal) is brought in line with the imported state.

use super::import::{self, Mode, Preview};
use super::FileError;
use crate::app_state::AppState;
use xs2a_core::domain::refusal::CoreResult;

/// Imports `bytes` into the running service's store, then brings what the service holds in memory in
/// line with what was imported ([`reload_memory`]).
pub fn import(state: &AppState, bytes: &[u8], mode: Mode) -> Result<Preview, FileError> {
    let what = || serde_json::json!({"what": "import", "mode": mode});
    xs2a_core::bank::causes::recorded(state, what, || import_live(state, bytes, mode))
}

fn import_live(state: &AppState, bytes: &[u8], mode: Mode) -> Result<Preview, FileError> {
    let preview = import::import(&state.store, bytes, mode)?;
    reload_memory(state).map_err(|r| FileError::storage(r.text))?;
    Ok(preview)
}

/// Brings what the service holds in memory from stored configuration (the clock, the traffic log's
/// switches, the rehearsal's profile and fault plan) in line with the store, after the store's state was
/// replaced under it (an import, a rewind).
pub fn reload_memory(state: &AppState) -> CoreResult<()> {
    xs2a_core::bank::clock_control::restore(&state.store, &state.clock)?;
    let stored = state
        .store
        .table::<crate::traffic::store::StoredSettings>()?
        .get("settings")?;
    if let Some(stored) = stored {
        let _ = state.traffic.set_settings(stored.settings);
    }
    state.rehearsal.reload(&state.store)
}
