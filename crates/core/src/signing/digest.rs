//! The Digest header (RFC 3230 / RFC 5843): `SHA-256=<base64>` or `SHA-512=<base64>` of the body bytes.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use sha2::{Digest as _, Sha256, Sha512};

/// Why a Digest header was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DigestProblem {
    /// Not `ALGORITHM=base64`, or an algorithm other than SHA-256 / SHA-512.
    Malformed(String),
    /// Well formed, but no listed digest matches the body.
    Mismatch { expected: String },
}

/// Checks a Digest header against the body. Several comma-separated digests are allowed (RFC 3230);
/// one matching digest of a supported algorithm suffices, and every listed one must be well formed.
pub fn verify(header: &str, body: &[u8]) -> Result<(), DigestProblem> {
    let mut first_algorithm = None;
    let mut matched = false;
    for entry in header.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let (algorithm, value) = entry.split_once('=').ok_or_else(|| {
            DigestProblem::Malformed(format!(
                "Digest must have the form SHA-256=<base64 of the body hash>; got '{entry}'"
            ))
        })?;
        let algorithm = algorithm.trim().to_ascii_uppercase();
        let expected = compute_named(&algorithm, body).ok_or_else(|| {
            DigestProblem::Malformed(format!(
                "Digest algorithm '{algorithm}' is not supported; use SHA-256 or SHA-512"
            ))
        })?;
        let given = STANDARD.decode(value.trim()).map_err(|_| {
            DigestProblem::Malformed(format!(
                "the {algorithm} value in Digest is not valid base64"
            ))
        })?;
        first_algorithm.get_or_insert(algorithm);
        matched |= given
            == STANDARD
                .decode(&expected[expected.find('=').unwrap() + 1..])
                .unwrap();
    }
    match (first_algorithm, matched) {
        (None, _) => Err(DigestProblem::Malformed(
            "the Digest header is empty".into(),
        )),
        (Some(_), true) => Ok(()),
        (Some(algorithm), false) => Err(DigestProblem::Mismatch {
            expected: compute_named(&algorithm, body).expect("algorithm checked above"),
        }),
    }
}

fn compute_named(algorithm: &str, body: &[u8]) -> Option<String> {
    match algorithm {
        "SHA-256" => Some(format!("SHA-256={}", STANDARD.encode(Sha256::digest(body)))),
        "SHA-512" => Some(format!("SHA-512={}", STANDARD.encode(Sha512::digest(body)))),
        _ => None,
    }
}

/// `SHA-256=<base64>` of the body (the TPP side, and response signing).
pub fn sha256(body: &[u8]) -> String {
    compute_named("SHA-256", body).expect("SHA-256 is supported")
}

/// `SHA-512=<base64>` of the body.
pub fn sha512(body: &[u8]) -> String {
    compute_named("SHA-512", body).expect("SHA-512 is supported")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_and_sha512_of_the_body_verify() {
        let body = br#"{"a":1}"#;
        assert_eq!(verify(&sha256(body), body), Ok(()));
        assert_eq!(verify(&sha512(body), body), Ok(()));
        assert_eq!(
            verify(&sha256(body).replace("SHA-256", "sha-256"), body),
            Ok(())
        );
    }

    #[test]
    fn the_empty_body_has_the_well_known_digest() {
        assert_eq!(
            sha256(b""),
            "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }

    /// Known answers, not computed by this crate: each expected value was computed with both
    /// `printf '%s' BODY | openssl dgst -sha256 -binary | base64` (and `-sha512`) and Python's
    /// `base64.b64encode(hashlib.sha256(BODY).digest())` (OpenSSL 3.0.19, Python 3.11), which agreed.
    /// The first body is draft-cavage-http-signatures' test request body (its Digest is printed there too).
    const KNOWN: [(&str, &str, &str); 2] = [
        (
            r#"{"hello": "world"}"#,
            "SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=",
            "SHA-512=WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==",
        ),
        (
            // UTF-8 on the wire: "æ" is the two bytes C3 A6.
            r#"{"creditorName":"Bærum Kommune","instructedAmount":{"currency":"NOK","amount":"1250.00"}}"#,
            "SHA-256=qV2WwkafU+MInof43ET2fie+begpg1vIMxO5ERAq+ic=",
            "SHA-512=Jr8XQzhKCVGYUJH8Mlfbg1awETEh5/bEVVFxBhRaYa8wcazkhXRPQI3mYlZh0ouZ0vnKq1aziPZD4Bldxi1+9A==",
        ),
    ];

    #[test]
    fn digests_of_fixed_bodies_are_the_independently_computed_values() {
        for (body, sha_256, sha_512) in KNOWN {
            assert_eq!(sha256(body.as_bytes()), sha_256, "SHA-256 of {body}");
            assert_eq!(sha512(body.as_bytes()), sha_512, "SHA-512 of {body}");
            assert_eq!(verify(sha_256, body.as_bytes()), Ok(()));
            assert_eq!(verify(sha_512, body.as_bytes()), Ok(()));
        }
    }

    #[test]
    fn a_known_digest_is_refused_for_a_body_one_byte_off() {
        let (body, sha_256, sha_512) = KNOWN[0];
        let changed = body.replace("world", "World");
        assert!(matches!(
            verify(sha_256, changed.as_bytes()),
            Err(DigestProblem::Mismatch { .. })
        ));
        assert!(matches!(
            verify(sha_512, changed.as_bytes()),
            Err(DigestProblem::Mismatch { .. })
        ));
    }

    #[test]
    fn a_digest_of_other_bytes_is_a_mismatch_naming_the_expected_value() {
        let problem = verify(&sha256(b"other"), b"body").unwrap_err();
        assert_eq!(
            problem,
            DigestProblem::Mismatch {
                expected: sha256(b"body")
            }
        );
    }

    #[test]
    fn unknown_algorithms_and_bad_base64_are_malformed() {
        assert!(matches!(
            verify("MD5=abc", b""),
            Err(DigestProblem::Malformed(_))
        ));
        assert!(matches!(
            verify("SHA-256=***", b""),
            Err(DigestProblem::Malformed(_))
        ));
        assert!(matches!(
            verify("SHA-256", b""),
            Err(DigestProblem::Malformed(_))
        ));
    }

    #[test]
    fn one_matching_digest_among_several_suffices() {
        let header = format!("{},{}", sha512(b"x"), sha256(b"body"));
        assert_eq!(verify(&header, b"body"), Ok(()));
    }
}
