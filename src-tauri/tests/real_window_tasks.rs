//! The workbench tasks that need the desktop app's native parts, in the real window (the release app under
//! Xvfb, tauri-driver and WebKitWebDriver, as `real_window.rs`): an authorisation waiting for the PSU, opened
//! from the SCA screen's list in the app's own SCA window, its callback captured and the PSU-ID kept; a
//! snapshot exported for replay through the native save dialog (its state file, and the bundled persona's
//! certificate and key as a --cert-dir archive that `tar` unpacks) and a state file imported through the
//! native open dialog (rfd's GTK dialogs, driven with xdotool: the file name typed, Enter); and presentation
//! mode in the window's own full screen, the PSU's SCA done on the bank's page beside the diagram (no second
//! window).
//!
//! Ignored by default (it needs a display, tauri-driver and the built app): `scripts/test-desktop.sh` runs it.
//! Screenshots go to `XS2A_SCREENSHOTS` (default `target/screenshots`) as `desktop-*.png`.

mod support;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use support::*;

impl Window {
    /// Chooses the option of a <select> whose text contains `text`.
    async fn select_containing(&self, scope: &Scope, label: &str, text: &str) {
        let select = self.label(scope, label).await;
        let value = self
            .client
            .execute(
                "const [select, text] = arguments;\
                 const o = [...select.options].find((o) => o.textContent.includes(text));\
                 return o ? o.value : null;",
                vec![
                    serde_json::to_value(&select).unwrap(),
                    serde_json::json!(text),
                ],
            )
            .await
            .unwrap();
        let value = value
            .as_str()
            .unwrap_or_else(|| panic!("no option of {label} with {text}"));
        select.select_by_value(value).await.unwrap();
    }
}

/// Starts the app in a HOME of its own and runs `test` against its window, with the driver's log on failure.
async fn in_the_app<F, Fut>(name: &str, test: F)
where
    F: FnOnce(Window, PathBuf) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let app = app_binary();
    assert!(
        app.exists(),
        "build the app first: {} is missing",
        app.display()
    );
    let home = tempfile::tempdir().unwrap();
    let shots = std::env::var_os("XS2A_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join("target/screenshots"));
    let port = free_port();
    let log = home.path().join("tauri-driver.log");
    let driver = start_driver(home.path(), port, &log);
    let client = connect(port, &app).await;
    let w = Window {
        client: client.clone(),
        shots,
    };
    let result =
        tokio::time::timeout(Duration::from_secs(300), test(w, home.path().to_path_buf())).await;
    let _ = client.close().await;
    drop(driver);
    if result.is_err() || std::thread::panicking() {
        eprintln!(
            "tauri-driver log:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
    }
    result.unwrap_or_else(|_| panic!("{name} finished within 5 minutes"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the release app: run scripts/test-desktop.sh"]
async fn a_waiting_authorisation_opened_in_the_sca_window() {
    in_the_app("the SCA window task", |w, _home| async move {
        let page = Scope::default();
        w.expect_text(&page, "status", "Live events", "Live").await;

        // The composer asks for accounts with a persona that has no PSU-ID and a new TPP session: 401.
        let panel = w.show("Composer").await;
        w.select_containing(&panel, "Persona", "Sandbox AISP PISP AS")
            .await;
        let (persona, _) = w.role(&panel, "region", "Signing persona").await;
        w.fill(&persona, "PSU-ID", "").await;
        w.fill(&persona, "TPP-Session-ID", "desktop-sca-window")
            .await;
        w.click(&persona, "button", "Save PSU details").await;
        w.expect_text(&page, "log", "Notices", "PSU details saved")
            .await;
        assert!(
            w.select(&panel, "Operation", "GET /v1/accounts", true)
                .await
        );
        w.click(&panel, "button", "Send").await;
        let (response, _) = w.role(&panel, "region", "Response").await;
        w.expect_text(&response, "status", "", "401").await;

        // The SCA screen lists it as waiting for the PSU; opened from there, it shows in the SCA window.
        let sca = w.show("SCA").await;
        let (waiting, _) = w
            .role(
                &sca,
                "table",
                "Authorisations waiting for the PSU, newest first",
            )
            .await;
        w.expect_text(&waiting, "row", "/Sandbox AISP PISP AS/", "Consent")
            .await;
        let main = w.client.window().await.unwrap();
        let before = w.client.windows().await.unwrap();
        w.click(&waiting, "button", "/Open the SCA of/").await;
        w.approve_in_sca_pages(main, &before, "14838510036", Some("sca-window-consent"))
            .await;

        // The redirect back is captured and the PSU-ID kept for the persona.
        let (callbacks, _) = w.role(&sca, "table", "SCA callbacks, newest first").await;
        eventually("a successful callback with the psu-id", STEP, || async {
            let (_, row) = w.query("role", &callbacks, "row", "", false, 1).await?;
            let text = w.text(&row).await;
            (text.contains("success") && text.contains("psu-id")).then_some(())
        })
        .await;
        w.snap("sca-screen").await;
        let panel = w.show("Composer").await;
        let psu = w.label(&panel, "PSU-ID").await;
        eventually("the persona's PSU-ID", STEP, || async {
            (!w.value(&psu).await.is_empty()).then_some(())
        })
        .await;
    })
    .await;
}

/// The window of a native file dialog whose title starts with `title`, once it is on the screen.
async fn dialog_window(title: &str) -> String {
    eventually(
        &format!("the {title} dialog on the screen"),
        STEP,
        || async {
            let out = Command::new("xdotool")
                .args(["search", "--onlyvisible", "--name", &format!("^{title}")])
                .output()
                .ok()?;
            String::from_utf8(out.stdout)
                .ok()?
                .split_whitespace()
                .next()
                .map(str::to_owned)
        },
    )
    .await
}

/// Types a whole path into a GTK file chooser and presses Enter: into the name field of a save dialog (it
/// takes a whole path), into the location field an open dialog shows on Ctrl+L.
fn type_path(window: &str, path: &Path, open: bool) {
    let xdotool = |args: &[&str]| {
        assert!(
            Command::new("xdotool")
                .args(args)
                .status()
                .unwrap()
                .success(),
            "xdotool {args:?}"
        )
    };
    // Xvfb runs no window manager, so there is no _NET_ACTIVE_WINDOW to ask for: give the dialog the
    // keyboard focus directly.
    xdotool(&["windowfocus", window]);
    std::thread::sleep(std::time::Duration::from_millis(200));
    if open {
        xdotool(&["key", "--window", window, "ctrl+l"]);
    }
    xdotool(&["key", "--window", window, "ctrl+a"]);
    xdotool(&[
        "type",
        "--window",
        window,
        "--delay",
        "5",
        &path.display().to_string(),
    ]);
    std::thread::sleep(Duration::from_millis(300));
    xdotool(&["key", "--window", window, "Return"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the release app: run scripts/test-desktop.sh"]
async fn a_snapshot_through_the_native_save_and_open_dialogs() {
    in_the_app("the file dialog task", |w, home| async move {
        let page = Scope::default();
        w.expect_text(&page, "status", "Live events", "Live").await;
        let panel = w.show("Sandbox data").await;
        w.click(&panel, "button", "Snapshots and state files").await;
        let (snapshots, _) = w.role(&panel, "region", "Snapshots").await;
        w.fill(&snapshots, "Snapshot name", "desktop-start").await;
        w.click(&snapshots, "button", "Save snapshot").await;
        w.expect_text(&page, "log", "Notices", "Snapshot “desktop-start” saved")
            .await;

        // Export it for replay: each file through the native save dialog (GTK), its name typed as a whole path.
        let file = home.join("desktop-start.state.json");
        w.click(
            &snapshots,
            "button",
            "Export snapshot desktop-start for replay",
        )
        .await;
        let (export, _) = w
            .role(
                &page,
                "dialog",
                "Export snapshot “desktop-start” for replay",
            )
            .await;
        w.click(&export, "button", "Save the state").await;
        let save = dialog_window("Save").await;
        if Command::new("import").arg("-version").output().is_ok() {
            // No screenshot before this one in this test made the directory.
            std::fs::create_dir_all(&w.shots).unwrap();
            let _ = Command::new("import")
                .args(["-window", "root"])
                .arg(w.shots.join("desktop-save-snapshot.png"))
                .status();
        }
        type_path(&save, &file, false);
        w.expect_text(
            &export,
            "table",
            "Files to save",
            &format!("Saved: {}", file.display()),
        )
        .await;
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert!(saved["trees"].is_object(), "a state file: {saved}");

        // The certificate and key to replay with (nothing was signed since the snapshot: the bundled persona
        // with both roles), through the same dialog: the archive arrives byte for byte, and tar unpacks it.
        let archive = home.join("bundled-aisp-pisp.cert-dir.tar");
        w.click(
            &export,
            "button",
            "Save the certificate and key of Sandbox AISP PISP AS",
        )
        .await;
        type_path(&dialog_window("Save").await, &archive, false);
        w.expect_text(
            &export,
            "table",
            "Files to save",
            &format!("Saved: {}", archive.display()),
        )
        .await;
        let unpacked = Command::new("tar")
            .arg("-xf")
            .arg(&archive)
            .current_dir(&home)
            .status()
            .unwrap();
        assert!(unpacked.success());
        assert!(
            std::fs::read_to_string(home.join("bundled-aisp-pisp/key.pem"))
                .unwrap()
                .contains("PRIVATE KEY")
        );
        w.expect_text(
            &export,
            "region",
            "Replay it",
            &format!("cd {}", home.display()),
        )
        .await;
        w.snap("export-for-replay").await;
        w.click(&export, "button", "Close").await;

        // Ola goes; importing the file through the native open dialog (after its preview) brings him back.
        let (list, _) = w.role(&panel, "list", "Customers").await;
        w.click(&list, "button", "/Ola Nordmann/").await;
        let (customer, _) = w.role(&panel, "article", "Customer Ola Nordmann").await;
        w.click(&customer, "button", "Delete customer").await;
        let (confirm, _) = w.role(&page, "dialog", "Delete Ola Nordmann?").await;
        w.click(&confirm, "button", "Delete").await;
        eventually("Ola gone from the list", STEP, || async {
            (!w.text(&w.role(&panel, "list", "Customers").await.1)
                .await
                .contains("Ola Nordmann"))
            .then_some(())
        })
        .await;
        w.click(&snapshots, "button", "Import a state file…").await;
        let open = dialog_window("Import a state file").await;
        type_path(&open, &file, true);
        let (import, _) = w.role(&page, "dialog", "Import this state file?").await;
        w.role(&import, "table", "What the import changes").await;
        w.snap("import-preview").await;
        w.click(&import, "button", "Import").await;
        w.expect_text(&page, "log", "Notices", "Imported").await;
        eventually("Ola back in the list", STEP, || async {
            w.text(&w.role(&panel, "list", "Customers").await.1)
                .await
                .contains("Ola Nordmann")
                .then_some(())
        })
        .await;
    })
    .await;
}

/// One step of the PSU on the bank's page that presentation shows live (in a shadow root, which the role
/// queries do not enter): fills the national identity number, picks HA2, acts as a private person, ticks the
/// accounts, confirms or approves, pressing the page's own buttons; says which, or "none" when the page is
/// gone (the PSU is back at the TPP), not there yet, or still waiting for the bank's answer to the last step.
const PSU_STEP: &str = r##"
const host = document.querySelector('[aria-label="The bank\'s page"]');
const page = host && host.shadowRoot;
if (!page || !page.querySelector("button") || host.getAttribute("aria-busy") === "true") return "none";
const press = (button) => { button.click(); };
const id = page.querySelector('input[name="nationalId"]:not([type="hidden"])');
if (id) { id.value = arguments[0]; press(page.querySelector("#identify-submit")); return "identify"; }
const method = page.querySelector('button[name="method"][value="HA2"]');
if (method) { press(method); return "method"; }
const privately = page.querySelector('input[name="context"][value="PRIVATE"]');
if (privately) { privately.checked = true; press(page.querySelector("#context-submit")); return "context"; }
const accounts = [...page.querySelectorAll('input[type="checkbox"][name="account"]')];
accounts.forEach((a) => { a.checked = true; });
const confirm = page.querySelector("#consent-submit, #confirm-submit");
if (confirm) { press(confirm); return accounts.length ? "consent" : "approve"; }
return "none";
"##;

impl Window {
    /// Presses a key as the keyboard does (WebDriver actions), into whatever has the focus.
    async fn press_key(&self, key: Key) {
        let actions = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key.into() })
            .then(KeyAction::Up { value: key.into() });
        self.client.perform_actions(actions).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a display, tauri-driver and the release app: run scripts/test-desktop.sh"]
async fn presentation_in_the_windows_full_screen_with_the_psus_page_beside_the_diagram() {
    in_the_app("the presentation task", |w, _home| async move {
        let page = Scope::default();
        w.expect_text(&page, "status", "Live events", "Live").await;
        let flow = w.show("Flow").await;
        w.click(&flow, "button", "Present journey").await;
        let (dialog, _) = w.role(&page, "dialog", "Presentation").await;

        // The window's own full screen (the set_fullscreen command, granted to the main window): the button
        // shows what the window answers. Under Xvfb without a window manager the window already covers the
        // screen and no manager resizes it, so the pixels cannot show the change here; the command's round
        // trip (granted, answered, read back by is_fullscreen) is what this checks.
        let (_, full) = w.role(&dialog, "button", "Full screen").await;
        assert_eq!(
            full.attr("aria-pressed").await.unwrap().as_deref(),
            Some("false")
        );
        w.click(&dialog, "button", "Full screen").await;
        eventually("the window in full screen", STEP, || async {
            let (_, full) = w.role(&dialog, "button", "Full screen").await;
            (full.attr("aria-pressed").await.ok()?.as_deref() == Some("true")).then_some(())
        })
        .await;

        // The TPP asks for a consent; the PSU's SCA is done on the bank's page beside the diagram.
        let (tpp, _) = w.role(&dialog, "region", "The TPP").await;
        w.click(&tpp, "button", "Send as the TPP").await;
        w.role(&dialog, "region", "The PSU's SCA page, live").await;
        let before = w.client.windows().await.unwrap().len();
        let done = std::sync::Mutex::new(Vec::new());
        eventually("the PSU back at the TPP", STEP * 3, || async {
            let step = w
                .client
                .execute(PSU_STEP, vec![serde_json::json!("14838510036")])
                .await
                .ok()?;
            let step = step.as_str().unwrap_or("none").to_owned();
            if step != "none" {
                let first = {
                    let mut done = done.lock().unwrap();
                    done.push(step);
                    done.len() == 1
                };
                if first {
                    w.snap("presentation-psu-page").await;
                }
            }
            let (_, diagram) = w.role(&dialog, "img", "Sequence diagram").await;
            w.text(&diagram)
                .await
                .contains("back to the TPP with the PSU's id")
                .then_some(())
        })
        .await;
        let done = done.into_inner().unwrap();
        assert!(
            done.iter().any(|s| s == "consent"),
            "the PSU consented: {done:?}"
        );
        assert_eq!(
            w.client.windows().await.unwrap().len(),
            before,
            "no second window"
        );
        w.snap("presentation-fullscreen").await;

        // Escape leaves full screen first, then presentation.
        w.press_key(Key::Escape).await;
        eventually("the window out of full screen", STEP, || async {
            let (_, full) = w.role(&dialog, "button", "Full screen").await;
            (full.attr("aria-pressed").await.ok()?.as_deref() == Some("false")).then_some(())
        })
        .await;
        w.role(&page, "dialog", "Presentation").await;
        w.press_key(Key::Escape).await;
        eventually("presentation left", STEP, || async {
            w.query("role", &page, "dialog", "Presentation", true, 0)
                .await
                .is_none()
                .then_some(())
        })
        .await;
    })
    .await;
}
