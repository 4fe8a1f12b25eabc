//! The PSD2 QCStatement (ETSI TS 119 495) carried in a TPP's eIDAS certificate: which roles the TPP was
//! authorised for (PSP_AS, PSP_PI, PSP_AI, PSP_IC) and by which national competent authority. This module
//! encodes the QCStatements extension value for issued test certificates and finds the PSD2 statement in
//! certificates presented by TPPs, reading and writing DER with asn1-rs (which x509-parser brings) and
//! naming in each complaint the part of the statement that is wrong, for the TPP developer.

use std::fmt;
use std::str::FromStr;

use asn1_rs::{Any, Class, FromDer, Oid, Sequence, Tag, ToDer};
use serde::{Deserialize, Serialize};

use super::der_text::string_text;

/// OID of the QCStatements certificate extension (RFC 3739), where the PSD2 statement lives.
pub const QC_STATEMENTS_EXTENSION_OID: &str = "1.3.6.1.5.5.7.1.3";
/// Same OID as arcs, for certificate writers.
pub const QC_STATEMENTS_EXTENSION_ARCS: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 1, 3];

const QC_COMPLIANCE: &[u64] = &[0, 4, 0, 1862, 1, 1];
const QC_TYPE: &[u64] = &[0, 4, 0, 1862, 1, 6];
const QC_TYPE_ESEAL: &[u64] = &[0, 4, 0, 1862, 1, 6, 2];
const PSD2_STATEMENT_ARCS: &[u64] = &[0, 4, 0, 19495, 2];
/// DER content bytes of 0.4.0.19495.2 (the PSD2 statement) and of 0.4.0.19495.1 (the arc under which the
/// roles are numbered): identifiers read from a certificate are compared as bytes, not decoded into text.
const PSD2_STATEMENT_DER: [u8; 6] = [0x04, 0x00, 0x81, 0x98, 0x27, 0x02];
const PSD2_ROLE_ARC_DER: [u8; 6] = [0x04, 0x00, 0x81, 0x98, 0x27, 0x01];

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

    /// The role a roleOfPspOid names (compared as DER bytes, without decoding the identifier).
    fn from_oid(oid: &Oid) -> Option<Self> {
        let (arc, last) = oid.as_bytes().split_at_checked(PSD2_ROLE_ARC_DER.len())?;
        match last {
            [last] if arc == PSD2_ROLE_ARC_DER => Self::ALL
                .into_iter()
                .find(|r| r.oid_arcs()[5] == u64::from(*last)),
            _ => None,
        }
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
    let compliance = sequence(&[oid(QC_COMPLIANCE)]);
    let qc_type = sequence(&[oid(QC_TYPE), sequence(&[oid(QC_TYPE_ESEAL)])]);
    let roles: Vec<Vec<u8>> = attributes
        .roles
        .iter()
        .map(|r| sequence(&[oid(&r.oid_arcs()), utf8(r.as_str())]))
        .collect();
    let psd2_type = sequence(&[
        sequence(&roles),
        utf8(&attributes.nca_name),
        utf8(&attributes.nca_id),
    ]);
    let psd2 = sequence(&[oid(PSD2_STATEMENT_ARCS), psd2_type]);
    sequence(&[compliance, qc_type, psd2])
}

/// Writing to a vector does not fail, and the arcs and texts here are valid.
const WRITES: &str = "DER of a valid value is written to memory";

fn sequence(items: &[Vec<u8>]) -> Vec<u8> {
    Sequence::new(items.concat().into())
        .to_der_vec()
        .expect(WRITES)
}

fn oid(arcs: &[u64]) -> Vec<u8> {
    Oid::from(arcs).expect(WRITES).to_der_vec().expect(WRITES)
}

fn utf8(text: &str) -> Vec<u8> {
    text.to_der_vec().expect(WRITES)
}

/// Finds the PSD2 statement in a QCStatements extension value. `Ok(None)` when the certificate has
/// QCStatements but no PSD2 statement (a qualified certificate, but not one for PSD2).
///
/// A role is accepted when either its OID or its name is known, because issuers in the wild get one of the
/// two wrong; a known OID paired with a different known name is refused, since we cannot tell which is meant.
pub fn decode_psd2(ext_value: &[u8]) -> Result<Option<Psd2Attributes>, String> {
    let mut outer = ext_value;
    let statements = next(&mut outer, Tag::Sequence, "QCStatements")?;
    if !outer.is_empty() {
        return Err(format!(
            "QCStatements: {} unexpected bytes after the value",
            outer.len()
        ));
    }
    let mut statements = statements.data;
    while !statements.is_empty() {
        let mut statement = next(&mut statements, Tag::Sequence, "QCStatement")?.data;
        let id = next_oid(&mut statement, "QCStatement statementId")?;
        if id.as_bytes() != PSD2_STATEMENT_DER {
            continue;
        }
        let info = next(&mut statement, Tag::Sequence, "PSD2QcType")?;
        return decode_psd2_type(info.data).map(Some);
    }
    Ok(None)
}

fn decode_psd2_type(info: &[u8]) -> Result<Psd2Attributes, String> {
    let mut info = info;
    let mut role_list = next(&mut info, Tag::Sequence, "PSD2 rolesOfPSP")?.data;
    let mut roles = Vec::new();
    while !role_list.is_empty() {
        let mut role = next(&mut role_list, Tag::Sequence, "PSD2 roleOfPSP")?.data;
        let oid = next_oid(&mut role, "PSD2 roleOfPspOid")?;
        let name = next_string(&mut role, "PSD2 roleOfPspName")?;
        let by_oid = Psd2Role::from_oid(&oid);
        let by_name = name.parse::<Psd2Role>().ok();
        let accepted = match (by_oid, by_name) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "PSD2 role OID {} means {a} but its roleOfPspName says {name}; the certificate contradicts itself",
                    oid.to_id_string()
                ))
            }
            (Some(r), _) | (None, Some(r)) => r,
            (None, None) => continue,
        };
        if !roles.contains(&accepted) {
            roles.push(accepted);
        }
    }
    let nca_name = next_string(&mut info, "PSD2 nCAName")?;
    let nca_id = next_string(&mut info, "PSD2 nCAId")?;
    Ok(Psd2Attributes {
        roles,
        nca_name,
        nca_id,
    })
}

/// Takes the next DER value off `input`; it must be the universal type `tag`. `what` names the part of
/// the statement in the complaint.
fn next<'a>(input: &mut &'a [u8], tag: Tag, what: &str) -> Result<Any<'a>, String> {
    let value = next_any(input, what)?;
    if value.class() != Class::Universal || value.tag() != tag {
        return Err(format!("{what}: expected {tag}, found {}", value.tag()));
    }
    Ok(value)
}

fn next_any<'a>(input: &mut &'a [u8], what: &str) -> Result<Any<'a>, String> {
    let (rest, value) = Any::from_der(input).map_err(|error| match error {
        asn1_rs::Err::Incomplete(_) => format!("{what}: DER ends early"),
        asn1_rs::Err::Error(e) | asn1_rs::Err::Failure(e) => format!("{what}: {e}"),
    })?;
    *input = rest;
    Ok(value)
}

/// The next value as an OBJECT IDENTIFIER.
fn next_oid<'a>(input: &mut &'a [u8], what: &str) -> Result<Oid<'a>, String> {
    let value = next(input, Tag::Oid, what)?;
    // asn1-rs takes the bytes as they are; an empty or cut-off identifier is named here.
    if value.data.last().is_none_or(|last| last & 0x80 != 0) {
        return Err(format!("{what}: the OBJECT IDENTIFIER is empty or cut off"));
    }
    Oid::try_from(value).map_err(|e| format!("{what}: {e}"))
}

fn next_string(input: &mut &[u8], what: &str) -> Result<String, String> {
    string_text(&next_any(input, what)?).map_err(|e| format!("{what}: {e}"))
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
            oid(PSD2_STATEMENT_ARCS),
            [0x06, 0x06, 0x04, 0x00, 0x81, 0x98, 0x27, 0x02]
        );
        assert_eq!(
            oid(QC_COMPLIANCE),
            [0x06, 0x06, 0x04, 0x00, 0x8e, 0x46, 0x01, 0x01]
        );
        let mut bytes = &[0x06, 0x06, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d][..];
        assert_eq!(
            next_oid(&mut bytes, "x").unwrap().to_id_string(),
            "1.2.840.113549"
        );
        assert_eq!(oid(PSD2_STATEMENT_ARCS)[2..], PSD2_STATEMENT_DER);
        for role in Psd2Role::ALL {
            let der = oid(&role.oid_arcs());
            assert_eq!(der[2..8], PSD2_ROLE_ARC_DER);
            let parsed = next_oid(&mut &der[..], "role").unwrap();
            assert_eq!(Psd2Role::from_oid(&parsed), Some(role));
            assert_eq!(parsed.to_id_string(), role.oid());
        }
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
        let value = sequence(&[sequence(&[oid(QC_COMPLIANCE)])]);
        assert_eq!(decode_psd2(&value).unwrap(), None);
    }

    fn with_role(oid: &[u64], name: &str) -> Vec<u8> {
        let role = sequence(&[super::oid(oid), utf8(name)]);
        let info = sequence(&[sequence(&[role]), utf8("FSA"), utf8("NO-FSA")]);
        sequence(&[sequence(&[super::oid(PSD2_STATEMENT_ARCS), info])])
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
        assert!(next_oid(&mut &[0x06, 0x02, 0x2a, 0x86][..], "x").is_err());
        let wrong_tag = decode_psd2(&sequence(&[utf8("x")])).unwrap_err();
        assert_eq!(
            wrong_tag,
            "QCStatement: expected Sequence, found Utf8String"
        );
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
