//! The main window: the workbench UI from `ui/dist`, told before any of its scripts run where the embedded
//! service is and which operator token to send (`window.__XS2A_WORKBENCH__`, docs/workbench-api.md), and
//! kept on the app's own pages.

use tauri::{AppHandle, Url, WebviewUrl, WebviewWindowBuilder};

/// The main window's label (capabilities grant the native commands to this label only).
pub const MAIN: &str = "main";

/// True for the app's own pages: `tauri://localhost` (Linux, macOS) and `http://tauri.localhost` (Windows).
pub fn is_app_page(url: &Url) -> bool {
    match url.scheme() {
        "tauri" => url.host_str() == Some("localhost"),
        "http" | "https" => url.host_str() == Some("tauri.localhost"),
        _ => false,
    }
}

/// The script run before the page's own: the hand-over, and a watcher that reports once when the UI shows
/// live data (the header has the session's details and the event stream says "Live"), with the screen it
/// shows, which the app logs as the moment the window is ready. Both only on the app's own pages, so the token never reaches another.
pub fn init_script(base_url: &str, token: &str) -> String {
    let hand_over = serde_json::json!({ "baseUrl": base_url, "token": token, "desktop": true });
    format!(
        r#"(function () {{
  var own = location.protocol === "tauri:" || location.hostname === "tauri.localhost";
  if (!own) return;
  Object.defineProperty(window, "__XS2A_WORKBENCH__", {{ value: Object.freeze({hand_over}) }});
  var reported = false;
  function live() {{
    var status = document.querySelector('[aria-label="Live events"]');
    return !!status && status.textContent.trim() === "Live" && !!document.querySelector(".session-info");
  }}
  function check(observer) {{
    if (reported || !live()) return;
    reported = true;
    observer.disconnect();
    var ipc = window.__TAURI_INTERNALS__;
    var tab = document.querySelector('[role="tab"][aria-selected="true"]');
    var title = tab && (tab.querySelector(".tab-title") || tab);
    var screen = title ? title.textContent.trim() : null;
    if (ipc) ipc.invoke("ui_ready", {{ screen: screen }}).catch(function () {{}});
  }}
  document.addEventListener("DOMContentLoaded", function () {{
    var observer = new MutationObserver(function () {{ check(observer); }});
    observer.observe(document.body, {{ subtree: true, childList: true, characterData: true }});
    check(observer);
  }});
}})();"#
    )
}

/// The window's title: the product, its version and where the service listens.
pub fn title(base_url: &str) -> String {
    format!(
        "xs2a-sandbox workbench {} — {base_url}",
        env!("CARGO_PKG_VERSION")
    )
}

pub fn open_main(app: &AppHandle, base_url: &str, token: &str) -> tauri::Result<()> {
    let window = WebviewWindowBuilder::new(app, MAIN, WebviewUrl::App("index.html".into()))
        .title(title(base_url))
        .inner_size(1280.0, 800.0)
        .min_inner_size(900.0, 600.0)
        .initialization_script(init_script(base_url, token))
        // The workbench holds the operator token: it stays on its own pages. The bank's SCA pages open in
        // their own window (commands::open_sca_window), anything else is refused here.
        .on_navigation(|url| {
            let allowed = is_app_page(url);
            if !allowed {
                tracing::warn!(%url, "the workbench window does not leave the app's pages");
            }
            allowed
        })
        .build()?;
    crate::memory::tune_webview(&window);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_apps_own_origins_count_as_its_pages() {
        assert!(is_app_page(
            &"tauri://localhost/index.html".parse().unwrap()
        ));
        assert!(is_app_page(&"http://tauri.localhost/".parse().unwrap()));
        assert!(!is_app_page(&"http://127.0.0.1:8080/".parse().unwrap()));
        assert!(!is_app_page(
            &"http://tauri.localhost.evil.example/".parse().unwrap()
        ));
    }

    #[test]
    fn the_title_names_the_version_and_the_service() {
        assert_eq!(
            title("http://127.0.0.1:5000"),
            format!(
                "xs2a-sandbox workbench {} — http://127.0.0.1:5000",
                env!("CARGO_PKG_VERSION")
            )
        );
    }

    #[test]
    fn the_hand_over_is_json_and_guarded_by_origin() {
        let script = init_script("http://127.0.0.1:5000", "t\"ok</script>");
        assert!(script.contains(r#""baseUrl":"http://127.0.0.1:5000""#));
        assert!(script.contains(r#""token":"t\"ok</script>""#));
        assert!(script.contains(r#""desktop":true"#));
        assert!(
            script.find("if (!own) return").unwrap() < script.find("__XS2A_WORKBENCH__").unwrap()
        );
    }
}
