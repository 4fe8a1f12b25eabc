//! The lock a migration holds on the place where a data directory lives, so that two processes never
//! rename the directories around it at once. On Unix an exclusive `flock` of the parent directory itself.
//! Windows cannot lock a directory's handle (LockFileEx works on files), so there it is a lock file
//! beside the data directory, `DIR.lock`, created if missing and left in place (deleting a lock file
//! another process is about to take is a race).

use std::fs::File;
use std::io;
use std::path::Path;

/// Blocks until this process holds the lock for the data directory `dir`, whose parent `parent` exists.
/// Released when the file is dropped (closing the handle releases it on every platform).
pub fn exclusive(dir: &Path, parent: &Path) -> io::Result<File> {
    #[cfg(windows)]
    let file = {
        let _ = parent;
        let mut name = dir.file_name().unwrap_or_default().to_owned();
        name.push(".lock");
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.with_file_name(name))?
    };
    #[cfg(not(windows))]
    let file = {
        let _ = dir;
        File::open(parent)?
    };
    file.lock()?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_until_the_first_lets_go() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        let first = exclusive(&dir, root.path()).unwrap();
        // The same lock taken through another handle (as another process would): refused while held.
        let second = exclusive_try(&dir, root.path());
        assert!(second.is_none(), "a second holder got the lock");
        drop(first);
        assert!(exclusive_try(&dir, root.path()).is_some());
    }

    /// The lock's file as `exclusive` opens it, tried without blocking.
    fn exclusive_try(dir: &Path, parent: &Path) -> Option<File> {
        let file = if cfg!(windows) {
            let mut name = dir.file_name().unwrap().to_owned();
            name.push(".lock");
            File::options()
                .read(true)
                .write(true)
                .open(dir.with_file_name(name))
                .unwrap()
        } else {
            File::open(parent).unwrap()
        };
        file.try_lock().ok().map(|()| file)
    }
}
