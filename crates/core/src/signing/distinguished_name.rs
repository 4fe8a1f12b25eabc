//! Distinguished names as certificates carry them: the attribute types of this interface's certificates,
//! reading a parsed X.509 name (string types included that x509-parser leaves undecoded), and writing it
//! in RFC 2253 form — the form keyId's CA part must take (the [`key_id`](super::key_id) module compares
//! what clients write with it).

use std::fmt;

use x509_parser::x509::{AttributeTypeAndValue, X509Name};

use super::der_text::string_text;

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
    string_text(any).unwrap_or_else(|_| String::from_utf8_lossy(any.data).into_owned())
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

/// Names for tests: one attribute per RDN, most general first (as in the DER).
#[cfg(test)]
pub(crate) mod test_names {
    use super::{Attribute, AttributeKind, AttributeKind::*, DistinguishedName};

    pub fn dn(attrs: &[(AttributeKind, &str)]) -> DistinguishedName {
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

    pub fn test_ca() -> DistinguishedName {
        dn(&[(C, "NO"), (O, "xs2a-sandbox"), (CN, "xs2a-sandbox Test CA")])
    }

    /// An issuer like the real platform's: many attributes, organizationIdentifier included.
    pub fn bank_ca() -> DistinguishedName {
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
}

#[cfg(test)]
mod tests {
    use super::test_names::*;
    use super::*;
    use AttributeKind::*;

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
}
