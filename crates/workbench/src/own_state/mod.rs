//! The workbench's own state, beside the bank's: the TPP personas the composer signs with, the composer's
//! history, the SCA redirects captured at the workbench's callback, and named snapshots of the state;
//! and a persona's certificate and key handed out as a `--cert-dir` (`persona_key`).
//! Transport-free; the HTTP crate's `api::workbench` serves it to the UI.

pub mod callbacks;
pub mod history;
pub mod persona_key;
pub mod personas;
pub mod sca_finished;
pub mod sca_pending;
pub mod snapshots;
