//! The payment batch simulator (SPEC.md, "Sandbox behaviour": the sandbox simulates payment batch
//! processing for all payments except periodic ones, run five times a day).
//!
//! Everything after authorisation is decided here: the five daily runs ([`schedule`]), what a run does to
//! each due payment and to the accounts ([`run`], [`ledger`]), standing-order dates ([`periodic`]), the
//! stored run records ([`model`]), and the ticker that performs the runs as simulated time passes
//! ([`scheduler`]). Instant payments are executed at authorisation through [`execute_now`].

pub mod ledger;
pub mod model;
pub mod periodic;
pub mod run;
pub mod schedule;
pub mod scheduler;

pub use model::{BatchRun, Outcome, Trigger};
pub use run::{execute_now, run_batch, run_due};
pub use scheduler::spawn_scheduler;

use std::sync::{Mutex, MutexGuard};

/// Serialises runs, catch-ups and instant executions: a run decides against balances it read, so two must
/// not interleave. Code that changes the status of an existing payment (deleting, cancelling) should hold
/// it too, so that a run in progress does not overwrite the change; never hold it when calling
/// [`execute_now`] or [`run_batch`], which take it themselves. Taken before the mock-data write lock.
static RUNS: Mutex<()> = Mutex::new(());

/// Takes the run lock (a panic in a run leaves nothing half-written worth protecting: the writes come
/// last, so a poisoned lock is taken over).
pub fn lock() -> MutexGuard<'static, ()> {
    RUNS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
