//! The payment batch simulator (docs/reference/payments.md#sca-states-batch-runs: the sandbox
//! simulates payment batch processing for all payments except periodic ones, run five times a day).
//!
//! Everything after authorisation is decided here: the five daily runs ([`schedule`]), which payments a
//! run acts on ([`due`]: never a periodic one), what it decides for each ([`decide`]) against the accounts
//! ([`ledger`]), how it is written ([`write`]) and announced ([`announce`]), one run ([`run`]), catching up
//! the runs missed while time moved ([`catch_up`]), the stored run records ([`model`]), and the ticker that
//! performs the runs as simulated time passes ([`scheduler`]); what the bank-side controls read and set
//! around them ([`monitor`]). Instant payments are executed at
//! authorisation through [`execute_now`] ([`instant`]).

mod announce;
mod bookings;
pub mod catch_up;
pub mod decide;
mod due;
pub mod instant;
pub mod ledger;
pub mod model;
pub mod monitor;
pub mod run;
pub mod schedule;
pub mod scheduler;
mod write;

pub use catch_up::run_due;
pub use instant::execute_now;
pub use model::{BatchRun, Outcome, Trigger};
pub use run::run_batch;
pub use scheduler::spawn_scheduler;
