//! State files: the whole sandbox state (mock data, flows, configuration; not the logs) as one versioned
//! JSON document, exported and imported by the CLI, `serve --fixture`, the workbench and snapshots.
//! Built on the store's registry of trees (`trees`), so a tree added to the state and not to the file
//! fails a test. The format is documented in docs/fixtures.md, its schema in fixtures/schema/.

pub mod error;
pub mod export;
pub mod import;
pub mod live;
pub mod trees;

pub use error::{FaultKind, FileError};
pub use export::export;
pub use import::{import, preview, Mode, Preview};

/// The `format` member of every state file.
pub const FORMAT: &str = "xs2a-sandbox/state";
/// The one format version this sandbox reads and writes.
pub const VERSION: u64 = 1;

#[cfg(test)]
mod tests;
