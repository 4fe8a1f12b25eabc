//! The migration framework on real data directories, with synthetic format changes: a migration runs on a
//! copy and is swapped in with the old directory kept; a failed one changes nothing; an interrupted swap is
//! finished and a half-made copy thrown away at the next start; a newer directory is refused untouched.

use super::upgrade::prepare;
use super::*;
use crate::store::format::{self, FormatFile, APP_VERSION};
use crate::store::Store;
use std::path::PathBuf;
use time::macros::date;

/// Synthetic format 2: every customer carries a note, and a marker tree says the migration ran.
fn add_notes(migrating: &Migrating) -> Result<(), MigrationError> {
    migrating.rewrite("sandbox-customers", |_, value| {
        let mut customer: serde_json::Value =
            serde_json::from_slice(value).map_err(|e| MigrationError::new(e.to_string()))?;
        customer["note"] = "migrated".into();
        Ok(Rewrite::Put(serde_json::to_vec(&customer).unwrap()))
    })?;
    migrating.put("test-marker", b"format-2", b"yes")
}

fn refuse(_: &Migrating) -> Result<(), MigrationError> {
    Err(MigrationError::new("this format cannot be made"))
}

const TO_2: Migration = Migration {
    to: 2,
    what: "customers get a note",
    run: add_notes,
};
const FAILS: Migration = Migration {
    to: 2,
    what: "a change that fails",
    run: refuse,
};

/// A data directory of format 1 holding the seeded sandbox, in a temporary directory. This build writes
/// a later format (`migrations::MIGRATIONS`), so its format file is set back to 1: the synthetic
/// migrations here read only customers, whose form no format has changed.
fn format_1_dir() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("data");
    let store = Store::open(&dir, crate::bank::migrations::active()).unwrap();
    crate::bank::mock::seed::initialize(&store, date!(2026 - 06 - 01)).unwrap();
    store.close().unwrap();
    drop(store);
    format::write(&dir, &FormatFile::new(1)).unwrap();
    assert_eq!(format_of(&dir).unwrap(), 1);
    (root, dir)
}

fn customers(dir: &Path) -> Vec<serde_json::Value> {
    let db = sled::Config::new().path(dir).open().unwrap();
    let tree = db.open_tree("sandbox-customers").unwrap();
    tree.iter()
        .map(|pair| serde_json::from_slice(&pair.unwrap().1).unwrap())
        .collect()
}

/// How many records the change journal of the directory holds.
fn journal_records(dir: &Path) -> usize {
    let db = sled::Config::new().path(dir).open().unwrap();
    db.open_tree(crate::store::journal::TREE).unwrap().len()
}

#[test]
fn a_new_directory_gets_the_format_file_of_this_version() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("not/yet/there");
    let store = Store::open(&dir, crate::bank::migrations::active()).unwrap();
    let report = store.data_format();
    assert_eq!(
        (report.version, report.migrated_from, report.migrated_now),
        (crate::bank::migrations::current(), None, false)
    );
    store.close().unwrap();
    assert_eq!(
        format::read(&dir).unwrap(),
        Some(FormatFile::new(crate::bank::migrations::current()))
    );
}

#[test]
fn an_older_directory_is_migrated_on_a_copy_and_the_old_one_kept() {
    let (root, dir) = format_1_dir();
    assert!(journal_records(&dir) > 0, "the seeding was journaled");
    let before = fixture::contents(&dir);
    let report = prepare(&dir, &[TO_2]).unwrap();
    let backup = root.path().join(format!("data.before-{APP_VERSION}"));
    // The journal held the older format's bytes: a rewind must not write them back (docs/rewind.md).
    assert_eq!(
        journal_records(&dir),
        0,
        "the journal is emptied by a migration"
    );
    assert_eq!(report.version, 2);
    assert_eq!(report.migrated_from, Some(1));
    assert!(report.migrated_now);
    assert_eq!(report.backup.as_deref(), backup.to_str());
    assert!(report.migrated_at.is_some());
    // The old directory, byte for byte, beside the new one; no copy left over.
    assert_eq!(fixture::contents(&backup), before);
    assert!(!root.path().join("data.migrating").exists());
    let file = format::read(&dir).unwrap().unwrap();
    assert_eq!((file.format, file.app.as_str()), (2, APP_VERSION));
    assert_eq!(file.migrated.unwrap().from, 1);
    let migrated = customers(&dir);
    assert!(migrated.len() >= 5);
    assert!(migrated.iter().all(|c| c["note"] == "migrated"));
    assert!(customers(&backup).iter().all(|c| c.get("note").is_none()));
    // Opened again: nothing more to do, and the session still says what happened.
    let again = prepare(&dir, &[TO_2]).unwrap();
    assert!(!again.migrated_now);
    assert_eq!(again.migrated_from, Some(1));
    assert_eq!(again.backup, report.backup);
    // Once the user removed the old directory, it is no longer offered.
    std::fs::remove_dir_all(&backup).unwrap();
    assert_eq!(prepare(&dir, &[TO_2]).unwrap().backup, None);
}

#[test]
fn a_failed_migration_leaves_the_directory_as_it_was() {
    let (root, dir) = format_1_dir();
    let before = fixture::contents(&dir);
    let error = prepare(&dir, &[FAILS]).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("this format cannot be made") && text.contains("a change that fails"),
        "{text}"
    );
    assert!(text.contains("The directory is unchanged"), "{text}");
    assert_eq!(fixture::contents(&dir), before);
    let beside: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
    assert_eq!(beside.len(), 1, "no copy and no backup left: {beside:?}");
}

#[test]
fn a_directory_a_sandbox_serves_is_not_migrated() {
    let (root, dir) = format_1_dir();
    // Held open as a serving sandbox holds it (a `Store` of this build would migrate it first).
    let serving = sled::Config::new().path(&dir).open().unwrap();
    let error = prepare(&dir, &[TO_2]).unwrap_err();
    assert!(matches!(error, StoreError::Locked(_)), "{error}");
    drop(serving);
    assert_eq!(format_of(&dir).unwrap(), 1);
    assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 1);
}

#[test]
fn a_half_made_copy_is_thrown_away_and_the_migration_done_again() {
    let (root, dir) = format_1_dir();
    let work = root.path().join("data.migrating");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("db"), b"half a copy").unwrap();
    let report = prepare(&dir, &[TO_2]).unwrap();
    assert!(report.migrated_now);
    assert!(!work.exists());
    assert!(customers(&dir).iter().all(|c| c["note"] == "migrated"));
}

#[test]
fn a_copy_without_its_format_file_never_becomes_the_data() {
    let (root, dir) = format_1_dir();
    // A copy stopped before its format file was written, with no DIR beside it: not complete, not used.
    let work = root.path().join("data.migrating");
    std::fs::rename(&dir, &work).unwrap();
    std::fs::remove_file(work.join(format::FILE)).unwrap();
    let report = prepare(&dir, &[TO_2]).unwrap();
    assert_eq!((report.version, report.migrated_from), (2, None));
    assert!(!work.exists());
    assert!(!dir.join("db").exists(), "a new, empty directory");
}

#[test]
fn a_swap_stopped_half_way_is_finished_at_the_next_start() {
    let (root, dir) = format_1_dir();
    prepare(&dir, &[TO_2]).unwrap();
    // The state a kill -9 between the two renames leaves: the old directory moved away, the complete
    // copy not yet in its place.
    let work = root.path().join("data.migrating");
    std::fs::rename(&dir, &work).unwrap();
    let report = prepare(&dir, &[TO_2]).unwrap();
    assert_eq!((report.version, report.migrated_now), (2, false));
    assert!(!work.exists());
    assert!(customers(&dir).iter().all(|c| c["note"] == "migrated"));
}

#[test]
fn a_newer_directory_is_refused_naming_both_versions_and_nothing_is_written() {
    let (_root, dir) = format_1_dir();
    format::write(
        &dir,
        &FormatFile {
            format: 7,
            app: "9.4.0".into(),
            migrated: None,
        },
    )
    .unwrap();
    let before = fixture::contents(&dir);
    let error = Store::open(&dir, crate::bank::migrations::active())
        .err()
        .expect("refused");
    let text = error.to_string();
    assert!(matches!(error, StoreError::NewerFormat(_)), "{text}");
    for part in [
        "holds data format 7, written by xs2a-sandbox 9.4.0",
        &format!("this is xs2a-sandbox {APP_VERSION}"),
        &format!(
            "reads data formats up to {}",
            crate::bank::migrations::current()
        ),
        "Nothing was changed",
        "--data DIR",
    ] {
        assert!(text.contains(part), "'{part}' in: {text}");
    }
    assert_eq!(fixture::contents(&dir), before);
}

#[test]
fn a_newer_directory_with_its_old_copy_kept_points_at_it() {
    let (root, dir) = format_1_dir();
    prepare(&dir, &[TO_2]).unwrap();
    // This build reads format 1 only: the migrated directory is newer, its backup is not.
    let error = prepare(&dir, &[]).unwrap_err().to_string();
    let backup = root.path().join(format!("data.before-{APP_VERSION}"));
    assert!(
        error.contains(&format!(
            "(data format 1) is kept at {}, and this version can open that one",
            backup.display()
        )),
        "{error}"
    );
}

#[test]
fn a_directory_of_the_current_format_records_the_app_that_writes_it() {
    let (_root, dir) = format_1_dir();
    format::write(
        &dir,
        &FormatFile {
            app: "0.0.9".into(),
            ..FormatFile::new(1)
        },
    )
    .unwrap();
    prepare(&dir, &[]).unwrap();
    assert_eq!(format::read(&dir).unwrap().unwrap().app, APP_VERSION);
    // A format 1 directory from before the format file: the file is written, nothing else changes.
    std::fs::remove_file(dir.join(format::FILE)).unwrap();
    let report = prepare(&dir, &[]).unwrap();
    assert_eq!((report.version, report.migrated_from), (1, None));
    assert_eq!(format::read(&dir).unwrap(), Some(FormatFile::new(1)));
}

#[test]
fn rewrite_and_reencode_change_only_what_they_say() {
    let db = sled::Config::new().temporary(true).open().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let migrating = Migrating::new(&db, dir.path());
    let store = Store::temporary().unwrap();
    crate::bank::mock::seed::initialize(&store, date!(2026 - 06 - 01)).unwrap();
    for (key, value) in store.raw_records("sandbox-customers").unwrap() {
        // The same record with its members in another order: reencode writes it in the current form.
        let value: serde_json::Value = serde_json::from_slice(&value).unwrap();
        let mut reordered: Vec<(String, serde_json::Value)> =
            value.as_object().unwrap().clone().into_iter().collect();
        reordered.reverse();
        let text = format!(
            "{{{}}}",
            reordered
                .iter()
                .map(|(k, v)| format!("{}:{v}", serde_json::Value::from(k.as_str())))
                .collect::<Vec<_>>()
                .join(",")
        );
        migrating
            .put("sandbox-customers", &key, text.as_bytes())
            .unwrap();
    }
    let count = migrating.records("sandbox-customers").unwrap().len();
    assert_eq!(
        migrating
            .reencode::<crate::bank::mock::model::Customer>()
            .unwrap(),
        count
    );
    assert_eq!(
        migrating.records("sandbox-customers").unwrap(),
        store.raw_records("sandbox-customers").unwrap()
    );
    assert_eq!(
        migrating
            .reencode::<crate::bank::mock::model::Customer>()
            .unwrap(),
        0,
        "already in the current form"
    );
    let removed = migrating
        .rewrite("sandbox-customers", |key, _| {
            Ok(if key.starts_with(b"0") {
                Rewrite::Remove
            } else {
                Rewrite::Keep
            })
        })
        .unwrap();
    assert_eq!(
        migrating.records("sandbox-customers").unwrap().len(),
        count - removed
    );
    let error = migrating
        .rewrite("sandbox-customers", |_, _| {
            Err(MigrationError::new("bad record"))
        })
        .unwrap_err();
    assert!(error.0.starts_with("sandbox-customers, record "), "{error}");
    migrating.put("old-tree", b"k", b"v").unwrap();
    assert!(migrating
        .tree_names()
        .unwrap()
        .contains(&"old-tree".to_owned()));
    migrating.drop_tree("old-tree").unwrap();
    assert_eq!(migrating.get("old-tree", b"k").unwrap(), None);
}

#[test]
fn a_migration_is_tested_on_a_stored_fixture() {
    let version = fixture::versions()
        .into_iter()
        .next()
        .expect("a stored fixture");
    let (_keep, dir) = fixture::migrated(&version, &[], &TO_2).unwrap();
    assert_eq!(format_of(&dir).unwrap(), 2);
    let migrated = customers(&dir);
    assert!(
        migrated.iter().any(|c| c["name"] == "Fiona Fikstur"),
        "the script's customer"
    );
    assert!(migrated.iter().all(|c| c["note"] == "migrated"));
}
