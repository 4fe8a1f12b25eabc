//! State files: the whole sandbox state (mock data, flows, configuration; not the logs) as one versioned
//! JSON document, exported and imported by the CLI, `serve --fixture`, the workbench and snapshots.
//! Built on the store's registry of trees (`trees`), so a tree added to the state and not to the file
//! fails a test. The format is documented in docs/fixtures.md, its schema in fixtures/schema/.

pub mod at;
pub mod error;
pub mod export;
pub mod import;
mod import_mode;
pub mod live;
pub mod trees;
pub mod versions;

pub use error::{FaultKind, FileError};
pub use export::export;
pub use import::{import, import_reporting, preview, ImportStage, Mode, Preview};
use versions::{FileMigration, Versions};

/// The `format` member of every state file.
pub const FORMAT: &str = "xs2a-sandbox/state";
/// Changes of the state file's format, oldest first; an older file is brought up through them as it is
/// read.
pub const MIGRATIONS: &[FileMigration] = &[FileMigration {
    to: 2,
    what: "the rehearsal tree (profile and fault plan, docs/rehearsal.md) may be present",
    // A version 1 file has no rehearsal tree, which reads as the sandbox profile and no plan: nothing to
    // change. The version still moves, so that an older sandbox refuses a version 2 file by its version
    // (with the message that says what to do) rather than by an unknown tree.
    run: |_| Ok(()),
}];
/// The state file's versions: [`MIGRATIONS`] and what messages call it.
pub const VERSIONS: Versions = Versions {
    kind: "state file",
    migrations: MIGRATIONS,
};
/// The format version this sandbox writes, and the newest it reads.
pub const VERSION: u64 = VERSIONS.current();

#[cfg(test)]
mod tests;
