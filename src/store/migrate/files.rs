//! The file-system steps of a migration: the names beside the data directory, copying it, putting a copy
//! on disk (fsync of every file and directory) and the locks that keep two processes from migrating, or
//! serving and migrating, one directory at once.

use fs2::FileExt;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Files of a data directory that are not copied: the note of the process serving it, and the format
/// file, which the copy gets only once it is complete (its presence is what says so).
const NOT_COPIED: &[&str] = &["instance.json", "format.json", "format.json.partial"];

/// `DIR<suffix>` beside `dir` (`/data` and `.migrating` give `/data.migrating`).
pub fn beside(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_owned();
    name.push(suffix);
    dir.with_file_name(name)
}

/// The directory a migration of `dir` builds before it becomes the data.
pub fn work_dir(dir: &Path) -> PathBuf {
    beside(dir, ".migrating")
}

/// A free name for the directory as it was before the migration by app version `app`:
/// `DIR.before-<app>`, or `DIR.before-<app>-2`, `-3` … when a backup of that name is still kept.
pub fn backup_dir(dir: &Path, app: &str) -> PathBuf {
    let first = beside(dir, &format!(".before-{app}"));
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| beside(dir, &format!(".before-{app}-{n}")))
        .find(|p| !p.exists())
        .expect("some number is free")
}

/// Copies the directory `from` into `to` (created), recursively, leaving out [`NOT_COPIED`].
pub fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if NOT_COPIED.iter().any(|n| name == *n) {
            continue;
        }
        let target = to.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        } else {
            return Err(io::Error::other(format!(
                "{} is neither a file nor a directory; a data directory holds only those",
                entry.path().display()
            )));
        }
    }
    Ok(())
}

/// Puts every file and directory under `dir` (itself included) on disk.
pub fn sync_tree(dir: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            sync_tree(&entry.path())?;
        } else {
            File::open(entry.path())?.sync_all()?;
        }
    }
    sync_dir(dir)
}

/// Puts a directory's entries (names created, renamed or removed in it) on disk.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// The parent of `dir` (where the renames of a migration happen).
pub fn parent(dir: &Path) -> &Path {
    dir.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Held while one process inspects and changes the directories around a data directory (migration,
/// recovery, a first format file): an exclusive lock on the parent directory, so that a second process
/// starting meanwhile waits and then finds the work done. Released when dropped.
pub struct MigrationLock(File);

impl MigrationLock {
    pub fn take(dir: &Path) -> io::Result<MigrationLock> {
        let parent = File::open(parent(dir))?;
        parent.lock_exclusive()?;
        Ok(MigrationLock(parent))
    }
}

impl Drop for MigrationLock {
    fn drop(&mut self) {
        let _ = FileExt::unlock(&self.0);
    }
}

/// The lock sled takes on its `db` file, taken by a migration so that no sandbox serves the directory
/// while it is copied. `Ok(None)`: someone else holds it, still after two seconds (a database closed
/// a moment ago may hold it that long: sled's last writes finish on its own threads).
pub fn lock_database(dir: &Path) -> io::Result<Option<File>> {
    let file = match File::options().read(true).write(true).open(dir.join("db")) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            // No database yet (a directory holding only its format file): nothing to serve.
            return File::open(dir).map(Some);
        }
        Err(error) => return Err(error),
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match file.try_lock_exclusive() {
            Ok(()) => return Ok(Some(file)),
            Err(error) if error.kind() != fs2::lock_contended_error().kind() => return Err(error),
            Err(_) if std::time::Instant::now() >= deadline => return Ok(None),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_beside_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        assert_eq!(work_dir(&data), dir.path().join("data.migrating"));
        assert_eq!(
            backup_dir(&data, "0.2.0"),
            dir.path().join("data.before-0.2.0")
        );
        std::fs::create_dir(dir.path().join("data.before-0.2.0")).unwrap();
        assert_eq!(
            backup_dir(&data, "0.2.0"),
            dir.path().join("data.before-0.2.0-2")
        );
    }

    #[test]
    fn a_copy_holds_every_file_but_the_instance_note_and_the_format_file() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        std::fs::create_dir_all(from.join("traffic-log")).unwrap();
        std::fs::write(from.join("db"), b"records").unwrap();
        std::fs::write(from.join("traffic-log/00000001.chunk"), b"log").unwrap();
        std::fs::write(from.join("instance.json"), b"{}").unwrap();
        std::fs::write(from.join("format.json"), b"{}").unwrap();
        let to = dir.path().join("to");
        copy_dir(&from, &to).unwrap();
        sync_tree(&to).unwrap();
        assert_eq!(std::fs::read(to.join("db")).unwrap(), b"records");
        assert_eq!(
            std::fs::read(to.join("traffic-log/00000001.chunk")).unwrap(),
            b"log"
        );
        assert!(!to.join("instance.json").exists());
        assert!(!to.join("format.json").exists());
    }

    #[test]
    fn a_database_lock_is_exclusive_across_opens() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("db"), b"").unwrap();
        let first = lock_database(dir.path()).unwrap();
        assert!(first.is_some());
        assert!(lock_database(dir.path()).unwrap().is_none());
        drop(first);
        assert!(lock_database(dir.path()).unwrap().is_some());
    }
}
