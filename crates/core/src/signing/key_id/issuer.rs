//! Whether the CA part of a keyId names the certificate's issuer, and how far it strays from the RFC 2253
//! form production may compare byte for byte: each deviation is worded as a warning.

use super::written::{parse_written, Written};
use crate::domain::refusal::truncate_text;
use crate::signing::distinguished_name::{Attribute, DistinguishedName};

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
            return IssuerMatch::Mismatch(truncate_text(format!(
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
            return IssuerMatch::Mismatch(truncate_text(format!(
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
            return IssuerMatch::Mismatch(truncate_text(format!(
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
    IssuerMatch::Tolerated(warnings.into_iter().map(truncate_text).collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::distinguished_name::test_names::*;
    use crate::signing::distinguished_name::AttributeKind::*;

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
    fn unreadable_text_is_a_mismatch_that_shows_the_expected_form() {
        let m = mismatch("CN=a,,O=b", &test_ca());
        assert!(
            m.contains("cannot be read")
                && m.contains("CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO"),
            "{m}"
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
}
