//! Why a state or flow file was refused: what kind of fault, the place in the file as a JSON pointer
//! (RFC 6901), and plain text. Transport-free; the workbench API maps it to a status and a `tppMessages`
//! entry whose `path` is the pointer.

use std::fmt;
use xs2a_core::domain::refusal::{Code, Refusal};

/// The kinds of fault, each refused the same way wherever it is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// Not JSON, or cut short.
    Syntax,
    /// Not a file of this kind (`format`).
    Format,
    /// A format version this sandbox does not read.
    Version,
    /// JSON, but not what the format or a record type allows.
    Schema,
    /// Two records under one id, in the file or (merging) with the data.
    Collision,
    /// A reference to an account, customer or agreement neither the file nor (merging) the data holds.
    MissingReference,
    /// The store failed (not the file's fault).
    Storage,
}

/// A refused file: nothing of it was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub kind: FaultKind,
    /// Where in the file (`""` is the whole file).
    pub pointer: String,
    pub message: String,
}

impl FileError {
    pub fn new(kind: FaultKind, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        FileError {
            kind,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    pub fn schema(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(FaultKind::Schema, pointer, message)
    }

    pub fn storage(error: impl fmt::Display) -> Self {
        Self::new(FaultKind::Storage, "", format!("storage: {error}"))
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = if self.pointer.is_empty() {
            "the file as a whole"
        } else {
            &self.pointer
        };
        write!(f, "at {place}: {}", self.message)
    }
}

impl From<xs2a_core::store::StoreError> for FileError {
    fn from(error: xs2a_core::store::StoreError) -> Self {
        FileError::storage(error)
    }
}

impl From<FileError> for Refusal {
    fn from(error: FileError) -> Self {
        let code = match error.kind {
            FaultKind::Collision => Code::Conflict,
            FaultKind::Storage => Code::SystemError,
            _ => Code::FormatError,
        };
        Refusal::new(code, Some(&error.pointer), error.to_string())
    }
}

/// One JSON pointer token, escaped (`~` as `~0`, `/` as `~1`).
pub fn token(text: &str) -> String {
    text.replace('~', "~0").replace('/', "~1")
}

/// The JSON pointer of a serde path (as `serde_path_to_error` reports where decoding stopped).
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } => pointer.push_str(&format!("/{}", token(key))),
            Segment::Enum { variant } => pointer.push_str(&format!("/{}", token(variant))),
            Segment::Unknown => {}
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_tokens_escape_tilde_and_slash() {
        assert_eq!(token("a/b~c"), "a~1b~0c");
    }

    #[test]
    fn the_message_names_the_place() {
        let e = FileError::schema("/trees/consents/0", "bad");
        assert_eq!(e.to_string(), "at /trees/consents/0: bad");
        let refusal = Refusal::from(e);
        assert_eq!(refusal.code, Code::FormatError);
        assert_eq!(refusal.path.as_deref(), Some("/trees/consents/0"));
    }
}
