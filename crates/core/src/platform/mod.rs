//! What differs between Linux, macOS and Windows, each behind one small seam, so that the rest of the crate
//! is written once (docs/desktop.md, Platforms). Everything `cfg`-dependent in the library lives here.

pub mod dir_lock;
pub mod dirs;
pub mod fs_sync;
pub mod read_at;
pub mod stop_signal;
