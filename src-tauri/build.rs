//! Build script: compiles the Tauri context from the repository's root `tauri.conf.json` and declares the
//! app's own commands, so that capabilities grant them by name (a window without a capability, such as the
//! bank's SCA pages, can call none of them).

fn main() {
    let commands = tauri_build::AppManifest::new().commands(&[
        "open_sca_window",
        "save_file",
        "open_file",
        "ui_ready",
    ]);
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .config_path("../tauri.conf.json")
            .app_manifest(commands),
    )
    .expect("the Tauri build step (tauri.conf.json, capabilities, icons) failed");
}
