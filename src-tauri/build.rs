//! Build script: compiles the Tauri context from the repository's root `tauri.conf.json`, declares the
//! app's own commands, so that capabilities grant them by name (a window without a capability, such as the
//! bank's SCA pages, can call none of them), and generates the shipped components' licences for About.

#[path = "build/licences.rs"]
mod licences;

fn main() {
    let commands = tauri_build::AppManifest::new().commands(&[
        "open_sca_window",
        "save_file",
        "open_file",
        "ui_ready",
        "about",
        "open_data_folder",
        "set_fullscreen",
        "is_fullscreen",
    ]);
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .config_path("../tauri.conf.json")
            .app_manifest(commands),
    )
    .expect("the Tauri build step (tauri.conf.json, capabilities, icons) failed");

    let manifest_dir = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    licences::generate(
        manifest_dir
            .parent()
            .expect("src-tauri is in the workspace"),
        &out_dir,
    );
}
