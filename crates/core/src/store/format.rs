//! The data directory's format file, `format.json`: the format version of the records in the directory and
//! the app version that last wrote it, plus the last migration that brought it there. It lives beside
//! sled's files and is read before sled opens, so that an app that does not know the format refuses the
//! directory without writing a byte (docs/data-directory.md). A directory without one is format 1: every
//! version before the file existed wrote format 1.

use serde::{Deserialize, Serialize};
use std::path::Path;
use time::OffsetDateTime;

/// The format file's name inside the data directory.
pub const FILE: &str = "format.json";
/// The format of a directory that has no format file.
pub const FIRST: u32 = 1;
/// This app's version, as the format file and the messages name it.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What `format.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormatFile {
    /// The format version of everything in the directory.
    pub format: u32,
    /// The app version that last opened the directory to write to it.
    pub app: String,
    /// The last migration, kept so that later starts still say where the old directory is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub migrated: Option<Migrated>,
}

/// A migration that brought the directory to its format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Migrated {
    /// The format it was in before.
    pub from: u32,
    /// The app version that wrote it before, when its format file said (format 1 has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_app: Option<String>,
    /// When (the machine's time: a migration happens before the sandbox clock is read from the data).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// Where the directory as it was is kept until the user removes it.
    pub backup: String,
}

impl FormatFile {
    /// The file this app writes for a directory in format `format`.
    pub fn new(format: u32) -> FormatFile {
        FormatFile {
            format,
            app: APP_VERSION.to_owned(),
            migrated: None,
        }
    }
}

/// Reads the format file of `dir`; `None` when there is none. A file that cannot be read or understood is
/// an error: guessing the format of someone's data is how data is lost.
pub fn read(dir: &Path) -> Result<Option<FormatFile>, String> {
    let path = dir.join(FILE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|error| {
        format!(
            "{} does not say which data format the directory holds ({error}); nothing was changed. \
             It is written by xs2a-sandbox and should not be edited: restore it, or move the directory \
             away and start afresh",
            path.display()
        )
    })
}

/// Writes the format file of `dir` whole or not at all (a temporary file, fsync, rename, fsync of the
/// directory), so that a crash never leaves half a file that would make the directory unreadable.
pub fn write(dir: &Path, file: &FormatFile) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(file).expect("the format file serialises");
    bytes.push(b'\n');
    let partial = dir.join(format!("{FILE}.partial"));
    {
        use std::io::Write;
        let mut out = std::fs::File::create(&partial)?;
        out.write_all(&bytes)?;
        out.sync_all()?;
    }
    std::fs::rename(&partial, dir.join(FILE))?;
    // The rename on disk: an fsync of the directory that holds the name.
    crate::platform::fs_sync::sync_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_file_reads_back_and_its_absence_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path()).unwrap(), None);
        let file = FormatFile {
            migrated: Some(Migrated {
                from: 1,
                from_app: None,
                at: time::macros::datetime!(2026-06-01 12:00 UTC),
                backup: "/data.before-0.2.0".into(),
            }),
            ..FormatFile::new(2)
        };
        write(dir.path(), &file).unwrap();
        assert_eq!(read(dir.path()).unwrap(), Some(file));
        assert!(!dir.path().join("format.json.partial").exists());
    }

    #[test]
    fn a_damaged_format_file_is_an_error_not_a_guess() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), b"{\"format\": ").unwrap();
        let error = read(dir.path()).unwrap_err();
        assert!(error.contains("nothing was changed"), "{error}");
    }
}
