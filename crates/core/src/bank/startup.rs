//! What happens once when the service starts on a data directory: a directory never initialised gets the
//! initial sandbox state, so the first request already finds customers. A directory that was initialised
//! (seeded before, or given its state by a fixture or an import) is served exactly as it was left, even
//! when that is an empty bank: the user's state is never seeded over (docs/data-directory.md).

use crate::bank::state::BankState;
use crate::domain::refusal::Refusal;
use crate::store::initialised;
use crate::store::registry::{self, Kind};

/// Seeds a data directory that was never initialised, as POST /v1/sandbox/initialize would, marking it in
/// the same commit. A directory of a version before the marker that holds any bank data (mock data or
/// flows) was seeded by that version: it is marked and left as it is.
pub fn prepare(state: &BankState) -> Result<(), Refusal> {
    let store = &state.store;
    if initialised::is_initialised(store)? {
        return Ok(());
    }
    let bank_trees: Vec<&str> = registry::names(Kind::MockData)
        .into_iter()
        .chain(registry::names(Kind::Flow))
        .collect();
    if store.any_record_in(&bank_trees)? {
        initialised::mark(store, "existing data")?;
    } else {
        crate::bank::mock::seed::initialize(store, state.clock.now().date())?;
    }
    Ok(())
}
