//! One app per data directory: a second launch on the directory a running app serves hands its arguments
//! to that app, which brings its window to the front, and ends (tauri-plugin-single-instance). On Linux the
//! lock is a D-Bus name derived from the data directory, so apps on other directories (`--data`, tests with
//! their own HOME) run side by side; on Windows and macOS the plugin allows one app per user. Ephemeral
//! launches share nothing and take no lock. Without a D-Bus session bus (a bare X server) the plugin lets
//! every launch start; the data directory's own lock then refuses the second one with a message.

use std::path::Path;
use tauri::{AppHandle, Manager, Runtime};
use xs2a_http::app::DataDir;

/// The D-Bus name prefix of the app serving `data`: the app's identifier and a hash of the directory's
/// absolute path (the plugin appends `.SingleInstance`). `None` for an ephemeral store.
pub fn lock_name(identifier: &str, data: &DataDir) -> Option<String> {
    let DataDir::At(dir) = data else {
        return None;
    };
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
    Some(format!("{identifier}.d{:016x}", fnv1a(&dir)))
}

/// FNV-1a over the path's bytes: stable across builds and Rust versions, unlike the std hasher, so that a
/// newer app finds an older one still running.
fn fnv1a(path: &Path) -> u64 {
    path.as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// A second launch asked for the workbench: show the main window, restored and focused.
pub fn bring_forward<R: Runtime>(app: &AppHandle<R>, args: &[String]) {
    use std::io::Write;
    if let Some(window) = app.get_webview_window(crate::window::MAIN) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    // The tests (and anyone wondering where the second launch went) read this line.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "xs2a-desktop: a second launch ({} argument(s)) brought this window forward",
        args.len().saturating_sub(1)
    );
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_data_directory_has_its_own_lock_and_ephemeral_none() {
        let id = "no.sandbox.xs2a.workbench";
        let a = lock_name(id, &DataDir::At("/home/u/.local/share/a".into())).unwrap();
        let b = lock_name(id, &DataDir::At("/home/u/.local/share/b".into())).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            a,
            lock_name(id, &DataDir::At("/home/u/.local/share/a".into())).unwrap()
        );
        assert!(a.starts_with("no.sandbox.xs2a.workbench.d"));
        assert_eq!(lock_name(id, &DataDir::Ephemeral), None);
    }

    #[test]
    fn the_lock_name_is_a_valid_dbus_name() {
        // Elements of letters, digits and underscores, none starting with a digit, 255 bytes at most.
        let name = lock_name("no.sandbox.xs2a.workbench", &DataDir::At("/tmp/x y".into())).unwrap();
        let name = format!("{name}.SingleInstance");
        assert!(name.len() <= 255);
        for element in name.split('.') {
            assert!(!element.is_empty() && !element.starts_with(|c: char| c.is_ascii_digit()));
            assert!(element
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
        }
    }

    #[test]
    fn the_hash_is_fnv1a() {
        // Reference values of 64-bit FNV-1a.
        assert_eq!(fnv1a(Path::new("")), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(Path::new("a")), 0xaf63_dc4c_8601_ec8c);
    }
}
