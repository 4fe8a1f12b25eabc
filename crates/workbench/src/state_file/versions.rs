//! Format versions of the files the sandbox reads (state files, recorded flows). A file of a newer version
//! is refused with a message naming both versions and what to do; one of an older version is brought up to
//! this one, a [`FileMigration`] per version, before it is read, so files written by earlier releases keep
//! importing and replaying. Each file kind has its own list (`state_file::MIGRATIONS`,
//! `flow::model::MIGRATIONS`); its version is the last entry's, 1 with none.

use super::error::{FaultKind, FileError};
use serde_json::Value;

/// One change of a file format: turns a document of version `to - 1` into version `to`, in place.
#[derive(Clone, Copy)]
pub struct FileMigration {
    pub to: u64,
    pub what: &'static str,
    pub run: fn(&mut Value) -> Result<(), FileError>,
}

/// The versions of one file kind: what it is called in messages and how to bring older ones up.
#[derive(Clone, Copy)]
pub struct Versions {
    /// "state file", "flow".
    pub kind: &'static str,
    pub migrations: &'static [FileMigration],
}

impl Versions {
    /// The version this sandbox writes, the newest it reads.
    pub const fn current(&self) -> u64 {
        match self.migrations.last() {
            Some(last) => last.to,
            None => 1,
        }
    }

    /// The version a file says it is, checked: a number from 1 to [`Versions::current`]. `None` and
    /// anything not a positive integer are refused at `/version`.
    pub fn check(&self, version: Option<&Value>) -> Result<u64, FileError> {
        let current = self.current();
        let kind = self.kind;
        match version.and_then(Value::as_u64) {
            Some(n) if (1..=current).contains(&n) => Ok(n),
            Some(n) if n > current => Err(FileError::new(
                FaultKind::Version,
                "/version",
                format!(
                    "format version {n} is unknown to this sandbox: the {kind} was written by a newer \
                     xs2a-sandbox, and this one ({}) reads {kind}s up to version {current}. Open it with an \
                     xs2a-sandbox that reads version {n}, or write it again with this one",
                    xs2a_core::store::format::APP_VERSION
                ),
            )),
            _ => Err(FileError::schema(
                "/version",
                format!("missing or not a version number: expected 1 to {current}"),
            )),
        }
    }

    /// Brings `document`, of version `from`, up to [`Versions::current`], one migration at a time, and
    /// sets its `version`. A migration that fails names the version it was making.
    pub fn upgrade(&self, document: &mut Value, from: u64) -> Result<(), FileError> {
        for migration in self.migrations.iter().filter(|m| m.to > from) {
            (migration.run)(document).map_err(|error| FileError {
                message: format!(
                    "while reading this version {from} {} as version {} ({}): {}",
                    self.kind, migration.to, migration.what, error.message
                ),
                ..error
            })?;
        }
        if let Some(top) = document.as_object_mut() {
            top.insert("version".into(), Value::from(self.current()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rename_title(document: &mut Value) -> Result<(), FileError> {
        let title = document
            .as_object_mut()
            .and_then(|top| top.remove("title"))
            .ok_or_else(|| FileError::schema("/title", "missing"))?;
        document["name"] = title;
        Ok(())
    }

    const SYNTHETIC: Versions = Versions {
        kind: "test file",
        migrations: &[FileMigration {
            to: 2,
            what: "title is called name",
            run: rename_title,
        }],
    };

    #[test]
    fn an_older_document_is_brought_up_to_the_current_version() {
        let mut document = json!({"version": 1, "title": "x"});
        let from = SYNTHETIC.check(document.get("version")).unwrap();
        SYNTHETIC.upgrade(&mut document, from).unwrap();
        assert_eq!(document, json!({"version": 2, "name": "x"}));
    }

    #[test]
    fn a_failing_step_names_the_versions() {
        let mut document = json!({"version": 1});
        let error = SYNTHETIC.upgrade(&mut document, 1).unwrap_err();
        assert_eq!(error.pointer, "/title");
        assert!(
            error.message.contains("version 1 test file as version 2"),
            "{error}"
        );
    }

    #[test]
    fn a_newer_version_is_refused_naming_both() {
        let error = SYNTHETIC.check(Some(&json!(3))).unwrap_err();
        assert_eq!(error.kind, FaultKind::Version);
        assert!(
            error.message.contains("format version 3 is unknown"),
            "{error}"
        );
        assert!(error.message.contains("up to version 2"), "{error}");
        for bad in [json!(0), json!("1"), json!(1.5)] {
            assert_eq!(
                SYNTHETIC.check(Some(&bad)).unwrap_err().kind,
                FaultKind::Schema
            );
        }
    }
}
