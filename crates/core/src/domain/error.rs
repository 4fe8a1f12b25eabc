//! The one error every domain parser returns: a plain-English reason a value was refused.

/// Why a value was refused, phrased for a human reading a `tppMessages` text.
///
/// It deliberately carries no JSON path or error code: the same primitive is parsed from
/// bodies, headers and query strings, so the caller that knows where the value came from
/// adds the path and picks the code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DomainError(pub String);

impl DomainError {
    /// Shorthand so parsers can write `DomainError::new(format!(..))` without a tuple constructor.
    pub fn new(reason: impl Into<String>) -> Self {
        DomainError(reason.into())
    }
}

/// `count` of `one`, with an s unless it is one: "1 digit", "10 digits".
pub fn count(count: usize, one: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {one}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_the_reason_only() {
        let e = DomainError::new("check digit is 4, expected 3");
        assert_eq!(e.to_string(), "check digit is 4, expected 3");
        assert_eq!(e, DomainError("check digit is 4, expected 3".to_string()));
    }

    #[test]
    fn counts_are_pluralised() {
        assert_eq!(count(1, "digit"), "1 digit");
        assert_eq!(count(0, "digit"), "0 digits");
        assert_eq!(count(12, "character"), "12 characters");
    }
}
