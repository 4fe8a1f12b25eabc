//! The PSD2 QCStatement (ETSI TS 119 495) carried in a TPP's eIDAS certificate: which roles the TPP was
//! authorised for (PSP_AS, PSP_PI, PSP_AI, PSP_IC) and by which national competent authority. This module
//! encodes the QCStatements extension value for issued test certificates and finds the PSD2 statement in
//! certificates presented by TPPs. It carries its own tiny DER reader/writer, because the structures are
//! small and a hand-written reader can give the precise complaints a TPP developer needs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// OID of the QCStatements certificate extension (RFC 3739), where the PSD2 statement lives.
pub const QC_STATEMENTS_EXTENSION_OID: &str = "1.3.6.1.5.5.7.1.3";
/// Same OID as arcs, for certificate writers.
pub const QC_STATEMENTS_EXTENSION_ARCS: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 1, 3];

const QC_COMPLIANCE: &[u64] = &[0, 4, 0, 1862, 1, 1];
const QC_TYPE: &[u64] = &[0, 4, 0, 1862, 1, 6];
const QC_TYPE_ESEAL: &[u64] = &[0, 4, 0, 1862, 1, 6, 2];
const PSD2_STATEMENT: &str = "0.4.0.19495.2";
const PSD2_STATEMENT_ARCS: &[u64] = &[0, 4, 0, 19495, 2];

/// A PSD2 role of a payment service provider, as named in ETSI TS 119 495.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
pub enum Psd2Role {
    /// Account servicing (the bank itself).
    #[serde(rename = "PSP_AS")]
    PspAs,
    /// Payment initiation (a PISP).
    #[serde(rename = "PSP_PI")]
    PspPi,
    /// Account information (an AISP).
    #[serde(rename = "PSP_AI")]
    PspAi,
    /// Issuing of card-based payment instruments.
    #[serde(rename = "PSP_IC")]
    PspIc,
}

impl Psd2Role {
    /// All roles, in the order of their OIDs.
    pub const ALL: [Psd2Role; 4] = [Self::PspAs, Self::PspPi, Self::PspAi, Self::PspIc];

    /// The roleOfPspName written in certificates and used in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PspAs => "PSP_AS",
            Self::PspPi => "PSP_PI",
            Self::PspAi => "PSP_AI",
            Self::PspIc => "PSP_IC",
        }
    }

    /// The roleOfPspOid, dotted.
    pub fn oid(self) -> &'static str {
        match self {
            Self::PspAs => "0.4.0.19495.1.1",
            Self::PspPi => "0.4.0.19495.1.2",
            Self::PspAi => "0.4.0.19495.1.3",
            Self::PspIc => "0.4.0.19495.1.4",
        }
    }

    fn oid_arcs(self) -> [u64; 6] {
        let last = match self {
            Self::PspAs => 1,
            Self::PspPi => 2,
            Self::PspAi => 3,
            Self::PspIc => 4,
        };
        [0, 4, 0, 19495, 1, last]
    }

    fn from_oid(oid: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.oid() == oid)
    }
}

impl fmt::Display for Psd2Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Psd2Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!("unknown PSD2 role '{s}'; expected PSP_AS, PSP_PI, PSP_AI or PSP_IC")
            })
    }
}

/// What the PSD2 statement says: the TPP's roles and the authority that granted them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Psd2Attributes {
    pub roles: Vec<Psd2Role>,
    pub nca_name: String,
    pub nca_id: String,
}

/// DER of the QCStatements extension value: QcCompliance, QcType eSeal and the PSD2 statement, which is
/// what a qualified certificate for electronic seals issued to a TPP carries.
pub fn encode_qc_statements(attributes: &Psd2Attributes) -> Vec<u8> {
    let compliance = der::sequence(&[der::oid(QC_COMPLIANCE)]);
    let qc_type = der::sequence(&[der::oid(QC_TYPE), der::sequence(&[der::oid(QC_TYPE_ESEAL)])]);
    let roles: Vec<Vec<u8>> = attributes
        .roles
        .iter()
        .map(|r| der::sequence(&[der::oid(&r.oid_arcs()), der::utf8(r.as_str())]))
        .collect();
    let psd2_type = der::sequence(&[
        der::sequence(&roles),
        der::utf8(&attributes.nca_name),
        der::utf8(&attributes.nca_id),
    ]);
    let psd2 = der::sequence(&[der::oid(PSD2_STATEMENT_ARCS), psd2_type]);
    der::sequence(&[compliance, qc_type, psd2])
}

/// Finds the PSD2 statement in a QCStatements extension value. `Ok(None)` when the certificate has
/// QCStatements but no PSD2 statement (a qualified certificate, but not one for PSD2).
///
/// A role is accepted when either its OID or its name is known, because issuers in the wild get one of the
/// two wrong; a known OID paired with a different known name is refused, since we cannot tell which is meant.
pub fn decode_psd2(ext_value: &[u8]) -> Result<Option<Psd2Attributes>, String> {
    let mut outer = der::Reader::new(ext_value);
    let statements = outer.expect(der::SEQUENCE, "QCStatements")?;
    outer.finish("QCStatements")?;
    let mut statements = der::Reader::new(statements);
    while !statements.is_empty() {
        let mut statement = der::Reader::new(statements.expect(der::SEQUENCE, "QCStatement")?);
        let id = der::decode_oid(statement.expect(der::OID, "QCStatement statementId")?)?;
        if id != PSD2_STATEMENT {
            continue;
        }
        let info = statement.expect(der::SEQUENCE, "PSD2QcType")?;
        return decode_psd2_type(info).map(Some);
    }
    Ok(None)
}

fn decode_psd2_type(info: &[u8]) -> Result<Psd2Attributes, String> {
    let mut info = der::Reader::new(info);
    let mut role_list = der::Reader::new(info.expect(der::SEQUENCE, "PSD2 rolesOfPSP")?);
    let mut roles = Vec::new();
    while !role_list.is_empty() {
        let mut role = der::Reader::new(role_list.expect(der::SEQUENCE, "PSD2 roleOfPSP")?);
        let oid = der::decode_oid(role.expect(der::OID, "PSD2 roleOfPspOid")?)?;
        let name = role.string("PSD2 roleOfPspName")?;
        let by_oid = Psd2Role::from_oid(&oid);
        let by_name = name.parse::<Psd2Role>().ok();
        let accepted = match (by_oid, by_name) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "PSD2 role OID {oid} means {a} but its roleOfPspName says {name}; the certificate contradicts itself"
                ))
            }
            (Some(r), _) | (None, Some(r)) => r,
            (None, None) => continue,
        };
        if !roles.contains(&accepted) {
            roles.push(accepted);
        }
    }
    let nca_name = info.string("PSD2 nCAName")?;
    let nca_id = info.string("PSD2 nCAId")?;
    Ok(Psd2Attributes {
        roles,
        nca_name,
        nca_id,
    })
}

/// Minimal DER: definite lengths, single-byte tags, OIDs. Shared with the DN parser for `#hex` values.
pub(super) mod der {
    pub const SEQUENCE: u8 = 0x30;
    pub const OID: u8 = 0x06;
    pub const UTF8_STRING: u8 = 0x0c;
    pub const PRINTABLE_STRING: u8 = 0x13;
    pub const T61_STRING: u8 = 0x14;
    pub const IA5_STRING: u8 = 0x16;
    pub const BMP_STRING: u8 = 0x1e;

    pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        let len = content.len();
        if len < 0x80 {
            out.push(len as u8);
        } else {
            let bytes: Vec<u8> = len
                .to_be_bytes()
                .into_iter()
                .skip_while(|b| *b == 0)
                .collect();
            out.push(0x80 | bytes.len() as u8);
            out.extend(bytes);
        }
        out.extend_from_slice(content);
        out
    }

    pub fn sequence(items: &[Vec<u8>]) -> Vec<u8> {
        tlv(SEQUENCE, &items.concat())
    }

    pub fn utf8(s: &str) -> Vec<u8> {
        tlv(UTF8_STRING, s.as_bytes())
    }

    pub fn oid(arcs: &[u64]) -> Vec<u8> {
        let mut body = Vec::new();
        let mut push = |mut v: u64| {
            let mut chunk = vec![(v & 0x7f) as u8];
            v >>= 7;
            while v > 0 {
                chunk.push(0x80 | (v & 0x7f) as u8);
                v >>= 7;
            }
            chunk.reverse();
            body.extend(chunk);
        };
        push(arcs[0] * 40 + arcs[1]);
        arcs[2..].iter().for_each(|a| push(*a));
        tlv(OID, &body)
    }

    pub fn decode_oid(content: &[u8]) -> Result<String, String> {
        if content.is_empty() {
            return Err("empty OBJECT IDENTIFIER".into());
        }
        let mut arcs = Vec::new();
        let mut value: u64 = 0;
        for (i, b) in content.iter().enumerate() {
            if value > (u64::MAX >> 7) {
                return Err("OBJECT IDENTIFIER arc too large".into());
            }
            value = (value << 7) | u64::from(b & 0x7f);
            if b & 0x80 == 0 {
                if arcs.is_empty() {
                    let first = (value / 40).min(2);
                    arcs.push(first);
                    arcs.push(value - first * 40);
                } else {
                    arcs.push(value);
                }
                value = 0;
            } else if i == content.len() - 1 {
                return Err("truncated OBJECT IDENTIFIER".into());
            }
        }
        Ok(arcs
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("."))
    }

    /// Text of a DER string of any of the types certificates use in practice.
    pub fn decode_string(tag: u8, content: &[u8]) -> Result<String, String> {
        match tag {
            UTF8_STRING | PRINTABLE_STRING | IA5_STRING | 0x12 | 0x1a => {
                String::from_utf8(content.to_vec())
                    .map_err(|_| "string is not valid UTF-8".to_string())
            }
            T61_STRING => Ok(content.iter().map(|b| char::from(*b)).collect()),
            BMP_STRING if content.len() % 2 == 0 => {
                let units: Vec<u16> = content
                    .chunks(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]))
                    .collect();
                String::from_utf16(&units).map_err(|_| "BMPString is not valid UTF-16".to_string())
            }
            _ => Err(format!("expected a string, found DER tag 0x{tag:02x}")),
        }
    }

    pub struct Reader<'a> {
        buf: &'a [u8],
    }

    impl<'a> Reader<'a> {
        pub fn new(buf: &'a [u8]) -> Self {
            Reader { buf }
        }

        pub fn is_empty(&self) -> bool {
            self.buf.is_empty()
        }

        pub fn read(&mut self, what: &str) -> Result<(u8, &'a [u8]), String> {
            let short = || format!("{what}: DER ends early");
            let (&tag, rest) = self.buf.split_first().ok_or_else(short)?;
            if tag & 0x1f == 0x1f {
                return Err(format!("{what}: multi-byte DER tags are not supported"));
            }
            let (&first, mut rest) = rest.split_first().ok_or_else(short)?;
            let len = if first < 0x80 {
                usize::from(first)
            } else {
                let n = usize::from(first & 0x7f);
                if n == 0 || n > 4 || rest.len() < n {
                    return Err(format!("{what}: bad DER length"));
                }
                let len = rest[..n]
                    .iter()
                    .fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
                rest = &rest[n..];
                len
            };
            if rest.len() < len {
                return Err(short());
            }
            let (content, after) = rest.split_at(len);
            self.buf = after;
            Ok((tag, content))
        }

        pub fn expect(&mut self, tag: u8, what: &str) -> Result<&'a [u8], String> {
            match self.read(what)? {
                (t, content) if t == tag => Ok(content),
                (t, _) => Err(format!(
                    "{what}: expected DER tag 0x{tag:02x}, found 0x{t:02x}"
                )),
            }
        }

        pub fn string(&mut self, what: &str) -> Result<String, String> {
            let (tag, content) = self.read(what)?;
            decode_string(tag, content).map_err(|e| format!("{what}: {e}"))
        }

        pub fn finish(&self, what: &str) -> Result<(), String> {
            if self.buf.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{what}: {} unexpected bytes after the value",
                    self.buf.len()
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(roles: Vec<Psd2Role>) -> Psd2Attributes {
        Psd2Attributes {
            roles,
            nca_name: "Finanstilsynet".into(),
            nca_id: "NO-FSA".into(),
        }
    }

    #[test]
    fn round_trip_keeps_roles_and_authority() {
        let a = attrs(vec![Psd2Role::PspAi, Psd2Role::PspPi]);
        assert_eq!(decode_psd2(&encode_qc_statements(&a)).unwrap(), Some(a));
    }

    #[test]
    fn round_trip_with_long_lengths() {
        let mut a = attrs(Psd2Role::ALL.to_vec());
        a.nca_name = "N".repeat(300);
        assert_eq!(decode_psd2(&encode_qc_statements(&a)).unwrap(), Some(a));
    }

    #[test]
    fn oid_encoding_matches_known_bytes() {
        assert_eq!(
            der::oid(PSD2_STATEMENT_ARCS),
            [0x06, 0x06, 0x04, 0x00, 0x81, 0x98, 0x27, 0x02]
        );
        assert_eq!(
            der::oid(QC_COMPLIANCE),
            [0x06, 0x06, 0x04, 0x00, 0x8e, 0x46, 0x01, 0x01]
        );
        assert_eq!(
            der::decode_oid(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d]).unwrap(),
            "1.2.840.113549"
        );
    }

    #[test]
    fn decodes_hand_written_bytes() {
        // SEQUENCE { SEQUENCE { OID 0.4.0.19495.2, SEQUENCE { SEQUENCE { SEQUENCE { OID PSP_AI, "PSP_AI" } },
        // "FI", "NO-X" } } }
        let role = [
            &[
                0x30, 0x11, 0x06, 0x07, 0x04, 0x00, 0x81, 0x98, 0x27, 0x01, 0x03,
            ][..],
            &[0x0c, 0x06],
            b"PSP_AI",
        ]
        .concat();
        let mut psd2 = vec![0x30, role.len() as u8];
        psd2.extend(&role);
        psd2.extend([0x0c, 0x02, b'F', b'I', 0x0c, 0x04, b'N', b'O', b'-', b'X']);
        let mut info = vec![0x30, psd2.len() as u8];
        info.extend(&psd2);
        let mut statement = vec![
            0x30,
            (info.len() + 8) as u8,
            0x06,
            0x06,
            0x04,
            0x00,
            0x81,
            0x98,
            0x27,
            0x02,
        ];
        statement.extend(&info);
        let mut value = vec![0x30, statement.len() as u8];
        value.extend(&statement);
        let got = decode_psd2(&value).unwrap().unwrap();
        assert_eq!(got.roles, vec![Psd2Role::PspAi]);
        assert_eq!((got.nca_name.as_str(), got.nca_id.as_str()), ("FI", "NO-X"));
    }

    #[test]
    fn statements_without_psd2_give_none() {
        let value = der::sequence(&[der::sequence(&[der::oid(QC_COMPLIANCE)])]);
        assert_eq!(decode_psd2(&value).unwrap(), None);
    }

    fn with_role(oid: &[u64], name: &str) -> Vec<u8> {
        let role = der::sequence(&[der::oid(oid), der::utf8(name)]);
        let info = der::sequence(&[
            der::sequence(&[role]),
            der::utf8("FSA"),
            der::utf8("NO-FSA"),
        ]);
        der::sequence(&[der::sequence(&[der::oid(PSD2_STATEMENT_ARCS), info])])
    }

    #[test]
    fn a_role_is_accepted_by_oid_or_by_name() {
        let by_oid =
            decode_psd2(&with_role(&[0, 4, 0, 19495, 1, 2], "payment initiation")).unwrap();
        assert_eq!(by_oid.unwrap().roles, vec![Psd2Role::PspPi]);
        let by_name = decode_psd2(&with_role(&[1, 2, 3], "PSP_AI")).unwrap();
        assert_eq!(by_name.unwrap().roles, vec![Psd2Role::PspAi]);
        let neither = decode_psd2(&with_role(&[1, 2, 3], "PSP_XX")).unwrap();
        assert!(neither.unwrap().roles.is_empty());
    }

    #[test]
    fn contradicting_oid_and_name_is_refused() {
        let err = decode_psd2(&with_role(&[0, 4, 0, 19495, 1, 3], "PSP_PI")).unwrap_err();
        assert!(err.contains("PSP_AI") && err.contains("PSP_PI"), "{err}");
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let good = encode_qc_statements(&attrs(vec![Psd2Role::PspAi]));
        for cut in 0..good.len() {
            assert!(decode_psd2(&good[..cut]).is_err(), "cut at {cut}");
        }
        for bad in [
            &[][..],
            &[0x30],
            &[0x30, 0x84, 0xff, 0xff, 0xff, 0xff],
            &[0x30, 0x80],
            &[0x1f, 0x01, 0x00],
        ] {
            assert!(decode_psd2(bad).is_err());
        }
        assert!(der::decode_oid(&[0x2a, 0x86]).is_err());
        assert!(der::decode_oid(&[0xff; 12]).is_err());
    }

    #[test]
    fn roles_parse_and_serialise_as_their_names() {
        assert_eq!("PSP_IC".parse::<Psd2Role>(), Ok(Psd2Role::PspIc));
        assert!("psp_ai".parse::<Psd2Role>().is_err());
        assert_eq!(
            serde_json::to_string(&Psd2Role::PspAi).unwrap(),
            "\"PSP_AI\""
        );
        assert_eq!(Psd2Role::PspAs.oid(), "0.4.0.19495.1.1");
    }
}
