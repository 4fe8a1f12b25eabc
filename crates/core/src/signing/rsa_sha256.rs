//! RSA-SHA256 (RSASSA-PKCS1-v1_5 with SHA-256), the one signature algorithm the bank names, signed and
//! verified with ring: the gate's verification and every private-key signature, in one place so that
//! known-answer tests exercise the very calls the gate and the signer make.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ring::rand::SystemRandom;
use ring::signature::{
    RsaKeyPair, RsaParameters, UnparsedPublicKey, RSA_PKCS1_2048_8192_SHA256, RSA_PKCS1_SHA256,
};
use std::sync::Arc;

/// What the gate accepts: keys of 2048 to 8192 bits. Smaller keys are refused whatever they signed.
pub static GATE: &RsaParameters = &RSA_PKCS1_2048_8192_SHA256;

/// True when `signature` is the RSA-SHA256 signature of `message` under `public_key` (PKCS#1
/// RSAPublicKey DER) with a key size the gate accepts.
pub fn verify(public_key: &[u8], message: &[u8], signature: &[u8]) -> bool {
    verify_with(GATE, public_key, message, signature)
}

/// [`verify`] with other key-size bounds: the same PKCS#1 v1.5 check, for test vectors whose key is
/// smaller than the gate allows (draft-cavage's 1024-bit test key).
pub fn verify_with(
    parameters: &'static RsaParameters,
    public_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> bool {
    UnparsedPublicKey::new(parameters, public_key)
        .verify(message, signature)
        .is_ok()
}

/// A private key that signs RSA-SHA256 with ring (RSASSA-PKCS1-v1_5 is deterministic: the same key and
/// message give the same bytes whichever library signs). ring rather than the `rsa` crate, whose
/// private-key operations carry RUSTSEC-2023-0071 (docs/signing.md). ring takes keys of 2048 to 4096
/// bits, which covers every key the gate accepts from `cert issue` and the fixtures.
#[derive(Clone)]
pub struct SigningKey(Arc<RsaKeyPair>);

impl SigningKey {
    /// Reads a PEM private key: PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`).
    pub fn from_pem(pem: &str) -> Result<Self, String> {
        let parsed = if let Some(der) = pem_block(pem, "PRIVATE KEY")? {
            RsaKeyPair::from_pkcs8(&der)
        } else if let Some(der) = pem_block(pem, "RSA PRIVATE KEY")? {
            RsaKeyPair::from_der(&der)
        } else {
            return Err(
                "the private key is not an RSA key in PEM (PKCS#8 or PKCS#1): no PRIVATE KEY block"
                    .into(),
            );
        };
        parsed.map(|pair| Self(Arc::new(pair))).map_err(|e| {
            format!(
                "the private key is not a usable RSA key (PKCS#8 or PKCS#1, 2048 to 4096 bits): {e}"
            )
        })
    }

    /// The RSA-SHA256 (PKCS#1 v1.5) signature of `message`.
    pub fn sign(&self, message: &[u8]) -> Vec<u8> {
        let mut signature = vec![0; self.0.public().modulus_len()];
        self.0
            .sign(
                &RSA_PKCS1_SHA256,
                &SystemRandom::new(),
                message,
                &mut signature,
            )
            .expect("RSA signing with a parsed key and a modulus-sized buffer does not fail");
        signature
    }

    /// The public key as PKCS#1 RSAPublicKey DER (what a certificate's SubjectPublicKeyInfo holds).
    pub fn public_key(&self) -> &[u8] {
        self.0.public().as_ref()
    }
}

/// The DER inside the first `-----BEGIN <label>-----` block, if there is one.
pub(crate) fn pem_block(pem: &str, label: &str) -> Result<Option<Vec<u8>>, String> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let Some(start) = pem.find(&begin).map(|at| at + begin.len()) else {
        return Ok(None);
    };
    let stop = pem[start..]
        .find(&end)
        .ok_or_else(|| format!("the {label} PEM block is not closed"))?
        + start;
    let body: String = pem[start..stop]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    STANDARD
        .decode(body)
        .map(Some)
        .map_err(|e| format!("the {label} PEM block is not valid base64: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE_KEY: &str = include_str!("../../../../fixtures/certs/aisp-pisp/key.pem");

    #[test]
    fn a_signature_verifies_and_is_the_same_each_time() {
        let key = SigningKey::from_pem(FIXTURE_KEY).unwrap();
        let signature = key.sign(b"date: today");
        assert_eq!(signature.len(), 256);
        assert_eq!(
            key.sign(b"date: today"),
            signature,
            "PKCS#1 v1.5 is deterministic"
        );
        assert!(verify(key.public_key(), b"date: today", &signature));
        assert!(!verify(key.public_key(), b"date: tomorrow", &signature));
    }

    #[test]
    fn keys_that_are_not_usable_rsa_keys_are_refused_with_the_reason() {
        assert!(SigningKey::from_pem("nonsense")
            .err()
            .unwrap()
            .contains("no PRIVATE KEY block"));
        let truncated = FIXTURE_KEY.replace("-----END PRIVATE KEY-----", "");
        assert!(SigningKey::from_pem(&truncated)
            .err()
            .unwrap()
            .contains("not closed"));
        // draft-cavage's 1024-bit PKCS#1 test key: below what ring signs with (and the gate accepts).
        let small = "-----BEGIN RSA PRIVATE KEY-----
MIICXgIBAAKBgQDCFENGw33yGihy92pDjZQhl0C36rPJj+CvfSC8+q28hxA161QF
NUd13wuCTUcq0Qd2qsBe/2hFyc2DCJJg0h1L78+6Z4UMR7EOcpfdUE9Hf3m/hs+F
UR45uBJeDK1HSFHD8bHKD6kv8FPGfJTotc+2xjJwoYi+1hqp1fIekaxsyQIDAQAB
AoGBAJR8ZkCUvx5kzv+utdl7T5MnordT1TvoXXJGXK7ZZ+UuvMNUCdN2QPc4sBiA
QWvLw1cSKt5DsKZ8UETpYPy8pPYnnDEz2dDYiaew9+xEpubyeW2oH4Zx71wqBtOK
kqwrXa/pzdpiucRRjk6vE6YY7EBBs/g7uanVpGibOVAEsqH1AkEA7DkjVH28WDUg
f1nqvfn2Kj6CT7nIcE3jGJsZZ7zlZmBmHFDONMLUrXR/Zm3pR5m0tCmBqa5RK95u
412jt1dPIwJBANJT3v8pnkth48bQo/fKel6uEYyboRtA5/uHuHkZ6FQF7OUkGogc
mSJluOdc5t6hI1VsLn0QZEjQZMEOWr+wKSMCQQCC4kXJEsHAve77oP6HtG/IiEn7
kpyUXRNvFsDE0czpJJBvL/aRFUJxuRK91jhjC68sA7NsKMGg5OXb5I5Jj36xAkEA
gIT7aFOYBFwGgQAQkWNKLvySgKbAZRTeLBacpHMuQdl1DfdntvAyqpAZ0lY0RKmW
G6aFKaqQfOXKCyWoUiVknQJAXrlgySFci/2ueKlIE1QqIiLSZ8V8OlpFLRnb1pzI
7U1yQXnTAEFYM560yJlzUpOb1V4cScGd365tiSMvxLOvTA==
-----END RSA PRIVATE KEY-----";
        let error = SigningKey::from_pem(small).err().unwrap();
        assert!(error.contains("2048 to 4096 bits"), "{error}");
    }
}
