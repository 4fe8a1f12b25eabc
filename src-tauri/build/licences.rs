//! Build step: the licences of every component the desktop app ships, generated from the lockfiles at
//! build time so that the list cannot fall behind them. Rust crates come from `cargo metadata` (the
//! crates the app links on the target platform: normal dependencies, not build tools or test ones), the
//! UI's packages from `ui/package-lock.json` (those not marked dev: what `ui/dist` bundles). Each
//! component's licence files (LICENSE*, LICENCE*, COPYING*, NOTICE* in its package) are kept once per
//! distinct text. The app shows the result in About (`about::about`).

use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `licences.json` into `out_dir`.
pub fn generate(workspace: &Path, out_dir: &Path) {
    let mut texts = Texts::default();
    let mut components = crates(workspace, &mut texts);
    components.extend(npm_packages(workspace, &mut texts));
    let document = json!({
        "generatedFrom": ["Cargo.lock", "ui/package-lock.json"],
        "components": components,
        "texts": texts.list,
    });
    std::fs::write(out_dir.join("licences.json"), document.to_string())
        .expect("cannot write licences.json");
    println!(
        "cargo:rerun-if-changed={}",
        workspace.join("Cargo.lock").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        workspace.join("ui/package-lock.json").display()
    );
}

/// Distinct licence texts, each kept once and referred to by its index.
#[derive(Default)]
struct Texts {
    list: Vec<String>,
    index: HashMap<String, usize>,
}

impl Texts {
    /// The indices of the licence files in `dir`, in file-name order.
    fn in_dir(&mut self, dir: &Path) -> Vec<usize> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && is_licence_file(p))
            .collect();
        files.sort();
        files
            .iter()
            .filter_map(|file| std::fs::read_to_string(file).ok())
            .map(|text| {
                let text = text.trim().to_owned();
                let next = self.list.len();
                *self.index.entry(text.clone()).or_insert_with(|| {
                    self.list.push(text);
                    next
                })
            })
            .collect()
    }
}

fn is_licence_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_uppercase();
    ["LICENSE", "LICENCE", "COPYING", "NOTICE", "COPYRIGHT"]
        .iter()
        .any(|stem| {
            name == *stem
                || name.starts_with(&format!("{stem}-"))
                || name.starts_with(&format!("{stem}."))
                || name.starts_with(&format!("{stem}_"))
        })
}

/// The crates the app links on the target platform, from `cargo metadata` over the locked workspace.
fn crates(workspace: &Path, texts: &mut Texts) -> Vec<Value> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &target, "--manifest-path"])
        .arg(workspace.join("Cargo.toml"))
        .output()
        .expect("cannot run cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}\nThe licence list reads the manifest of every crate in Cargo.lock and a build \
         script does not download: run `cargo fetch --locked` first (scripts/build-release.sh does).",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata is JSON");
    let packages: HashMap<&str, &Value> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let nodes: HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let root = packages
        .values()
        .find(|p| p["name"] == env!("CARGO_PKG_NAME"))
        .and_then(|p| p["id"].as_str())
        .expect("the desktop crate is in the metadata");

    // Normal (linked) dependencies only, transitively: build scripts' and tests' dependencies do not ship.
    let mut seen = HashSet::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes
            .get(id)
            .and_then(|n| n["deps"].as_array())
            .into_iter()
            .flatten()
        {
            let linked = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null());
            if let (true, Some(pkg)) = (linked, dep["pkg"].as_str()) {
                todo.push(pkg);
            }
        }
    }
    let mut linked: BTreeMap<(String, String), Value> = BTreeMap::new();
    for id in seen {
        let package = packages[&id];
        // Path packages are this workspace's own crates (MIT, the app itself).
        if package["source"].is_null() {
            continue;
        }
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        let version = package["version"].as_str().unwrap_or_default().to_owned();
        let dir = Path::new(package["manifest_path"].as_str().unwrap_or_default())
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let licence = package["license"]
            .as_str()
            .map(str::to_owned)
            .or_else(|| package["license_file"].as_str().map(|f| format!("see {f}")))
            .unwrap_or_else(|| "unstated".to_owned());
        let entry = json!({
            "name": &name,
            "version": &version,
            "kind": "crate",
            "licence": licence,
            "repository": package["repository"],
            "texts": texts.in_dir(&dir),
        });
        linked.insert((name, version), entry);
    }
    linked.into_values().collect()
}

/// The UI's bundled npm packages (not dev) from the lockfile; their licence files from `ui/node_modules`
/// when it is installed (it is whenever `ui/dist` was built here).
fn npm_packages(workspace: &Path, texts: &mut Texts) -> Vec<Value> {
    let lock_path = workspace.join("ui/package-lock.json");
    let lock: Value = serde_json::from_slice(
        &std::fs::read(&lock_path).unwrap_or_else(|e| panic!("{}: {e}", lock_path.display())),
    )
    .expect("ui/package-lock.json is JSON");
    let mut bundled = BTreeMap::new();
    for (key, package) in lock["packages"].as_object().into_iter().flatten() {
        let Some(name) = key
            .rsplit("node_modules/")
            .next()
            .filter(|_| key.contains("node_modules/"))
        else {
            continue;
        };
        if package["dev"] == true || package["devOptional"] == true {
            continue;
        }
        let entry = json!({
            "name": name,
            "version": package["version"],
            "kind": "npm",
            "licence": package["license"].as_str().unwrap_or("unstated"),
            "repository": Value::Null,
            "texts": texts.in_dir(&workspace.join("ui").join(key)),
        });
        bundled.insert(name.to_owned(), entry);
    }
    bundled.into_values().collect()
}
