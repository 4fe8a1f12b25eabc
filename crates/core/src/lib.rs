//! xs2a-core: the bank. Its rules, the one clock and the one refusal type, the store, request signing and
//! the gate's checks, the mock data, consent, SCA, account information, payments and the batch, and the
//! rehearsal rules.
//!
//! It knows neither HTTP nor Tauri (no axum, hyper, tower or tauri dependency: the manifest is the proof),
//! nor the workbench's tools: operations refuse with [`domain::refusal::Refusal`] and read time from
//! [`domain::clock::Clock`].
//!
//! One folder per layer, on three floors (docs/architecture.md draws them):
//! - `domain` (the rules' vocabulary: money, code lists, the clock, the refusal, the write's cause; no I/O)
//!   and `platform` (the operating system's seams) stand on nothing;
//! - `store` (sled, the journal, the codec, migrations' machinery) on both, and `signing` (certificates,
//!   the signature, the gate's checks) on `domain`;
//! - `bank` (one folder per area: ais, pis, sca, consent, batch, mock, rehearsal, events, …) on all of them.
//!
//! A file never references a layer above its own floor nor a sibling on it: `scripts/check-structure.sh`
//! fails on such an arrow, and its self-test shows it does.

pub mod bank;
pub mod domain;
pub mod platform;
pub mod signing;
pub mod store;
