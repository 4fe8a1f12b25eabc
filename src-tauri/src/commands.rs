//! The native parts the UI calls through `window.__TAURI__.core.invoke` (docs/workbench-api.md): the bank's
//! SCA pages in a window of their own, file dialogs for import/export and certificates, and the UI's
//! report that it shows live data. In a browser the UI has its own fallbacks for all of them.

use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tauri::{AppHandle, Manager, State, Url, WebviewUrl, WebviewWindowBuilder};

/// The SCA window's label. It has no capability, so the bank's pages in it cannot call any command.
pub const SCA: &str = "sca";

/// The largest file `open_file` reads: PEMs and sandbox exports are far smaller; this keeps a wrong pick
/// (a disk image) from being copied into the page.
const MAX_OPEN_BYTES: usize = 64 * 1024 * 1024;

/// Opens (or reuses and brings forward) the SCA window on `url`, the scaRedirect of a bank answer. The bank
/// redirects the PSU from there to the workbench's own TPP-Redirect-URI, which records the callback.
///
/// Async: Tauri runs synchronous commands on the main thread, and creating a window from there can
/// deadlock on some platforms.
#[tauri::command]
pub async fn open_sca_window(app: AppHandle, url: String) -> Result<(), String> {
    let url: Url = url
        .parse()
        .map_err(|_| format!("'{url}' is not an absolute URL"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "the SCA window opens http(s) pages only, not {}",
            url.scheme()
        ));
    }
    if let Some(window) = app.get_webview_window(SCA) {
        window.navigate(url).map_err(|e| e.to_string())?;
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
        return Ok(());
    }
    let window = WebviewWindowBuilder::new(&app, SCA, WebviewUrl::External(url))
        .title("Bank SCA — xs2a-sandbox")
        .inner_size(520.0, 760.0)
        .build()
        .map_err(|e| format!("cannot open the SCA window: {e}"))?;
    crate::memory::tune_webview(&window);
    Ok(())
}

/// Saves `contents` to a file the user picks; the path, or `None` when cancelled.
///
/// Async with rfd's async dialog: a synchronous command runs on the GTK main thread, where rfd would wait
/// for a dialog that loop can never show.
#[tauri::command]
pub async fn save_file(default_name: String, contents: String) -> Result<Option<String>, String> {
    let Some(file) = rfd::AsyncFileDialog::new()
        .set_file_name(&default_name)
        .save_file()
        .await
    else {
        return Ok(None);
    };
    file.write(contents.as_bytes())
        .await
        .map_err(|e| format!("cannot write {}: {e}", file.path().display()))?;
    Ok(Some(file.path().display().to_string()))
}

#[derive(Debug, Serialize)]
pub struct OpenedFile {
    path: String,
    contents: String,
}

/// Lets the user pick a text file (PEM, sandbox export); its path and contents, or `None` when cancelled.
#[tauri::command]
pub async fn open_file(
    title: String,
    extensions: Vec<String>,
) -> Result<Option<OpenedFile>, String> {
    let mut dialog = rfd::AsyncFileDialog::new().set_title(&title);
    if !extensions.is_empty() {
        dialog = dialog.add_filter(extensions.join(", "), &extensions);
    }
    let Some(file) = dialog.pick_file().await else {
        return Ok(None);
    };
    let path = file.path().to_path_buf();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    if size > MAX_OPEN_BYTES as u64 {
        return Err(format!(
            "{} is {size} bytes; the workbench reads files up to {MAX_OPEN_BYTES}",
            path.display()
        ));
    }
    let contents = String::from_utf8(file.read().await)
        .map_err(|_| format!("{} is not a text file (UTF-8)", path.display()))?;
    Ok(Some(OpenedFile {
        path: path.display().to_string(),
        contents,
    }))
}

/// When the process started, and whether the UI has said it shows live data yet.
pub struct Readiness {
    started: Instant,
    reported: AtomicBool,
}

impl Readiness {
    pub fn new(started: Instant) -> Readiness {
        Readiness {
            started,
            reported: AtomicBool::new(false),
        }
    }
}

/// Called once by the main window's init script when the UI shows live data from the service. Logs
/// `xs2a-desktop: ready after N ms on <screen>` (from process start) on stdout: scripts/measure-desktop.sh,
/// the real-window tests and the package test wait for that line.
#[tauri::command]
pub fn ui_ready(readiness: State<'_, Readiness>, screen: Option<String>) {
    if readiness.reported.swap(true, Ordering::SeqCst) {
        return;
    }
    use std::io::Write;
    let elapsed = readiness.started.elapsed();
    let mut out = std::io::stdout().lock();
    let screen = screen.as_deref().unwrap_or("an unknown screen");
    let _ = writeln!(
        out,
        "xs2a-desktop: ready after {} ms on {screen}",
        elapsed.as_millis()
    );
    let _ = out.flush();
}
