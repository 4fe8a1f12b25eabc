//! Why a TPP-Signature-Certificate header could not be read, said as its likely cause: the header is
//! named, and the usual ways of getting it wrong are told apart (PEM armour, a header cut at a line
//! break, raw DER instead of its base64, the URL-safe alphabet, a PEM file base64-encoded as a whole), so
//! that the message says what to change rather than where a decoder stopped.

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{DecodeError, Engine};

/// What the header should hold, said after each cause.
const WANTED: &str =
    "It should be the certificate's DER in standard base64 on one line, without PEM armour \
     (`base64 -w0 cert.der`, or the lines between a PEM file's BEGIN and END lines joined).";

const URL_SAFE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The header's text is not base64 (`compact` is it without whitespace, `error` the decoder's).
pub fn not_base64(compact: &str, error: &DecodeError) -> String {
    let at = match error {
        DecodeError::InvalidByte(offset, byte) => format!(
            "'{}' at offset {offset} is not a character of standard base64",
            char::from(*byte).escape_default()
        ),
        DecodeError::InvalidLength(length) => {
            format!("its {length} characters cannot be base64 (a character is missing or extra)")
        }
        DecodeError::InvalidLastSymbol(offset, _) => {
            format!("its last character (offset {offset}) cannot end base64")
        }
        DecodeError::InvalidPadding => "its '=' padding is misplaced".to_owned(),
    };
    let cause = if compact.contains("BEGIN") || compact.contains("-----") {
        "Likely cause: broken PEM armour (the -----BEGIN/END CERTIFICATE----- lines cut or altered)."
    } else if compact.contains("\\n") || compact.contains("\\r") || compact.contains("%0A") {
        "Likely cause: line breaks written into the value (escaped newlines)."
    } else if compact.contains(['-', '_'])
        && URL_SAFE
            .decode(compact)
            .is_ok_and(|der| der.first() == Some(&0x30))
    {
        "Likely cause: the URL-safe alphabet ('-' and '_' where standard base64 has '+' and '/')."
    } else {
        "Likely cause: the value is not the certificate at all (a placeholder, an id or another header's value)."
    };
    format!("TPP-Signature-Certificate is not base64: {at}. {cause} {WANTED}")
}

/// The header's bytes are not text. A certificate sent as raw DER (not base64-encoded) starts with a DER
/// SEQUENCE (0x30).
pub fn raw_bytes(value: &[u8]) -> String {
    let cause = if value.first() == Some(&0x30) {
        "Likely cause: the certificate's DER was sent as raw bytes (it starts with 0x30, a DER SEQUENCE) instead of its base64."
    } else {
        "Likely cause: binary data or non-ASCII characters in the value."
    };
    format!("TPP-Signature-Certificate holds bytes that are not visible ASCII. {cause} {WANTED}")
}

/// The header decoded, but what it holds is not a DER certificate (`reason`, the parser's).
pub fn not_a_certificate(der: &[u8], reason: &str) -> String {
    let cause = if der.starts_with(b"-----BEGIN") {
        "Likely cause: a whole PEM file was base64-encoded (it decodes to -----BEGIN …); encode the DER instead."
    } else if der.first() != Some(&0x30) {
        "Likely cause: it is the base64 of something else than a certificate (a DER certificate starts with 0x30)."
    } else {
        "Likely cause: a truncated or altered certificate."
    };
    format!("TPP-Signature-Certificate decodes, but not to an X.509 certificate: {reason}. {cause} {WANTED}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;

    fn decode_error(text: &str) -> DecodeError {
        STANDARD.decode(text).unwrap_err()
    }

    #[test]
    fn a_placeholder_is_not_blamed_on_the_url_safe_alphabet() {
        let text = not_base64("hello_world", &decode_error("hello_world"));
        assert!(
            text.starts_with("TPP-Signature-Certificate is not base64: '_' at offset 5"),
            "{text}"
        );
        assert!(!text.contains("URL-safe"), "{text}");
        assert!(text.contains("not the certificate at all"), "{text}");
    }

    #[test]
    fn the_url_safe_alphabet_is_named_when_it_decodes_so() {
        let der = [0x30, 0x82, 0xfb, 0xff, 0xfe, 0x3e];
        let url_safe = URL_SAFE.encode(der);
        assert!(url_safe.contains(['-', '_']), "{url_safe}");
        let text = not_base64(&url_safe, &decode_error(&url_safe));
        assert!(text.contains("the URL-safe alphabet"), "{text}");
    }

    #[test]
    fn armour_and_line_breaks_and_raw_der_are_told_apart() {
        let armour = "-----BEGIN CERTIFICATE-----MIIB";
        assert!(not_base64(armour, &decode_error(armour)).contains("PEM armour"));
        let escaped = "MIIB\\nMIIB";
        assert!(not_base64(escaped, &decode_error(escaped)).contains("line breaks"));
        assert!(raw_bytes(&[0x30, 0x82, 0x05]).contains("raw bytes"));
        let pem_as_base64 = b"-----BEGIN CERTIFICATE-----\nMIIB";
        assert!(not_a_certificate(pem_as_base64, "Parsing Error").contains("whole PEM file"));
    }
}
