//! Text fields: length limits counted in characters (not bytes), and the downstream-character rule.
//!
//! docs/interface.md#payments and docs/reference/errors.md: requests are UTF-8, but when a
//! downstream system cannot process a character (for example an emoji) the service answers 400. The
//! sandbox defines "can process" as the character set of the Norwegian clearing formats: the printable
//! characters of ISO-8859-1 (U+0020..U+007E and U+00A0..U+00FF, so æøåÆØÅ, ü, é, ß are fine) plus
//! '€' (U+20AC). Emoji, CJK, other scripts and control characters (including tab and newline) are
//! refused with FORMAT_ERROR at the field, naming the character by its code point.

use super::fields::{at, missing, opt_str, Object};
use crate::domain::refusal::Refusal;

/// Whether downstream systems can carry `c`: ISO-8859-1 printable, or the euro sign.
pub fn downstream_ok(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{FF}' | '\u{20AC}')
}

/// Refuses the first character downstream systems cannot process, naming it and its position.
pub fn check_charset(path: &str, text: &str) -> Result<(), Refusal> {
    if let Some((position, c)) = text.chars().enumerate().find(|(_, c)| !downstream_ok(*c)) {
        let code = format!("U+{:04X}", c as u32);
        // Control characters are named by code point only: printing them would garble the message.
        let shown = if c.is_control() {
            code.clone()
        } else {
            format!("'{c}' ({code})")
        };
        return Err(Refusal::format(
            path,
            format!(
                "{path} contains {shown} at position {}, a character downstream systems cannot \
                 process. Text fields may hold printable ISO-8859-1 characters (including æøå) and \
                 '€' only; remove emoji, control characters and characters of other scripts.",
                position + 1
            ),
        ));
    }
    Ok(())
}

/// Checks a text value: the downstream character set, then `min..=max` characters.
///
/// `min` is 0 or 1: remittance texts and structured references are non-empty (docs/reference/payments.md#validation-duplicates-fees).
pub fn check_text(path: &str, text: &str, min: usize, max: usize) -> Result<(), Refusal> {
    check_charset(path, text)?;
    let count = text.chars().count();
    if count < min {
        return Err(Refusal::format(path, format!("{path} must not be empty.")));
    }
    if count > max {
        return Err(Refusal::format(
            path,
            format!("{path} has {count} characters; at most {max} are allowed."),
        ));
    }
    Ok(())
}

/// An optional text field with limits; returned owned, as the model stores it.
pub fn opt_text(
    object: &Object,
    prefix: &str,
    name: &str,
    min: usize,
    max: usize,
) -> Result<Option<String>, Refusal> {
    let path = at(prefix, name);
    match opt_str(object, prefix, name)? {
        None => Ok(None),
        Some(text) => {
            check_text(&path, text, min, max)?;
            Ok(Some(text.to_string()))
        }
    }
}

/// A required text field with limits.
pub fn req_text(
    object: &Object,
    prefix: &str,
    name: &str,
    min: usize,
    max: usize,
) -> Result<String, Refusal> {
    opt_text(object, prefix, name, min, max)?.ok_or_else(|| missing(object, prefix, name))
}

/// No limit: the interface names none for some fields (buildingNumber, postalCode), but the character
/// rule still applies to them.
pub const UNLIMITED: usize = usize::MAX;
