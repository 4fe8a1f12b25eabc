//! A certificate subject written as text (`CN=Testbank CA,O=Testbank ASA,L=Tromsø,ST=Troms,C=NO,
//! organizationIdentifier=NTRNO-123456789`), for `xs2a-sandbox cert ca --subject`: testers mirror their
//! production CA, whose issuer name (non-ASCII letters, ST, organizationIdentifier) is exactly what TPP
//! signing code gets wrong. Read like the CA part of a keyId (RFC 2253, most specific first, the usual
//! spellings), written in certificate order (most general first).

use super::distinguished_name::AttributeKind;
use super::key_id::written::parse_key_id_ca;
use rcgen::string::PrintableString;
use rcgen::{DistinguishedName, DnType, DnValue};

/// The rcgen name for a subject written as RFC 2253 text. Country codes are PrintableStrings (RFC 5280);
/// every other value is a UTF8String, so letters such as ø survive.
pub fn parse_subject(text: &str) -> Result<DistinguishedName, String> {
    let attributes = parse_key_id_ca(text).map_err(|e| format!("the subject '{text}': {e}"))?;
    let mut name = DistinguishedName::new();
    for attribute in attributes.iter().rev() {
        let oid: Vec<u64> = attribute
            .kind
            .oid()
            .split('.')
            .map(|arc| arc.parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("'{}' has no usable OID", attribute.kind.label()))?;
        let value = if attribute.kind == AttributeKind::C {
            let code = attribute.value.as_str();
            if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
                return Err(format!(
                    "C={code} is not a country code (two upper-case letters, ISO 3166, e.g. NO)"
                ));
            }
            DnValue::PrintableString(PrintableString::try_from(code).map_err(|e| e.to_string())?)
        } else {
            DnValue::Utf8String(attribute.value.clone())
        };
        name.push(DnType::from_oid(&oid), value);
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_subject_is_kept_in_certificate_order() {
        let name = parse_subject(
            "CN=Testbank CA,O=Testbank ASA,L=Tromsø,ST=Troms,C=NO,organizationIdentifier=NTRNO-123456789",
        )
        .unwrap();
        let types: Vec<String> = name.iter().map(|(t, _)| format!("{t:?}")).collect();
        assert_eq!(types.len(), 6);
        assert!(types[0].contains("2, 5, 4, 97"), "{types:?}");
        assert!(types[5].contains("CommonName"), "{types:?}");
        assert!(parse_subject("CN=x,C=Norway").is_err());
        assert!(parse_subject("XYZ=1").is_err());
    }
}
