//! The file-system steps of a migration: the names beside the data directory, copying it, putting a copy
//! on disk (fsync of every file and directory) and the locks that keep two processes from migrating, or
//! serving and migrating, one directory at once.

use crate::platform::fs_sync;
use std::fs::{File, TryLockError};
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
            fs_sync::sync_file(&entry.path())?;
        }
    }
    sync_dir(dir)
}

/// Puts a directory's entries (names created, renamed or removed in it) on disk.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    fs_sync::sync_dir(dir)
}

/// The parent of `dir` (where the renames of a migration happen).
pub fn parent(dir: &Path) -> &Path {
    dir.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Held while one process inspects and changes the directories around a data directory (migration,
/// recovery, a first format file): an exclusive lock on the parent directory, so that a second process
/// starting meanwhile waits and then finds the work done (on Windows a lock file beside the directory:
/// `crate::platform::dir_lock`). Released when dropped.
pub struct MigrationLock(File);

impl MigrationLock {
    pub fn take(dir: &Path) -> io::Result<MigrationLock> {
        crate::platform::dir_lock::exclusive(dir, parent(dir)).map(MigrationLock)
    }
}

impl Drop for MigrationLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Proof that no sandbox serves a data directory, held for as long as a migration copies it.
pub struct Unserved {
    _lock: Option<File>,
}

impl Unserved {
    /// Keeps the database's lock on Unix (advisory: the copy still reads the file). On Windows the lock
    /// is mandatory, so held it would make the copy's reads of `db` fail, and an open handle inside the
    /// directory would make its rename fail: there the lock is only a check, released at once, and the
    /// migration lock keeps other new processes out (an older app started during the copy is not).
    fn holding(file: File) -> Unserved {
        if cfg!(windows) {
            drop(file);
            Unserved { _lock: None }
        } else {
            Unserved { _lock: Some(file) }
        }
    }
}

/// The lock sled takes on its `db` file, taken by a migration so that no sandbox serves the directory
/// while it is copied. `Ok(None)`: someone else holds it, still after two seconds (a database closed
/// a moment ago may hold it that long: sled's last writes finish on its own threads). The standard library's
/// lock is the same as sled's (fs2): `flock` on Unix, `LockFileEx` over the whole file on Windows.
pub fn lock_database(dir: &Path) -> io::Result<Option<Unserved>> {
    let file = match File::options().read(true).write(true).open(dir.join("db")) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            // No database yet (a directory holding only its format file): nothing to serve.
            return Ok(Some(Unserved { _lock: None }));
        }
        Err(error) => return Err(error),
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Some(Unserved::holding(file))),
            Err(TryLockError::Error(error)) => return Err(error),
            Err(TryLockError::WouldBlock) if std::time::Instant::now() >= deadline => {
                return Ok(None)
            }
            Err(TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
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
    fn a_served_database_is_refused_and_an_unserved_one_stays_readable() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db");
        std::fs::write(&db, b"records").unwrap();
        // A serving sandbox: sled's lock through its own handle.
        let sled = File::options().read(true).write(true).open(&db).unwrap();
        sled.lock().unwrap();
        assert!(lock_database(dir.path()).unwrap().is_none());
        drop(sled);
        let unserved = lock_database(dir.path()).unwrap();
        assert!(unserved.is_some());
        // What the migration does meanwhile: read the database (Windows' lock would forbid it if held).
        assert_eq!(std::fs::read(&db).unwrap(), b"records");
        #[cfg(unix)]
        assert!(
            lock_database(dir.path()).unwrap().is_none(),
            "on Unix the lock is held until the migration ends"
        );
    }
}
