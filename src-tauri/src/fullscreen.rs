//! The window's own full screen, for presentation mode (docs/desktop.md): the main window's commands
//! `set_fullscreen` and `is_fullscreen`. A browser has the Fullscreen API for this; in the app the window
//! itself goes full screen, title bar and panels gone, as a projector wants it. Granted to the main window
//! only, like every command of the app.

use tauri::WebviewWindow;

/// Puts the calling window in full screen (`true`) or back (`false`); answers whether it is now.
#[tauri::command]
pub fn set_fullscreen(window: WebviewWindow, fullscreen: bool) -> Result<bool, String> {
    window
        .set_fullscreen(fullscreen)
        .map_err(|e| format!("the window cannot change full screen: {e}"))?;
    Ok(fullscreen)
}

/// Whether the calling window is in full screen.
#[tauri::command]
pub fn is_fullscreen(window: WebviewWindow) -> Result<bool, String> {
    window
        .is_fullscreen()
        .map_err(|e| format!("the window's full screen cannot be read: {e}"))
}
