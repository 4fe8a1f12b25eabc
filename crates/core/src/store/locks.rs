//! The locks that order read-modify-write operations on one store. They belong to the store (not to the
//! process), so two services in one process — tests, or the desktop app beside a headless one — never
//! wait on each other.
//!
//! Order, when several are held: `runs`, then `mock_data`, then `access_log`. `sca_records` is taken
//! with no other held.

use std::sync::{Mutex, MutexGuard};

#[derive(Debug, Default)]
pub struct Locks {
    runs: Mutex<()>,
    mock_data: Mutex<()>,
    access_log: Mutex<()>,
    payment_creation: Mutex<()>,
    sca_records: Mutex<()>,
}

/// A poisoned lock guards no half state: an operation's writes are committed together at its end, or
/// not at all, so a panic inside one leaves the store as it was. The lock is taken over.
fn take(lock: &Mutex<()>) -> MutexGuard<'_, ()> {
    lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Locks {
    /// Serialises batch runs, catch-ups, instant executions and changes to existing payments: a run
    /// decides against balances it read, so two must not interleave.
    pub fn runs(&self) -> MutexGuard<'_, ()> {
        take(&self.runs)
    }

    /// Serialises mock-data writes: uniqueness checks (same BBAN) and per-account sequence numbers read
    /// before they write.
    pub fn mock_data(&self) -> MutexGuard<'_, ()> {
        take(&self.mock_data)
    }

    /// Serialises the access log's read-modify-write: parallel unattended calls must not both read
    /// "3 used" and both pass.
    pub fn access_log(&self) -> MutexGuard<'_, ()> {
        take(&self.access_log)
    }

    /// Serialises the logical-duplicate check and the creation of a payment.
    pub fn payment_creation(&self) -> MutexGuard<'_, ()> {
        take(&self.payment_creation)
    }

    /// Serialises the bookkeeping of stored authorisations (each TPP's list and count, the expiry
    /// index): starting one and pruning read a count before they write it.
    pub fn sca_records(&self) -> MutexGuard<'_, ()> {
        take(&self.sca_records)
    }
}
