//! The CA part of a keyId as clients really write it: names in any spelling or case, `%XX` escapes,
//! quoted and `#hex` values, backslash escapes, spaces around separators. Reading keeps note of each
//! liberty taken, so that the comparison can warn about it.

use crate::signing::der_text::string_from_der;
use crate::signing::distinguished_name::{Attribute, AttributeKind};

/// An attribute as a client wrote it, with the liberties it took, so each can be warned about.
pub(super) struct Written {
    pub attribute: Attribute,
    pub name: String,
    pub percent: bool,
    pub quoted: bool,
    pub hex: bool,
    pub padded: bool,
}

/// Parses the CA part of a keyId the way clients really write it (see [`compare_issuer`]).
pub fn parse_key_id_ca(text: &str) -> Result<Vec<Attribute>, String> {
    Ok(parse_written(text)?
        .into_iter()
        .map(|w| w.attribute)
        .collect())
}

pub(super) fn parse_written(text: &str) -> Result<Vec<Written>, String> {
    if text.trim().is_empty() {
        return Err("it is empty".into());
    }
    split_unescaped(text, ',')?
        .into_iter()
        .map(|piece| {
            let Some((raw_name, raw_value)) = split_unescaped(piece, '=')?
                .split_first()
                .filter(|(_, rest)| !rest.is_empty())
                .map(|(n, _)| (*n, &piece[n.len() + 1..]))
            else {
                return Err(format!("'{}' is not of the form name=value", piece.trim()));
            };
            let (name, name_percent) = percent_decode(raw_name);
            let name = name.trim().to_string();
            if name.is_empty() {
                return Err(format!("'{}' has no attribute name", piece.trim()));
            }
            let kind = AttributeKind::from_name(&name)
                .ok_or_else(|| format!("'{name}' is not an attribute name this sandbox knows"))?;
            let (value, value_percent) = percent_decode(raw_value);
            let padded = raw_name.trim() != raw_name || raw_value.trim() != raw_value;
            let (value, quoted, hex) = parse_value(trim_unescaped(&value))?;
            Ok(Written {
                attribute: Attribute { kind, value },
                name,
                percent: name_percent || value_percent,
                quoted,
                hex,
                padded,
            })
        })
        .collect()
}

/// Splits on `sep` outside double quotes and not preceded by a backslash.
fn split_unescaped(text: &str, sep: char) -> Result<Vec<&str>, String> {
    let (mut parts, mut start, mut quoted, mut escaped) = (Vec::new(), 0, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            c if c == sep && !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err("a double quote is not closed".into());
    }
    parts.push(&text[start..]);
    if sep == ',' && parts.iter().any(|p| p.trim().is_empty()) {
        return Err("there is an empty attribute between commas".into());
    }
    Ok(parts)
}

/// Trims spaces, keeping an escaped trailing space (`\ `).
fn trim_unescaped(value: &str) -> &str {
    let start = value.trim_start();
    let end = start.trim_end();
    let backslashes = end.chars().rev().take_while(|c| *c == '\\').count();
    if backslashes % 2 == 1 && end.len() < start.len() {
        &start[..end.len() + 1]
    } else {
        end
    }
}

/// Decodes `%XX` escapes; leaves the text alone when they do not decode to UTF-8.
fn percent_decode(text: &str) -> (String, bool) {
    let bytes = text.as_bytes();
    let (mut out, mut i, mut changed) = (Vec::with_capacity(bytes.len()), 0, false);
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(b) if bytes[i] == b'%' => {
                out.push(b);
                i += 3;
                changed = true;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    match String::from_utf8(out) {
        Ok(s) if changed => (s, true),
        _ => (text.to_string(), false),
    }
}

/// Returns (value, was double-quoted, was #hex DER).
fn parse_value(raw: &str) -> Result<(String, bool, bool), String> {
    if let Some(inner) = raw.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .ok_or_else(|| format!("the quoted value {raw} has text after its closing quote"))?;
        return Ok((unescape(inner)?, true, false));
    }
    if let Some(hex) = raw.strip_prefix('#') {
        if let Some(text) = decode_hex(hex).and_then(|der| string_from_der(&der)) {
            return Ok((text, false, true));
        }
    }
    Ok((unescape(raw)?, false, false))
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

/// RFC 2253 backslash escapes: `\,` style and `\XX` hex pairs (which may spell UTF-8).
fn unescape(raw: &str) -> Result<String, String> {
    let (mut out, mut chars) = (Vec::with_capacity(raw.len()), raw.chars().peekable());
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            continue;
        }
        let next = chars.next().ok_or("a value ends with a lone backslash")?;
        let pair = chars
            .peek()
            .filter(|_| next.is_ascii_hexdigit())
            .and_then(|second| u8::from_str_radix(&format!("{next}{second}"), 16).ok());
        match pair {
            Some(b) => {
                chars.next();
                out.push(b);
            }
            None => out.extend_from_slice(next.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    String::from_utf8(out).map_err(|_| "backslash hex escapes do not spell UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttributeKind::*;

    #[test]
    fn parses_what_clients_write() {
        let attrs = parse_key_id_ca(
            r#" cn = "Bank, Issuing CA" ,OID.2.5.4.97=NTRNO-1,S=Oslo,E=a@b.no,O=A\2C B%20C"#,
        )
        .unwrap();
        let kinds: Vec<_> = attrs.iter().map(|a| a.kind.clone()).collect();
        assert_eq!(kinds, vec![CN, OrganizationIdentifier, ST, Email, O]);
        assert_eq!(attrs[0].value, "Bank, Issuing CA");
        assert_eq!(attrs[4].value, "A, B C");
        assert_eq!(
            parse_key_id_ca("2.5.4.97=x").unwrap()[0].kind,
            OrganizationIdentifier
        );
        assert_eq!(parse_key_id_ca("emailAddress=x").unwrap()[0].kind, Email);
        assert_eq!(
            parse_key_id_ca("stateOrProvinceName=x").unwrap()[0].kind,
            ST
        );
        assert_eq!(
            parse_key_id_ca("1.2.3.4=x").unwrap()[0].kind,
            Oid("1.2.3.4".into())
        );
        assert_eq!(parse_key_id_ca(r"CN=caf\C3\A9").unwrap()[0].value, "café");
        assert_eq!(parse_key_id_ca(r"CN=a\ ").unwrap()[0].value, "a ");
    }

    #[test]
    fn hex_values_are_decoded_when_they_are_der_strings() {
        // UTF8String "NTRNO-1"
        let attrs = parse_key_id_ca("2.5.4.97=#0C074E54524E4F2D31").unwrap();
        assert_eq!(attrs[0].value, "NTRNO-1");
        assert_eq!(parse_key_id_ca("CN=#zz").unwrap()[0].value, "#zz");
    }

    #[test]
    fn unreadable_text_is_an_error() {
        for bad in [
            "",
            "CN",
            "=x",
            "CN=a,,O=b",
            "CN=\"open",
            "XYZ=1",
            r"CN=a\",
            r"CN=\FF",
        ] {
            assert!(parse_key_id_ca(bad).is_err(), "{bad}");
        }
    }
}
