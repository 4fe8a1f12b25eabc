//! An import's mode as a request names it (docs/fixtures.md): `replace` (the default) or `merge`.

use super::import::Mode;
use xs2a_core::domain::refusal::{CoreResult, Refusal};

impl Mode {
    /// The mode `name` names: replace when none; 400 FORMAT_ERROR at `mode` for any other word.
    pub fn named(name: Option<&str>) -> CoreResult<Mode> {
        match name {
            None | Some("replace") => Ok(Mode::Replace),
            Some("merge") => Ok(Mode::Merge),
            Some(other) => Err(Refusal::format(
                "mode",
                format!("'{other}' is not an import mode: replace or merge"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_core::domain::refusal::Code;

    #[test]
    fn names_replace_by_default_and_refuses_other_words() {
        assert_eq!(Mode::named(None).unwrap(), Mode::Replace);
        assert_eq!(Mode::named(Some("merge")).unwrap(), Mode::Merge);
        let refusal = Mode::named(Some("append")).unwrap_err();
        assert_eq!(
            (refusal.status(), refusal.code, refusal.path.as_deref()),
            (400, Code::FormatError, Some("mode"))
        );
        assert_eq!(
            refusal.text,
            "'append' is not an import mode: replace or merge"
        );
    }
}
