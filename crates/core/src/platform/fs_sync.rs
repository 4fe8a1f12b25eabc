//! Putting files and directories on disk. Unix opens a directory like a file and fsyncs it to make the
//! names created, renamed or removed in it durable. Windows flushes only handles opened for writing and
//! has no flush of a directory's entries (a directory opens there only with `FILE_FLAG_BACKUP_SEMANTICS`,
//! and not for writing): NTFS logs them in its own journal, so there a directory's sync does nothing.

use std::fs::File;
use std::io;
use std::path::Path;

/// Puts a directory's entries (names created, renamed or removed in it) on disk.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(windows)]
    {
        // NTFS journals its metadata; there is no handle to flush. Still fail on a missing directory.
        std::fs::metadata(dir).map(|_| ())
    }
    #[cfg(not(windows))]
    {
        File::open(dir)?.sync_all()
    }
}

/// Puts the file at `path` (its bytes and size) on disk.
pub fn sync_file(path: &Path) -> io::Result<()> {
    // Windows' FlushFileBuffers needs write access; Unix fsyncs a read-only handle too.
    let file = File::options().read(true).write(cfg!(windows)).open(path)?;
    file.sync_all()
}

/// Makes a written script executable where the platform has the bit (`curl` scripts of `xs2a-sandbox
/// har`); on Windows a script runs by its extension, and this does nothing.
pub fn make_executable(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_opens_and_syncs_and_a_missing_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), b"x").unwrap();
        sync_dir(dir.path()).unwrap();
        sync_file(&dir.path().join("f")).unwrap();
        assert!(sync_dir(&dir.path().join("missing")).is_err());
        assert!(sync_file(&dir.path().join("missing")).is_err());
    }

    #[test]
    #[cfg(unix)]
    fn a_script_becomes_executable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("s.sh");
        std::fs::write(&script, b"#!/bin/sh\n").unwrap();
        make_executable(&script).unwrap();
        let mode = std::fs::metadata(&script).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
    }
}
