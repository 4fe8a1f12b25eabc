//! The RFC 2047 "encoded-word" wrapper the bank allows (docs/interface.md#signing-every-request) around a whole
//! Signature header (`=?utf-8?B?<base64>?=`), unwrapped before parsing and written by the TPP-side signer.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// True when the value is made of encoded-words (`=?charset?encoding?text?=`, possibly several).
pub fn is_encoded_word(value: &str) -> bool {
    let value = value.trim();
    value.starts_with("=?") && value.ends_with("?=") && value.len() > 4
}

/// Decodes a value made of one or more encoded-words. RFC 2047 section 6.2: whitespace between adjacent
/// encoded-words is ignored and their texts are joined (encoders split long values, e.g. Java's MimeUtility).
pub fn decode(value: &str) -> Result<String, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    if words.len() > 1 {
        return words.iter().map(|word| decode_word(word)).collect();
    }
    decode_word(value)
}

/// Decodes one encoded-word with B (base64) or Q (quoted-printable-like) encoding in UTF-8, US-ASCII or
/// ISO-8859-1. Returns a sentence saying what is wrong otherwise.
fn decode_word(value: &str) -> Result<String, String> {
    let value = value.trim();
    let inner = value
        .strip_prefix("=?")
        .and_then(|v| v.strip_suffix("?="))
        .ok_or("an RFC 2047 encoded word must start with '=?' and end with '?='")?;
    let mut parts = inner.splitn(3, '?');
    let (charset, encoding, text) = match (parts.next(), parts.next(), parts.next()) {
        (Some(c), Some(e), Some(t)) => (c.to_ascii_lowercase(), e.to_ascii_uppercase(), t),
        _ => return Err("an RFC 2047 encoded word has the form =?charset?B?text?=".into()),
    };
    let bytes = match encoding.as_str() {
        "B" => STANDARD
            .decode(text.trim())
            .map_err(|e| format!("the RFC 2047 B-encoded text is not valid base64: {e}"))?,
        "Q" => decode_q(text)?,
        other => {
            return Err(format!(
                "RFC 2047 encoding '{other}' is unknown; use B or Q"
            ))
        }
    };
    match charset.as_str() {
        "utf-8" | "utf8" | "us-ascii" => String::from_utf8(bytes)
            .map_err(|_| format!("the RFC 2047 text is not valid {charset}")),
        // ISO-8859-1 maps each byte to the code point of the same value.
        "iso-8859-1" | "latin1" => Ok(bytes.into_iter().map(char::from).collect()),
        other => Err(format!(
            "RFC 2047 charset '{other}' is not supported; use utf-8 or iso-8859-1"
        )),
    }
}

fn decode_q(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'_' => out.push(b' '),
            b'=' => {
                let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                let pair = std::str::from_utf8(&hex).ok().filter(|h| h.len() == 2);
                let byte = pair
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or("an '=' in RFC 2047 Q encoding must be followed by two hex digits")?;
                out.push(byte);
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// Wraps a value as `=?utf-8?B?<base64>?=`.
pub fn encode_utf8(value: &str) -> String {
    format!("=?utf-8?B?{}?=", STANDARD.encode(value.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_encoding_round_trips() {
        let text = r#"keyId="SN=1A,CA=CN=Test Ø",algorithm="rsa-sha256""#;
        let wrapped = encode_utf8(text);
        assert!(is_encoded_word(&wrapped));
        assert_eq!(decode(&wrapped).unwrap(), text);
    }

    #[test]
    fn adjacent_encoded_words_are_joined() {
        let text = "keyId=\"SN=1A,CA=CN=Bærum CA\",algorithm=\"rsa-sha256\"";
        let (a, b) = text.split_at(20);
        let split = format!("{} {}", encode_utf8(a), encode_utf8(b));
        assert_eq!(decode(&split).unwrap(), text);
    }

    #[test]
    fn q_encoding_and_latin1_are_understood() {
        assert_eq!(
            decode("=?iso-8859-1?Q?CA=3DCN=3DT=F8_st?=").unwrap(),
            "CA=CN=Tø st"
        );
    }

    #[test]
    fn malformed_words_say_why() {
        assert!(decode("=?utf-8?X?abc?=").unwrap_err().contains("unknown"));
        assert!(decode("=?utf-8?B?***?=").unwrap_err().contains("base64"));
        assert!(decode("=?koi8-r?B?YQ==?=")
            .unwrap_err()
            .contains("not supported"));
    }
}
