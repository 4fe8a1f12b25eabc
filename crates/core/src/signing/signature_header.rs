//! Parsing the Signature header (cavage HTTP signatures draft 09/10 with NextGenPSD2 rules): the four
//! parts keyId, algorithm, headers and signature in any order, optionally inside an RFC 2047 wrapper.

use super::rfc2047;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use base64::Engine;

/// The parsed parts of a Signature header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureParams {
    /// `SN=<hex serial>,CA=<issuer DN>`.
    pub key_id: String,
    pub algorithm: String,
    /// Header names as written, in signing order.
    pub headers: Vec<String>,
    /// The decoded signature bytes.
    pub signature: Vec<u8>,
    /// True when the header came in an RFC 2047 wrapper.
    pub was_wrapped: bool,
}

/// Parses a Signature header value. Errors are sentences for a TPP developer.
pub fn parse(value: &str) -> Result<SignatureParams, String> {
    if rfc2047::is_encoded_word(value) {
        let unwrapped = rfc2047::decode(value)?;
        return parse_parts(&unwrapped, true);
    }
    parse_parts(value, false)
}

fn parse_parts(text: &str, was_wrapped: bool) -> Result<SignatureParams, String> {
    let mut key_id = None;
    let mut algorithm = None;
    let mut headers = None;
    let mut signature = None;
    for (name, value) in split_parameters(text)? {
        let slot = if name.eq_ignore_ascii_case("keyId") {
            &mut key_id
        } else if name.eq_ignore_ascii_case("algorithm") {
            &mut algorithm
        } else if name.eq_ignore_ascii_case("headers") {
            &mut headers
        } else if name.eq_ignore_ascii_case("signature") {
            &mut signature
        } else if name.eq_ignore_ascii_case("created") || name.eq_ignore_ascii_case("expires") {
            // draft-cavage allows (created) and (expires); they carry no meaning here.
            continue;
        } else {
            return Err(format!("the Signature header has an unknown part '{name}'"));
        };
        if slot.replace(value).is_some() {
            return Err(format!("the Signature header names '{name}' twice"));
        }
    }
    let missing = |part: &str| {
        format!("the Signature header lacks the part {part}; it needs keyId, algorithm, headers and signature")
    };
    let signature_text = signature.ok_or_else(|| missing("signature"))?;
    let signature = decode_base64(signature_text)
        .ok_or("the signature part of the Signature header is not valid base64")?;
    // draft-cavage: a missing headers part means just "date"; NextGenPSD2 wants it explicit.
    let headers = headers.ok_or_else(|| missing("headers"))?;
    Ok(SignatureParams {
        key_id: key_id.ok_or_else(|| missing("keyId"))?.to_owned(),
        algorithm: algorithm.ok_or_else(|| missing("algorithm"))?.to_owned(),
        headers: headers
            .split(' ')
            .filter(|h| !h.is_empty())
            .map(str::to_owned)
            .collect(),
        signature,
        was_wrapped,
    })
}

fn decode_base64(text: &str) -> Option<Vec<u8>> {
    if let Ok(bytes) = STANDARD.decode(text) {
        return Some(bytes);
    }
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    STANDARD
        .decode(&text)
        .or_else(|_| STANDARD_NO_PAD.decode(text.trim_end_matches('=')))
        .ok()
}

/// Splits `name="value",name="value"`; commas inside quotes belong to the value.
fn split_parameters(text: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut out = Vec::with_capacity(4);
    let mut rest = text.trim();
    while !rest.is_empty() {
        let eq = rest.find('=').ok_or_else(|| {
            format!(
                "expected name=\"value\" in the Signature header near '{}'",
                clip(rest)
            )
        })?;
        let name = rest[..eq].trim();
        if name.is_empty() || name.contains([',', '"', ' ']) {
            return Err(format!(
                "a part of the Signature header has no valid name near '{}'",
                clip(rest)
            ));
        }
        let after = rest[eq + 1..].trim_start();
        let (value, remainder) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted.find('"').ok_or_else(|| {
                format!("the value of '{name}' in the Signature header has no closing quote")
            })?;
            (&quoted[..end], &quoted[end + 1..])
        } else {
            // Unquoted values are tolerated up to the next comma.
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim(), &after[end..])
        };
        out.push((name, value));
        let remainder = remainder.trim_start();
        rest = match remainder.strip_prefix(',') {
            Some(r) => r.trim_start(),
            None if remainder.is_empty() => remainder,
            None => {
                return Err(format!(
                    "expected ',' between the parts of the Signature header near '{}'",
                    clip(remainder)
                ))
            }
        };
    }
    Ok(out)
}

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Reads a header value that holds bytes outside visible ASCII, as some clients send non-ASCII text raw
/// instead of RFC 2047-wrapping it (the bank platform's own signing proxy writes an issuer such as
/// `L=Tromsø` into keyId that way: Node sends a header string's characters as ISO-8859-1 bytes). Bytes
/// that form UTF-8 are read as UTF-8, any others as ISO-8859-1 — the historical charset of HTTP header
/// octets — so both habits name the right issuer. Returns the text and the charset it was read as;
/// `None` for control characters, which no encoding makes acceptable.
pub fn decode_raw_octets(bytes: &[u8]) -> Option<(String, &'static str)> {
    if bytes
        .iter()
        .any(|b| (*b < 0x20 && *b != b'\t') || *b == 0x7f)
    {
        return None;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Some((text.to_owned(), "UTF-8")),
        Err(_) => Some((bytes.iter().map(|b| char::from(*b)).collect(), "ISO-8859-1")),
    }
}

/// Writes a Signature header value (the TPP side).
pub fn format(key_id: &str, algorithm: &str, headers: &[&str], signature: &[u8]) -> String {
    format!(
        "keyId=\"{key_id}\",algorithm=\"{algorithm}\",headers=\"{}\",signature=\"{}\"",
        headers.join(" "),
        STANDARD.encode(signature)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"keyId="SN=1A2B,CA=CN=Test CA,O=Test,C=NO",algorithm="rsa-sha256",headers="(request-target) date x-request-id",signature="AQID""#;

    #[test]
    fn parts_are_read_in_any_order() {
        let reordered = r#"signature="AQID", headers="date x-request-id (request-target)",algorithm="rsa-sha256",keyId="SN=1A2B,CA=CN=Test CA,O=Test,C=NO""#;
        let a = parse(SAMPLE).unwrap();
        let b = parse(reordered).unwrap();
        assert_eq!(a.key_id, b.key_id);
        assert_eq!(a.signature, vec![1, 2, 3]);
        assert_eq!(b.headers, ["date", "x-request-id", "(request-target)"]);
    }

    #[test]
    fn an_rfc2047_wrapper_is_unwrapped() {
        let parsed = parse(&rfc2047::encode_utf8(SAMPLE)).unwrap();
        assert!(parsed.was_wrapped);
        assert_eq!(parsed.algorithm, "rsa-sha256");
    }

    #[test]
    fn missing_and_duplicate_parts_are_named() {
        let no_headers = r#"keyId="SN=1,CA=CN=x",algorithm="rsa-sha256",signature="AQID""#;
        assert!(parse(no_headers).unwrap_err().contains("headers"));
        let twice = format!(r#"{SAMPLE},algorithm="rsa-sha256""#);
        assert!(parse(&twice).unwrap_err().contains("twice"));
        assert!(parse(r#"keyId="SN=1"#)
            .unwrap_err()
            .contains("closing quote"));
        let bad_b64 = SAMPLE.replace("AQID", "***");
        assert!(parse(&bad_b64).unwrap_err().contains("base64"));
    }

    #[test]
    fn raw_latin1_and_utf8_octets_both_read_as_the_same_text() {
        let latin1 = b"keyId=\"SN=1,CA=CN=Test CA,L=Troms\xf8,C=NO\"";
        let (text, charset) = decode_raw_octets(latin1).unwrap();
        assert_eq!(
            (text.as_str(), charset),
            ("keyId=\"SN=1,CA=CN=Test CA,L=Tromsø,C=NO\"", "ISO-8859-1")
        );
        let (utf8, charset) = decode_raw_octets(text.as_bytes()).unwrap();
        assert_eq!((utf8, charset), (text, "UTF-8"));
        assert!(decode_raw_octets(b"a\x01b").is_none());
    }
}
