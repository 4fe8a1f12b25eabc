//! Distinguished names and the `keyId` of a Signature header. `keyId="SN=<serial>,CA=<issuer>"` must name
//! the signing certificate by its upper-case hex serial and its issuer in RFC 2253 form; real TPP clients
//! get both slightly wrong (lower-case hex, the issuer in certificate order, `S` for `ST`, `%20`, dropped
//! attributes). This module reads what they write, decides whether it still names the right certificate,
//! and words each deviation as a warning that says what production might refuse.

use std::fmt;

use x509_parser::x509::{AttributeTypeAndValue, X509Name};

use super::qc_statements::der;

/// The attribute types certificates of this interface use, by the name RFC 2253 (or common practice) gives them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttributeKind {
    C,
    ST,
    L,
    O,
    OU,
    CN,
    Street,
    DC,
    Uid,
    SerialNumber,
    /// 2.5.4.97, the eIDAS organisation identifier (e.g. `PSDNO-FSA-123456`).
    OrganizationIdentifier,
    /// 1.2.840.113549.1.9.1 (PKCS#9 emailAddress).
    Email,
    /// Any other attribute type, by dotted OID.
    Oid(String),
}

const KNOWN: &[(AttributeKind, &str, &str)] = &[
    (AttributeKind::C, "C", "2.5.4.6"),
    (AttributeKind::ST, "ST", "2.5.4.8"),
    (AttributeKind::L, "L", "2.5.4.7"),
    (AttributeKind::O, "O", "2.5.4.10"),
    (AttributeKind::OU, "OU", "2.5.4.11"),
    (AttributeKind::CN, "CN", "2.5.4.3"),
    (AttributeKind::Street, "STREET", "2.5.4.9"),
    (AttributeKind::DC, "DC", "0.9.2342.19200300.100.1.25"),
    (AttributeKind::Uid, "UID", "0.9.2342.19200300.100.1.1"),
    (AttributeKind::SerialNumber, "SERIALNUMBER", "2.5.4.5"),
    (
        AttributeKind::OrganizationIdentifier,
        "organizationIdentifier",
        "2.5.4.97",
    ),
    (AttributeKind::Email, "emailAddress", "1.2.840.113549.1.9.1"),
];

/// Other spellings clients use for the same attribute types (compared case-insensitively).
const ALIASES: &[(&str, AttributeKind)] = &[
    ("S", AttributeKind::ST),
    ("stateOrProvinceName", AttributeKind::ST),
    ("countryName", AttributeKind::C),
    ("localityName", AttributeKind::L),
    ("organizationName", AttributeKind::O),
    ("organizationalUnitName", AttributeKind::OU),
    ("commonName", AttributeKind::CN),
    ("streetAddress", AttributeKind::Street),
    ("domainComponent", AttributeKind::DC),
    ("userId", AttributeKind::Uid),
    ("E", AttributeKind::Email),
    ("EMAILADDRESS", AttributeKind::Email),
];

impl AttributeKind {
    /// The kind for a dotted OID; known OIDs map to their named kind.
    pub fn from_oid(oid: &str) -> Self {
        KNOWN
            .iter()
            .find(|(_, _, o)| *o == oid)
            .map(|(k, _, _)| k.clone())
            .unwrap_or_else(|| Self::Oid(oid.to_string()))
    }

    /// The kind for a name as clients write it: short or long names in any case, `OID.x.y.z` or `x.y.z`.
    pub fn from_name(name: &str) -> Option<Self> {
        if let Some((kind, _, _)) = KNOWN.iter().find(|(_, n, _)| n.eq_ignore_ascii_case(name)) {
            return Some(kind.clone());
        }
        if let Some((_, kind)) = ALIASES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            return Some(kind.clone());
        }
        let dotted = name
            .strip_prefix("OID.")
            .or_else(|| name.strip_prefix("oid."))
            .unwrap_or(name);
        let is_oid = dotted.split('.').count() >= 2
            && dotted
                .split('.')
                .all(|arc| !arc.is_empty() && arc.bytes().all(|b| b.is_ascii_digit()));
        is_oid.then(|| Self::from_oid(dotted))
    }

    /// The name this sandbox writes in RFC 2253 form.
    pub fn label(&self) -> &str {
        match self {
            Self::Oid(oid) => oid,
            kind => KNOWN
                .iter()
                .find(|(k, _, _)| k == kind)
                .map(|(_, n, _)| *n)
                .unwrap_or("?"),
        }
    }

    /// The dotted OID.
    pub fn oid(&self) -> &str {
        match self {
            Self::Oid(oid) => oid,
            kind => KNOWN
                .iter()
                .find(|(k, _, _)| k == kind)
                .map(|(_, _, o)| *o)
                .unwrap_or("?"),
        }
    }
}

/// One attribute of a distinguished name, with its value as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub kind: AttributeKind,
    pub value: String,
}

/// A distinguished name as in the certificate: RDNs most general first (C before CN), as in the DER.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DistinguishedName {
    pub rdns: Vec<Vec<Attribute>>,
}

impl DistinguishedName {
    /// Reads a parsed X.509 name. Values in string types x509-parser does not decode (BMPString, T61String)
    /// are decoded here; anything else is shown lossily rather than dropped, so messages can still name it.
    pub fn from_x509(name: &X509Name) -> DistinguishedName {
        let rdns = name
            .iter_rdn()
            .map(|rdn| {
                rdn.iter()
                    .map(|atv| Attribute {
                        kind: AttributeKind::from_oid(&atv.attr_type().to_id_string()),
                        value: value_text(atv),
                    })
                    .collect()
            })
            .collect();
        DistinguishedName { rdns }
    }

    /// The first value of an attribute type, in certificate order.
    pub fn first(&self, kind: &AttributeKind) -> Option<&str> {
        self.attributes()
            .find(|a| &a.kind == kind)
            .map(|a| a.value.as_str())
    }

    /// All attributes in certificate order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.rdns.iter().flatten()
    }

    /// The RFC 2253 string: most specific RDN first, joined by ','; multi-valued RDNs joined by '+'.
    ///
    /// organizationIdentifier is written `organizationIdentifier=PSDNO-FSA-123456`. Strict RFC 2253 only
    /// names the attribute types of its own table and would write `2.5.4.97=#0c10...` (the DER as hex);
    /// production signing proxies differ here (OpenSSL, Java and BouncyCastle each have their own habit), so
    /// the readable form is the canonical one and the others are tolerated by [`compare_issuer`].
    pub fn to_rfc2253(&self) -> String {
        self.rdns
            .iter()
            .rev()
            .map(|rdn| {
                rdn.iter()
                    .map(|a| format!("{}={}", a.kind.label(), escape_value(&a.value)))
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl fmt::Display for DistinguishedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc2253())
    }
}

fn value_text(atv: &AttributeTypeAndValue) -> String {
    if let Ok(s) = atv.as_str() {
        return s.to_string();
    }
    let any = atv.attr_value();
    u8::try_from(any.tag().0)
        .ok()
        .and_then(|tag| der::decode_string(tag, any.data).ok())
        .unwrap_or_else(|| String::from_utf8_lossy(any.data).into_owned())
}

/// RFC 2253 section 2.4 escaping.
fn escape_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let last = value.chars().count().saturating_sub(1);
    for (i, c) in value.chars().enumerate() {
        let edge_space = c == ' ' && (i == 0 || i == last);
        if matches!(c, ',' | '+' | '"' | '\\' | '<' | '>' | ';')
            || (c == '#' && i == 0)
            || edge_space
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

// ---- keyId: the CA part ---------------------------------------------------------------------------

/// An attribute as a client wrote it, with the liberties it took, so each can be warned about.
struct Written {
    attribute: Attribute,
    name: String,
    percent: bool,
    quoted: bool,
    hex: bool,
    padded: bool,
}

/// Parses the CA part of a keyId the way clients really write it (see [`compare_issuer`]).
pub fn parse_key_id_ca(text: &str) -> Result<Vec<Attribute>, String> {
    Ok(parse_written(text)?
        .into_iter()
        .map(|w| w.attribute)
        .collect())
}

fn parse_written(text: &str) -> Result<Vec<Written>, String> {
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
        if let Some(text) = decode_hex(hex).and_then(|der| der_string(&der)) {
            return Ok((text, false, true));
        }
    }
    Ok((unescape(raw)?, false, false))
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

fn der_string(bytes: &[u8]) -> Option<String> {
    let mut reader = der::Reader::new(bytes);
    let (tag, content) = reader.read("value").ok()?;
    reader.finish("value").ok()?;
    der::decode_string(tag, content).ok()
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

// ---- keyId: comparing ------------------------------------------------------------------------------

/// How well the CA part of a keyId names the certificate's issuer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssuerMatch {
    /// Byte for byte the RFC 2253 form.
    Exact,
    /// Names the issuer, with deviations production might refuse; one sentence each.
    Tolerated(Vec<String>),
    /// Does not name the issuer; the sentence says why and shows the expected form.
    Mismatch(String),
}

/// Compares the CA part of a keyId with the certificate's issuer.
///
/// Accepted with a warning: names in other spellings or case (`S`, `cn`, `OID.2.5.4.97`), a different
/// order (typically certificate order, C first), spaces around separators, `%20` escapes, quoted or
/// `#hex` values, letter-case differences in values, and leaving attributes out — the platform's own
/// signing proxy writes `CN,O,OU,L,S,C` in that order and drops organizationIdentifier. Refused: an
/// attribute the issuer does not have, a value that differs beyond case and whitespace, unreadable text.
pub fn compare_issuer(key_id_ca: &str, issuer: &DistinguishedName) -> IssuerMatch {
    let expected = issuer.to_rfc2253();
    if key_id_ca == expected {
        return IssuerMatch::Exact;
    }
    let written = match parse_written(key_id_ca) {
        Ok(w) => w,
        Err(e) => {
            return IssuerMatch::Mismatch(sentence(format!(
                "The CA part of keyId cannot be read: {e}. The certificate's issuer in RFC 2253 form is \"{expected}\"."
            )))
        }
    };
    // Issuer attributes in RFC 2253 order (most specific first).
    let wanted: Vec<&Attribute> = issuer.rdns.iter().rev().flatten().collect();
    let mut used = vec![false; wanted.len()];
    let mut positions = Vec::new();
    let mut warnings = Vec::new();
    for w in &written {
        let a = &w.attribute;
        let label = a.kind.label();
        let candidates: Vec<usize> = (0..wanted.len())
            .filter(|i| !used[*i] && wanted[*i].kind == a.kind)
            .collect();
        let Some(&first) = candidates.first() else {
            let why = if wanted.iter().any(|x| x.kind == a.kind) {
                format!("names {label} more often than the certificate's issuer has it")
            } else {
                format!(
                    "names {label}={}, but the certificate's issuer has no {label} attribute",
                    a.value
                )
            };
            return IssuerMatch::Mismatch(sentence(format!(
                "The CA part of keyId {why}. The issuer in RFC 2253 form is \"{expected}\"."
            )));
        };
        let same = |i: &&usize| collapse(&wanted[**i].value) == collapse(&a.value);
        let same_ignoring_case = |i: &&usize| {
            collapse(&wanted[**i].value).to_lowercase() == collapse(&a.value).to_lowercase()
        };
        let index = if let Some(&i) = candidates.iter().find(same) {
            if wanted[i].value != a.value {
                warnings.push(format!(
                    "The {label} value in keyId differs from the certificate's issuer in whitespace (\"{}\" against \"{}\"); production may compare it exactly.",
                    a.value, wanted[i].value
                ));
            }
            i
        } else if let Some(&i) = candidates.iter().find(same_ignoring_case) {
            warnings.push(format!(
                "The {label} value in keyId differs from the certificate's issuer in letter case (\"{}\" against \"{}\"); production may refuse it.",
                a.value, wanted[i].value
            ));
            i
        } else {
            return IssuerMatch::Mismatch(sentence(format!(
                "The CA part of keyId has {label}=\"{}\" but the certificate's issuer has {label}=\"{}\". The issuer in RFC 2253 form is \"{expected}\".",
                a.value, wanted[first].value
            )));
        };
        used[index] = true;
        positions.push(index);
    }
    warnings.extend(style_warnings(&written, &expected));
    if positions.windows(2).any(|p| p[0] > p[1]) {
        warnings.push(if positions.windows(2).all(|p| p[0] > p[1]) {
            format!("keyId lists the issuer in certificate order, most general first; RFC 2253 puts the most specific first (\"{expected}\"), and production may refuse the reversed order.")
        } else {
            format!("keyId lists the issuer's attributes in a different order from RFC 2253 (\"{expected}\"); production may refuse it.")
        });
    }
    let missing: Vec<String> = (0..wanted.len())
        .filter(|i| !used[*i])
        .map(|i| format!("{}={}", wanted[i].kind.label(), wanted[i].value))
        .collect();
    if !missing.is_empty() {
        warnings.push(format!(
            "keyId leaves out the issuer's {}; the full RFC 2253 issuer is \"{expected}\", and production may refuse a partial name.",
            missing.join(", ")
        ));
    }
    if warnings.is_empty() {
        warnings.push(format!(
            "The CA part of keyId names the issuer but is not written exactly as its RFC 2253 form \"{expected}\"; production may compare the text byte for byte."
        ));
    }
    IssuerMatch::Tolerated(warnings.into_iter().map(sentence).collect())
}

fn style_warnings(written: &[Written], expected: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut renamed: Vec<String> = Vec::new();
    for w in written {
        let label = w.attribute.kind.label();
        let note = format!("'{}' for '{label}'", w.name);
        if w.name != label && !renamed.contains(&note) {
            renamed.push(note);
        }
    }
    if !renamed.is_empty() {
        warnings.push(format!(
            "keyId writes the attribute name {} where the RFC 2253 form writes otherwise (\"{expected}\"); production may refuse these names.",
            renamed.join(", ")
        ));
    }
    if written.iter().any(|w| w.padded) {
        warnings.push("keyId has spaces around ',' or '=' in the CA part; RFC 2253 has none, and production may refuse the spaced form.".into());
    }
    if written.iter().any(|w| w.percent) {
        warnings.push("keyId contains %XX escapes (such as %20) in the CA part, which the sandbox decoded; production reads the text as written and may refuse it.".into());
    }
    if written.iter().any(|w| w.quoted) {
        warnings.push("keyId uses double-quoted values in the CA part (RFC 1779 style); RFC 2253 escapes special characters with a backslash instead, and production may refuse quotes.".into());
    }
    if written.iter().any(|w| w.hex) {
        warnings.push(format!(
            "keyId gives a value as #hex DER in the CA part; that is valid RFC 2253, but this bank's form is \"{expected}\" and production may compare text."
        ));
    }
    warnings
}

fn collapse(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cuts a message to the 512 characters a tppMessages text may hold.
fn sentence(text: String) -> String {
    if text.chars().count() <= 512 {
        return text;
    }
    let mut cut: String = text.chars().take(511).collect();
    cut.push('…');
    cut
}

// ---- keyId: the serial -----------------------------------------------------------------------------

/// How well the SN part of a keyId names the certificate's serial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SerialMatch {
    /// Exactly the upper-case hex without leading zeros.
    Exact,
    /// The same number written differently; the list holds warnings and is empty when the difference
    /// (leading zeros, as the DER itself has them) is not worth one.
    Tolerated(Vec<String>),
    /// Not the certificate's serial; the sentence says what was expected.
    Mismatch(String),
}

/// The serial as keyId wants it: upper-case hex, no leading zeros, "0" for zero.
pub fn serial_hex(bytes: &[u8]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
    let trimmed = hex.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".into()
    } else {
        trimmed.into()
    }
}

/// Compares the SN part of a keyId with the certificate serial (big-endian bytes) as a number.
pub fn compare_serial(key_id_sn: &str, cert_serial: &[u8]) -> SerialMatch {
    let expected = serial_hex(cert_serial);
    if key_id_sn == expected {
        return SerialMatch::Exact;
    }
    let written = key_id_sn.trim();
    let is_hex = !written.is_empty() && written.bytes().all(|b| b.is_ascii_hexdigit());
    if is_hex {
        let digits = written.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        if digits.eq_ignore_ascii_case(&expected) {
            let mut warnings = Vec::new();
            if digits != expected {
                warnings.push(format!(
                    "keyId writes the serial in lower-case hex ({written}); the specification asks for upper case ({expected}), and production may refuse it."
                ));
            }
            if written != key_id_sn {
                warnings.push(format!(
                    "keyId has spaces around the serial; production may refuse \"{key_id_sn}\"."
                ));
            }
            return SerialMatch::Tolerated(warnings);
        }
    }
    if written == serial_decimal(cert_serial) {
        return SerialMatch::Mismatch(format!(
            "The SN part of keyId ({written}) looks like the decimal serial; keyId wants upper-case hex {expected}."
        ));
    }
    if !is_hex {
        return SerialMatch::Mismatch(sentence(format!(
            "The SN part of keyId (\"{key_id_sn}\") is not hexadecimal; the signing certificate's serial is {expected} (upper-case hex, no separators)."
        )));
    }
    SerialMatch::Mismatch(sentence(format!(
        "The SN part of keyId ({written}) is not the serial of the certificate in TPP-Signature-Certificate, which is {expected}."
    )))
}

fn serial_decimal(bytes: &[u8]) -> String {
    let mut number: Vec<u8> = bytes.iter().copied().skip_while(|b| *b == 0).collect();
    let mut digits = Vec::new();
    while !number.is_empty() {
        let mut remainder = 0u32;
        for byte in number.iter_mut() {
            let acc = (remainder << 8) | u32::from(*byte);
            *byte = (acc / 10) as u8;
            remainder = acc % 10;
        }
        digits.push(char::from(b'0' + remainder as u8));
        number = number.into_iter().skip_while(|b| *b == 0).collect();
    }
    if digits.is_empty() {
        return "0".into();
    }
    digits.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttributeKind::*;

    fn dn(attrs: &[(AttributeKind, &str)]) -> DistinguishedName {
        DistinguishedName {
            rdns: attrs
                .iter()
                .map(|(kind, value)| {
                    vec![Attribute {
                        kind: kind.clone(),
                        value: value.to_string(),
                    }]
                })
                .collect(),
        }
    }

    fn test_ca() -> DistinguishedName {
        dn(&[(C, "NO"), (O, "xs2a-sandbox"), (CN, "xs2a-sandbox Test CA")])
    }

    /// An issuer like the real platform's: many attributes, organizationIdentifier included.
    fn bank_ca() -> DistinguishedName {
        dn(&[
            (C, "NO"),
            (ST, "Oslo"),
            (L, "Oslo"),
            (O, "Bank ASA"),
            (OU, "PSD2"),
            (OrganizationIdentifier, "NTRNO-987654321"),
            (CN, "Bank Issuing CA"),
        ])
    }

    fn tolerated(text: &str, issuer: &DistinguishedName) -> Vec<String> {
        match compare_issuer(text, issuer) {
            IssuerMatch::Tolerated(w) => {
                assert!(
                    !w.is_empty() && w.iter().all(|s| s.len() <= 512 && s.ends_with('.')),
                    "{w:?}"
                );
                w
            }
            other => panic!("{text}: expected Tolerated, got {other:?}"),
        }
    }

    fn mismatch(text: &str, issuer: &DistinguishedName) -> String {
        match compare_issuer(text, issuer) {
            IssuerMatch::Mismatch(m) => m,
            other => panic!("{text}: expected Mismatch, got {other:?}"),
        }
    }

    #[test]
    fn rfc2253_puts_the_most_specific_first() {
        assert_eq!(
            test_ca().to_rfc2253(),
            "CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO"
        );
        assert_eq!(
            bank_ca().to_rfc2253(),
            "CN=Bank Issuing CA,organizationIdentifier=NTRNO-987654321,OU=PSD2,O=Bank ASA,L=Oslo,ST=Oslo,C=NO"
        );
    }

    #[test]
    fn rfc2253_escapes_specials_and_joins_multi_valued_rdns() {
        let mut name = dn(&[(C, "NO"), (O, "A, B + \"C\" <d>;\\"), (CN, "#1 ")]);
        name.rdns[0].push(Attribute {
            kind: L,
            value: " Oslo".into(),
        });
        assert_eq!(
            name.to_rfc2253(),
            r#"CN=\#1\ ,O=A\, B \+ \"C\" \<d\>\;\\,C=NO+L=\ Oslo"#
        );
    }

    #[test]
    fn exact_text_is_exact() {
        assert_eq!(
            compare_issuer("CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO", &test_ca()),
            IssuerMatch::Exact
        );
        let escaped = dn(&[(O, "A, B"), (CN, "x")]);
        assert_eq!(
            compare_issuer(r"CN=x,O=A\, B", &escaped),
            IssuerMatch::Exact
        );
    }

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
        let m = mismatch("CN=a,,O=b", &test_ca());
        assert!(
            m.contains("cannot be read")
                && m.contains("CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO"),
            "{m}"
        );
    }

    #[test]
    fn certificate_order_is_tolerated_with_a_warning() {
        let w = tolerated("C=NO,O=xs2a-sandbox,CN=xs2a-sandbox Test CA", &test_ca());
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("certificate order"), "{w:?}");
    }

    #[test]
    fn shuffled_order_is_tolerated_with_a_warning() {
        let w = tolerated("O=xs2a-sandbox,CN=xs2a-sandbox Test CA,C=NO", &test_ca());
        assert!(w[0].contains("different order"), "{w:?}");
    }

    #[test]
    fn spaces_after_commas_are_tolerated() {
        let w = tolerated("CN=xs2a-sandbox Test CA, O=xs2a-sandbox, C=NO", &test_ca());
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("spaces around"), "{w:?}");
    }

    #[test]
    fn percent_escapes_are_tolerated() {
        let w = tolerated(
            "CN=xs2a-sandbox%20Test%20CA,O=xs2a-sandbox,C=NO",
            &test_ca(),
        );
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("%XX"), "{w:?}");
    }

    #[test]
    fn s_for_st_and_lower_case_names_are_tolerated() {
        let w = tolerated(
            "CN=Bank Issuing CA,organizationIdentifier=NTRNO-987654321,OU=PSD2,O=Bank ASA,L=Oslo,S=Oslo,c=NO",
            &bank_ca(),
        );
        assert_eq!(w.len(), 1);
        assert!(
            w[0].contains("'S' for 'ST'") && w[0].contains("'c' for 'C'"),
            "{w:?}"
        );
    }

    #[test]
    fn the_platform_proxy_form_is_tolerated_naming_what_it_drops() {
        let w = tolerated(
            "CN=Bank Issuing CA,O=Bank ASA,OU=PSD2,L=Oslo,S=Oslo,C=NO",
            &bank_ca(),
        );
        let all = w.join(" ");
        assert!(
            all.contains("leaves out the issuer's organizationIdentifier=NTRNO-987654321"),
            "{all}"
        );
        assert!(
            all.contains("'S' for 'ST'") && all.contains("different order"),
            "{all}"
        );
    }

    #[test]
    fn oid_forms_of_organization_identifier_are_tolerated() {
        for name in ["OID.2.5.4.97", "2.5.4.97"] {
            let text = format!(
                "CN=Bank Issuing CA,{name}=NTRNO-987654321,OU=PSD2,O=Bank ASA,L=Oslo,ST=Oslo,C=NO"
            );
            let w = tolerated(&text, &bank_ca());
            assert!(
                w[0].contains(&format!("'{name}' for 'organizationIdentifier'")),
                "{w:?}"
            );
        }
        let strict = "CN=Bank Issuing CA,2.5.4.97=#0C0F4E54524E4F2D393837363534333231,OU=PSD2,O=Bank ASA,L=Oslo,ST=Oslo,C=NO";
        assert!(tolerated(strict, &bank_ca()).join(" ").contains("#hex"));
    }

    #[test]
    fn quoted_values_are_tolerated() {
        let w = tolerated(
            "CN=\"xs2a-sandbox Test CA\",O=xs2a-sandbox,C=NO",
            &test_ca(),
        );
        assert!(w[0].contains("double-quoted"), "{w:?}");
    }

    #[test]
    fn value_case_and_inner_whitespace_are_tolerated() {
        let w = tolerated("CN=XS2A-sandbox Test CA,O=xs2a-sandbox,C=NO", &test_ca());
        assert!(w[0].contains("letter case"), "{w:?}");
        let w = tolerated("CN=xs2a-sandbox  Test CA,O=xs2a-sandbox,C=NO", &test_ca());
        assert!(w[0].contains("whitespace"), "{w:?}");
    }

    #[test]
    fn unneeded_escapes_get_a_generic_warning() {
        let w = tolerated(r"CN=xs2a-sandbox\ Test CA,O=xs2a-sandbox,C=NO", &test_ca());
        assert!(w[0].contains("byte for byte"), "{w:?}");
    }

    #[test]
    fn a_different_value_is_a_mismatch() {
        let m = mismatch("CN=Other CA,O=xs2a-sandbox,C=NO", &test_ca());
        assert!(
            m.contains("CN=\"Other CA\"") && m.contains("CN=\"xs2a-sandbox Test CA\""),
            "{m}"
        );
        assert!(
            m.contains("\"CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO\""),
            "{m}"
        );
    }

    #[test]
    fn an_attribute_the_issuer_lacks_is_a_mismatch() {
        let m = mismatch(
            "CN=xs2a-sandbox Test CA,OU=PSD2,O=xs2a-sandbox,C=NO",
            &test_ca(),
        );
        assert!(m.contains("no OU attribute"), "{m}");
        let m = mismatch(
            "CN=xs2a-sandbox Test CA,CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO",
            &test_ca(),
        );
        assert!(m.contains("more often"), "{m}");
    }

    #[test]
    fn the_subject_instead_of_the_issuer_is_a_mismatch() {
        let m = mismatch(
            "CN=Acme AISP,organizationIdentifier=PSDNO-FSA-ABC123,O=Acme AISP,C=NO",
            &test_ca(),
        );
        assert!(m.contains("CN"), "{m}");
    }

    #[test]
    fn long_messages_are_cut_to_512_characters() {
        let long = dn(&[(CN, &"x".repeat(600))]);
        let m = mismatch("CN=y", &long);
        assert_eq!(m.chars().count(), 512);
    }

    #[test]
    fn serial_hex_is_upper_case_without_leading_zeros() {
        assert_eq!(serial_hex(&[0x00, 0x0a, 0xbc]), "ABC");
        assert_eq!(serial_hex(&[0x7f, 0x01]), "7F01");
        assert_eq!(serial_hex(&[0, 0]), "0");
        assert_eq!(serial_hex(&[]), "0");
    }

    #[test]
    fn serial_exact_and_tolerated_forms() {
        let serial = [0x00, 0x9a, 0x0b];
        assert_eq!(compare_serial("9A0B", &serial), SerialMatch::Exact);
        assert_eq!(
            compare_serial("009A0B", &serial),
            SerialMatch::Tolerated(vec![])
        );
        let SerialMatch::Tolerated(w) = compare_serial("9a0b", &serial) else {
            panic!()
        };
        assert!(w.len() == 1 && w[0].contains("lower-case"), "{w:?}");
        assert_eq!(
            compare_serial("0A", &[0x0a]),
            SerialMatch::Tolerated(vec![])
        );
        assert_eq!(compare_serial("0", &[0x00]), SerialMatch::Exact);
        assert_eq!(
            compare_serial("00", &[0x00]),
            SerialMatch::Tolerated(vec![])
        );
        let SerialMatch::Tolerated(w) = compare_serial(" 9A0B", &serial) else {
            panic!()
        };
        assert!(w[0].contains("spaces"), "{w:?}");
    }

    #[test]
    fn serial_mismatches_say_what_was_expected() {
        let serial = [0x01, 0x00];
        let SerialMatch::Mismatch(m) = compare_serial("256", &serial) else {
            panic!()
        };
        assert!(
            m.contains("looks like the decimal serial; keyId wants upper-case hex 100"),
            "{m}"
        );
        let SerialMatch::Mismatch(m) = compare_serial("01:00", &serial) else {
            panic!()
        };
        assert!(m.contains("not hexadecimal") && m.contains("100"), "{m}");
        let SerialMatch::Mismatch(m) = compare_serial("", &serial) else {
            panic!()
        };
        assert!(m.contains("not hexadecimal"), "{m}");
        let SerialMatch::Mismatch(m) = compare_serial("101", &serial) else {
            panic!()
        };
        assert!(m.contains("which is 100"), "{m}");
    }

    #[test]
    fn decimal_rendering_of_long_serials() {
        assert_eq!(serial_decimal(&[0x01, 0x00]), "256");
        assert_eq!(serial_decimal(&[0xff; 16]), u128::MAX.to_string());
        assert_eq!(serial_decimal(&[0]), "0");
    }
}
