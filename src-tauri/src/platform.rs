//! What the app does differently per platform, outside the library's seams (`xs2a_core::platform`) and
//! the Linux-only memory levers (memory.rs): the program that opens a folder in the desktop's file manager.

/// Opens a directory in the file manager: Finder on macOS, Explorer on Windows, the desktop's default
/// (xdg-open) elsewhere.
pub const FILE_MANAGER: &str = if cfg!(target_os = "macos") {
    "open"
} else if cfg!(windows) {
    "explorer"
} else {
    "xdg-open"
};
