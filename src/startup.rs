//! What happens once when the service starts on a data directory: a fresh store gets the initial sandbox
//! state, so the first request already finds customers.

use crate::refusal::Refusal;
use crate::sandbox::model::Customer;
use crate::state::AppState;

/// Seeds an empty store with the sandbox's known initial state (as POST /v1/sandbox/initialize would).
/// A store that already holds customers is left as it is.
pub fn prepare(state: &AppState) -> Result<(), Refusal> {
    if state.store.table::<Customer>()?.is_empty() {
        crate::sandbox::seed::initialize(&state.store, state.clock.now().date())?;
    }
    Ok(())
}
