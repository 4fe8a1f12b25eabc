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
