//! What happens to a data directory before sled opens it: the format file is read; a directory of a newer
//! format is refused without a byte written; one of an older format is migrated, all or nothing:
//!
//! 1. copy `DIR` to `DIR.migrating` (sled's lock on `DIR` held, so no sandbox serves it meanwhile);
//! 2. run the migrations on the copy, flush it, write its format file, fsync every file of it;
//! 3. rename `DIR` to `DIR.before-<app version>` — the commit point — and `DIR.migrating` to `DIR`.
//!
//! A kill -9 before step 3 leaves `DIR` as it was (the next start throws the copy away and begins again);
//! after its first rename, `DIR` is missing and the complete copy is there, so the next start finishes the
//! swap. All of it runs under a lock on the parent directory, so a second process waits and then finds the
//! work done.

use super::files::{self, MigrationLock};
use super::{checkpoint, format_made_by, Migrating, Migration};
use crate::store::format::{self, FormatFile, Migrated, APP_VERSION, FIRST};
use crate::store::StoreError;
use std::path::{Path, PathBuf};

/// The data format of an opened directory, as the workbench's session shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataFormat {
    /// The format version of the data (the one this app writes).
    pub version: u32,
    /// The format the directory was migrated from, if it ever was by this or an earlier start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub migrated_from: Option<u32>,
    /// When (RFC 3339, the machine's time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub migrated_at: Option<String>,
    /// Where the directory as it was before is kept, while it still is (the user removes it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
    /// True when this start did the migration.
    pub migrated_now: bool,
}

impl DataFormat {
    /// The format of a store that has no directory (a temporary one): the one `list` makes.
    pub fn temporary(list: &[Migration]) -> DataFormat {
        DataFormat {
            version: format_made_by(list),
            migrated_from: None,
            migrated_at: None,
            backup: None,
            migrated_now: false,
        }
    }

    fn of(file: &FormatFile, migrated_now: bool) -> DataFormat {
        let migrated = file.migrated.as_ref();
        DataFormat {
            version: file.format,
            migrated_from: migrated.map(|m| m.from),
            migrated_at: migrated.map(|m| {
                m.at.format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default()
            }),
            backup: migrated
                .map(|m| m.backup.clone())
                .filter(|backup| Path::new(backup).exists()),
            migrated_now,
        }
    }
}

/// What is found at a data directory's path, read without writing.
enum Found {
    /// Nothing yet (or a directory with neither database nor format file): a new data directory.
    Fresh,
    /// A migration stopped after `DIR` was moved away: its complete copy waits to become `DIR`.
    Interrupted,
    /// A directory of `version`, and its format file if it has one.
    At(u32, Option<FormatFile>),
}

fn inspect(dir: &Path) -> Result<Found, StoreError> {
    if !dir.exists() {
        let work = files::work_dir(dir);
        let complete = format::read(&work).ok().flatten().is_some();
        return Ok(if complete {
            Found::Interrupted
        } else {
            Found::Fresh
        });
    }
    let file = format::read(dir).map_err(StoreError::Format)?;
    Ok(match file {
        Some(file) => Found::At(file.format, Some(file)),
        None if dir.join("db").exists() => Found::At(FIRST, None),
        None => Found::Fresh,
    })
}

/// Makes `dir` ready for sled to open in the format the migrations `list` make (the last one's), running
/// those it is missing; see the module documentation.
pub fn prepare(dir: &Path, list: &[Migration]) -> Result<DataFormat, StoreError> {
    let dir = &absolute(dir)?;
    let current = format_made_by(list);
    // Without the lock first: a newer directory is refused, a current one opened, without a byte written.
    match inspect(dir)? {
        Found::At(version, file) if version > current => {
            return Err(newer(dir, version, file, current))
        }
        Found::At(version, Some(file)) if version == current && file.app == APP_VERSION => {
            return Ok(DataFormat::of(&file, false))
        }
        _ => {}
    }
    // The lock is on the parent, which a new data directory may not have yet (~/.local/share on a fresh
    // system, `--data a/b/c`).
    std::fs::create_dir_all(files::parent(dir)).map_err(|e| io_error(dir, "create", e))?;
    let _lock = MigrationLock::take(dir).map_err(|e| io_error(dir, "lock the parent of", e))?;
    if let Found::Interrupted = inspect(dir)? {
        finish_swap(dir)?;
    }
    match inspect(dir)? {
        Found::Interrupted => unreachable!("finished above"),
        Found::Fresh => {
            discard_stale_copy(dir)?;
            std::fs::create_dir_all(dir).map_err(|e| io_error(dir, "create", e))?;
            let file = FormatFile::new(current);
            format::write(dir, &file).map_err(|e| io_error(dir, "write the format file of", e))?;
            Ok(DataFormat::of(&file, false))
        }
        Found::At(version, file) if version > current => Err(newer(dir, version, file, current)),
        Found::At(version, file) if version == current => {
            // The same format, last written by another app version (or before the format file existed).
            let file = FormatFile {
                app: APP_VERSION.to_owned(),
                ..file.unwrap_or_else(|| FormatFile::new(version))
            };
            format::write(dir, &file).map_err(|e| io_error(dir, "write the format file of", e))?;
            Ok(DataFormat::of(&file, false))
        }
        Found::At(version, file) => migrate(dir, version, file, list),
    }
}

/// Runs the migrations from `from` on a copy of `dir` and swaps it in (steps 1 to 3).
fn migrate(
    dir: &Path,
    from: u32,
    file: Option<FormatFile>,
    list: &[Migration],
) -> Result<DataFormat, StoreError> {
    let started = std::time::Instant::now();
    let Some(_serving) =
        files::lock_database(dir).map_err(|e| io_error(dir, "lock the database of", e))?
    else {
        return Err(StoreError::Locked(dir.display().to_string()));
    };
    checkpoint("locked");
    discard_stale_copy(dir)?;
    let work = files::work_dir(dir);
    let migrated = Migrated {
        from,
        from_app: file.map(|f| f.app),
        at: crate::domain::clock::Clock::real()
            .now()
            .replace_nanosecond(0)
            .expect("0 is a valid nanosecond"),
        backup: files::backup_dir(dir, APP_VERSION).display().to_string(),
    };
    let new_file = FormatFile {
        migrated: Some(migrated.clone()),
        ..FormatFile::new(format_made_by(list))
    };
    let built = copy_and_migrate(dir, &work, list.iter().filter(|m| m.to > from)).and_then(|()| {
        format::write(&work, &new_file)
            .and_then(|()| files::sync_tree(&work))
            .map_err(|e| io_error(&work, "put on disk", e))
    });
    if let Err(error) = built {
        // Before the commit point: the directory is as it was; the copy goes.
        let _ = std::fs::remove_dir_all(&work);
        return Err(error);
    }
    checkpoint("ready");
    let backup = PathBuf::from(&migrated.backup);
    std::fs::rename(dir, &backup)
        .and_then(|()| files::sync_dir(files::parent(dir)))
        .map_err(|e| io_error(dir, "move away", e))?;
    checkpoint("moved");
    finish_swap(dir)?;
    tracing::warn!(
        "migrated the data directory {} from data format {from}{} to {} in {:.1?}; the directory as it was \
         is kept at {} — remove it once you no longer need it",
        dir.display(),
        migrated
            .from_app
            .as_deref()
            .map(|app| format!(" (xs2a-sandbox {app})"))
            .unwrap_or_default(),
        new_file.format,
        started.elapsed(),
        backup.display(),
    );
    Ok(DataFormat::of(&new_file, true))
}

/// Step 1 and 2 up to the format file: the copy, and every migration run on it, flushed.
fn copy_and_migrate<'m>(
    dir: &Path,
    work: &Path,
    migrations: impl IntoIterator<Item = &'m Migration>,
) -> Result<(), StoreError> {
    files::copy_dir(dir, work).map_err(|e| io_error(dir, "copy", e))?;
    checkpoint("copied");
    run_migrations(work, dir, migrations)
}

/// Runs `migrations` in order on the database in `dir` (which no one serves), flushing after each;
/// errors name `shown_as`, the directory the user knows.
fn run_migrations<'m>(
    dir: &Path,
    shown_as: &Path,
    migrations: impl IntoIterator<Item = &'m Migration>,
) -> Result<(), StoreError> {
    let db = sled::Config::new()
        .path(dir)
        .flush_every_ms(None)
        .cache_capacity(crate::store::CACHE_BYTES)
        .open()?;
    let mut ran_any = false;
    for migration in migrations {
        ran_any = true;
        (migration.run)(&Migrating::new(&db, dir)).map_err(|error| {
            StoreError::Migration(format!(
                "the migration of {} to data format {} ({}) failed: {error}. The directory is unchanged; \
                 keep using the version that wrote it, and report this with the directory if you can",
                shown_as.display(),
                migration.to,
                migration.what
            ))
        })?;
        db.flush()?;
        checkpoint(&format!("migrated-{}", migration.to));
    }
    if ran_any {
        // The change journal holds records as the older format stored them: written back by a rewind,
        // they would be unreadable. Its reach starts again after the upgrade (docs/rewind.md).
        db.drop_tree(crate::store::journal::TREE)?;
    }
    db.flush()?;
    Ok(())
}

/// Runs `migrations` on the directory `dir` itself, no copy kept, and writes its format file: for tests
/// that start from a stored fixture (`fixture::migrated`), never for a user's data.
pub fn migrate_in_place<'m>(
    dir: &Path,
    migrations: impl IntoIterator<Item = &'m Migration>,
) -> Result<(), StoreError> {
    let migrations: Vec<&Migration> = migrations.into_iter().collect();
    run_migrations(dir, dir, migrations.iter().copied())?;
    if let Some(last) = migrations.last() {
        format::write(dir, &FormatFile::new(last.to))
            .map_err(|e| io_error(dir, "write the format file of", e))?;
    }
    Ok(())
}

/// Step 3's second rename: the complete copy becomes `DIR`.
fn finish_swap(dir: &Path) -> Result<(), StoreError> {
    let work = files::work_dir(dir);
    std::fs::rename(&work, dir)
        .and_then(|()| files::sync_dir(files::parent(dir)))
        .map_err(|e| io_error(&work, "rename", e))?;
    checkpoint("swapped");
    Ok(())
}

/// Removes the copy a migration left before its commit point (it is rebuilt from `DIR`).
fn discard_stale_copy(dir: &Path) -> Result<(), StoreError> {
    let work = files::work_dir(dir);
    if work.exists() {
        tracing::warn!(
            "removing {}, left by a migration that did not finish",
            work.display()
        );
        std::fs::remove_dir_all(&work).map_err(|e| io_error(&work, "remove", e))?;
    }
    Ok(())
}

/// The refusal of a directory written by a newer app: both versions and what to do, nothing written.
fn newer(dir: &Path, version: u32, file: Option<FormatFile>, current: u32) -> StoreError {
    let written_by = file
        .as_ref()
        .map(|f| format!("xs2a-sandbox {}", f.app))
        .unwrap_or_else(|| "a newer xs2a-sandbox".to_owned());
    let mut text = format!(
        "the data directory {} holds data format {version}, written by {written_by}; this is xs2a-sandbox \
         {APP_VERSION}, which reads data formats up to {current}. Nothing was changed. Start {written_by} (or \
         newer) on it, or start this one with another --data DIR or --ephemeral",
        dir.display(),
    );
    if let Some(migrated) = file.and_then(|f| f.migrated) {
        if migrated.from <= current && Path::new(&migrated.backup).exists() {
            text.push_str(&format!(
                "; the directory as it was before that version migrated it (data format {}) is kept at {}, \
                 and this version can open that one",
                migrated.from, migrated.backup
            ));
        }
    }
    StoreError::NewerFormat(text)
}

fn absolute(dir: &Path) -> Result<PathBuf, StoreError> {
    // A symbolic link is followed, so that the copy is made beside the real directory and the link
    // points at the migrated one afterwards.
    let dir = std::path::absolute(dir).map_err(|e| io_error(dir, "find", e))?;
    Ok(std::fs::canonicalize(&dir).unwrap_or(dir))
}

fn io_error(path: &Path, doing: &str, error: std::io::Error) -> StoreError {
    StoreError::Migration(format!("cannot {doing} {}: {error}", path.display()))
}
