//! Writing what a run decided, inside the run's atomic operation: its bookings (already in their stored
//! form, one block per account, `bookings`) with the accounts' new last sequence numbers, each touched
//! account and card account once, and the changed payments; each tree in one pass.

use super::ledger::Ledger;
use crate::bank::mock::model::{Account, CardAccount};
use crate::bank::pis::model::Payment;
use crate::domain::refusal::Refusal;
use crate::store::Store;

/// Writes the ledger's bookings and touched accounts, and the payments whose `changed` flag is set.
pub(super) fn commit(
    store: &Store,
    ledger: Ledger,
    payments: &[Payment],
    changed: &[bool],
) -> Result<(), Refusal> {
    let writes = ledger.into_writes();
    writes.bookings.write(store)?;
    store.table::<Account>()?.insert_many(&writes.accounts)?;
    store.table::<CardAccount>()?.insert_many(&writes.cards)?;
    store.table::<Payment>()?.insert_many(
        payments
            .iter()
            .zip(changed)
            .filter(|(_, c)| **c)
            .map(|(p, _)| p),
    )?;
    Ok(())
}
