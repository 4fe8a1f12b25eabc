//! RSA-SHA256 (RSASSA-PKCS1-v1_5 with SHA-256), the one signature algorithm SPEC.md names: the gate's
//! verification, in one place so that known-answer tests exercise the very call the gate makes.

use ring::signature::{RsaParameters, UnparsedPublicKey, RSA_PKCS1_2048_8192_SHA256};

/// What the gate accepts: keys of 2048 to 8192 bits. Smaller keys are refused whatever they signed.
pub const GATE: &RsaParameters = &RSA_PKCS1_2048_8192_SHA256;

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
