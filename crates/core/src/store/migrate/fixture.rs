//! For tests: the data directories released versions made, stored under `fixtures/data-dirs/<version>/`
//! (`data.tar.gz` and the `expected.json` the script wrote beside it; scripts/make-data-fixture.sh), unpacked
//! into a temporary directory, and a migration run on one of them.

use super::{format_of, Migration};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// Where the stored data directories are.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/data-dirs")
}

/// The app versions whose data directory is stored, oldest first.
pub fn versions() -> Vec<String> {
    let mut versions: Vec<String> = std::fs::read_dir(root())
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().join("data.tar.gz").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    versions.sort_by_key(|v| {
        v.split(['.', '-'])
            .map(|part| part.parse::<u64>().unwrap_or(u64::MAX))
            .collect::<Vec<_>>()
    });
    versions
}

/// Unpacks the data directory `version` made into `into/data` and returns that path (with `tar`, as the
/// script packed it).
pub fn unpack(version: &str, into: &Path) -> Result<PathBuf, String> {
    let archive = root().join(version).join("data.tar.gz");
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(into)
        .status()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar could not unpack {}", archive.display()));
    }
    let dir = into.join("data");
    if !dir.join("db").is_file() {
        return Err(format!("{} holds no data/ directory", archive.display()));
    }
    Ok(dir)
}

/// The data directory `version` made, unpacked into a temporary directory, with `migration` run on it in
/// place after the ones of `list` before it (from the directory's own format): what a migration's test
/// starts from. Returns the temporary directory (keep it alive) and the data directory in it, whose format
/// file then says `migration.to`; `Store::open` on it runs any later migration as a start would.
pub fn migrated(
    version: &str,
    list: &[Migration],
    migration: &Migration,
) -> Result<(tempfile::TempDir, PathBuf), String> {
    let temporary = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = unpack(version, temporary.path())?;
    let from = format_of(&dir)?;
    let before: Vec<&Migration> = list
        .iter()
        .filter(|m| m.to > from && m.to < migration.to)
        .collect();
    super::upgrade::migrate_in_place(&dir, before.into_iter().chain([migration]))
        .map_err(|e| e.to_string())?;
    Ok((temporary, dir))
}

/// Every file under `dir` with its bytes and modification time, and every directory (no bytes), by path
/// relative to `dir`: two equal readings mean no byte of the directory changed in between.
pub fn contents(dir: &Path) -> BTreeMap<String, Option<(Vec<u8>, SystemTime)>> {
    fn walk(root: &Path, dir: &Path, into: &mut BTreeMap<String, Option<(Vec<u8>, SystemTime)>>) {
        for entry in std::fs::read_dir(dir).expect("a readable directory") {
            let path = entry.expect("a readable entry").path();
            let name = path
                .strip_prefix(root)
                .expect("under the root")
                .display()
                .to_string();
            if path.is_dir() {
                into.insert(name, None);
                walk(root, &path, into);
            } else {
                let bytes = std::fs::read(&path).expect("a readable file");
                let modified = path.metadata().and_then(|m| m.modified()).expect("a time");
                into.insert(name, Some((bytes, modified)));
            }
        }
    }
    let mut contents = BTreeMap::new();
    walk(dir, dir, &mut contents);
    contents
}
