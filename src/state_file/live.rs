//! Importing into a running service: besides the store, what the service holds in memory from stored
//! configuration (the clock, the traffic log's switches) is brought in line with the imported state.

use super::import::{self, Mode, Preview};
use super::FileError;
use crate::state::AppState;

/// Imports `bytes` into the running service's store, then restores the clock and the traffic log's
/// settings from what was imported.
pub fn import(state: &AppState, bytes: &[u8], mode: Mode) -> Result<Preview, FileError> {
    let what = || serde_json::json!({"what": "import", "mode": mode});
    crate::rewind::cause::recorded(state, what, || import_live(state, bytes, mode))
}

fn import_live(state: &AppState, bytes: &[u8], mode: Mode) -> Result<Preview, FileError> {
    let preview = import::import(&state.store, bytes, mode)?;
    crate::clock_control::restore(&state.store, &state.clock)
        .map_err(|r| FileError::storage(r.text))?;
    let stored = state
        .store
        .table::<crate::traffic::store::StoredSettings>()?
        .get("settings")?;
    if let Some(stored) = stored {
        let _ = state.traffic.set_settings(stored.settings);
    }
    Ok(preview)
}
