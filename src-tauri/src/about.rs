//! What About shows that the page cannot know by itself: the app's version, the licences of the components
//! it ships (generated from the lockfiles at build time: build/licences.rs), and a way to open the data
//! directory in the desktop's file manager. The service's URL, mode and data directory come from the
//! session the UI already reads.

use serde::Serialize;
use serde_json::value::RawValue;
use tauri::State;

/// `{"generatedFrom", "components": [{name, version, kind, licence, repository, texts}], "texts"}`.
const LICENCES: &str = include_str!(concat!(env!("OUT_DIR"), "/licences.json"));

#[derive(Serialize)]
pub struct About {
    version: &'static str,
    licences: &'static RawValue,
}

/// The version and the licences of the bundled components.
#[tauri::command]
pub fn about() -> About {
    About {
        version: env!("CARGO_PKG_VERSION"),
        licences: serde_json::from_str(LICENCES).expect("the build wrote valid JSON"),
    }
}

/// Opens the sandbox's data directory in the file manager (xdg-open, open, explorer).
#[tauri::command]
pub fn open_data_folder(service: State<'_, crate::service::Service>) -> Result<String, String> {
    let dir = service
        .data_dir()
        .ok_or("this sandbox is ephemeral: it keeps no data directory")?;
    let opener = crate::platform::FILE_MANAGER;
    std::process::Command::new(opener)
        .arg(dir)
        .spawn()
        .map_err(|e| format!("cannot run {opener} to open {}: {e}", dir.display()))?;
    Ok(dir.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_licences_cover_the_lockfiles() {
        let licences: serde_json::Value = serde_json::from_str(LICENCES).unwrap();
        let components = licences["components"].as_array().unwrap();
        let named = |kind: &str, name: &str| {
            components
                .iter()
                .find(|c| c["kind"] == kind && c["name"] == name)
                .unwrap_or_else(|| panic!("{kind} {name} is not in the licences"))
        };
        // The app's framework, its store and its UI library, with their licences and texts.
        let tauri = named("crate", "tauri");
        assert_eq!(tauri["licence"], "Apache-2.0 OR MIT");
        assert!(!tauri["texts"].as_array().unwrap().is_empty());
        named("crate", "sled");
        assert_eq!(named("npm", "solid-js")["licence"], "MIT");
        // Test-only and build-only crates are not shipped.
        assert!(components.iter().all(|c| c["name"] != "fantoccini"));
        assert!(components.iter().all(|c| c["name"] != "tauri-build"));
        // The workspace's own crates are the app, not a bundled component.
        assert!(components.iter().all(|c| c["name"] != "xs2a-sandbox"));
        let texts = licences["texts"].as_array().unwrap();
        for component in components {
            for index in component["texts"].as_array().unwrap() {
                assert!(index.as_u64().unwrap() < texts.len() as u64);
            }
        }
    }
}
