//! Where data lives by default, by the platform's convention: `$XDG_DATA_HOME` (`~/.local/share`) on
//! Linux, `~/Library/Application Support` on macOS, `%LOCALAPPDATA%` on Windows. Local rather than roaming
//! on Windows (`%APPDATA%`): a database of this size must not travel with a roaming profile.

use std::path::PathBuf;

/// The directory under which the CLI (`xs2a-sandbox`) and the app (its identifier) keep their data.
/// `None` when the platform cannot say (no home directory).
pub fn data_root() -> Option<PathBuf> {
    ::dirs::data_local_dir()
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn linux_follows_xdg_data_home() {
        // data_local_dir is $XDG_DATA_HOME (or ~/.local/share) on Linux: the same place as before.
        assert_eq!(super::data_root(), ::dirs::data_dir());
        assert!(super::data_root().is_some());
    }
}
