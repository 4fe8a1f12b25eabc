//! The text of the DER string types certificates use in practice, including those x509-parser leaves
//! undecoded: a T61String is read as ISO-8859-1 (what issuers in the wild put in one), a BMPString as
//! UTF-16. The structure itself is read by asn1-rs, which x509-parser brings.

use asn1_rs::{Any, BmpString, Class, FromDer, Tag};

/// The text of a DER string value, or why it is not one.
pub fn string_text(value: &Any) -> Result<String, String> {
    if value.class() != Class::Universal {
        return Err(format!(
            "expected a string, found a {:?}-class tag {}",
            value.class(),
            value.tag().0
        ));
    }
    match value.tag() {
        Tag::Utf8String
        | Tag::PrintableString
        | Tag::Ia5String
        | Tag::NumericString
        | Tag::VisibleString => String::from_utf8(value.data.to_vec())
            .map_err(|_| "string is not valid UTF-8".to_string()),
        Tag::TeletexString => Ok(value.data.iter().map(|b| char::from(*b)).collect()),
        Tag::BmpString if value.data.len().is_multiple_of(2) => BmpString::try_from(value)
            .map(|text| text.string())
            .map_err(|_| "BMPString is not valid UTF-16".to_string()),
        tag => Err(format!("expected a string, found {tag}")),
    }
}

/// The text of one whole DER-encoded string value (as RFC 2253 writes values in `#hex`); `None` when the
/// bytes are not exactly one string value.
pub fn string_from_der(bytes: &[u8]) -> Option<String> {
    let (rest, value) = Any::from_der(bytes).ok()?;
    if !rest.is_empty() {
        return None;
    }
    string_text(&value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_types_certificates_use_are_read() {
        assert_eq!(string_from_der(b"\x0c\x03caf").as_deref(), Some("caf"));
        assert_eq!(string_from_der(b"\x13\x02NO").as_deref(), Some("NO"));
        // T61String as ISO-8859-1, BMPString as UTF-16.
        assert_eq!(string_from_der(b"\x14\x02\xf8x").as_deref(), Some("øx"));
        assert_eq!(
            string_from_der(b"\x1e\x04\x00\xf8\x00x").as_deref(),
            Some("øx")
        );
    }

    #[test]
    fn what_is_not_one_string_gives_none() {
        assert_eq!(string_from_der(b"\x02\x01\x05"), None); // INTEGER 5
        assert_eq!(string_from_der(b"\x0c\x03ca"), None); // cut short
        assert_eq!(string_from_der(b"\x0c\x01a\x00"), None); // bytes after it
        assert_eq!(string_from_der(b"\x1e\x03\x00\xf8\x00"), None); // odd BMPString
        assert_eq!(string_from_der(b"\x8c\x01a"), None); // context class
        assert_eq!(string_from_der(b"\x0c\x01\xff"), None); // not UTF-8
    }
}
