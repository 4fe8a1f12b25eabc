//! The sandbox's tolerances: everything it accepts with a WARNING because production differs, in one
//! list. Each site that tolerates something names its [`Tolerance`]; [`judge`] turns the warning into
//! the WARNING (sandbox profile) or the refusal production gives (production profile). The README's
//! table of tolerances is checked against [`Tolerance::ALL`] (`tests/api/rehearsal_tolerances.rs`).

use super::Profile;
use crate::refusal::{truncate_text, Code, Refusal, TppMessage};

/// One thing the sandbox accepts and production refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tolerance {
    /// keyId's CA part names the issuer in another spelling: `S=` for `ST=`, another order, spaces,
    /// escapes, quotes, the issuer's organizationIdentifier left out.
    KeyIdIssuerSpelling,
    /// keyId's SN writes the certificate's serial differently (lower-case hex, leading zeros, decimal).
    KeyIdSerialSpelling,
    /// The Signature header carries raw ISO-8859-1/UTF-8 bytes instead of the RFC 2047 wrapper.
    RawSignatureBytes,
    /// TPP-Signature-Certificate sent with PEM armour instead of the plain base64 of the DER.
    PemArmouredCertificate,
    /// The Signature's algorithm written otherwise than `rsa-sha256` (`RSA-SHA256`, `hs2019`).
    AlgorithmName,
    /// Signed header names not in lower case in the Signature's headers part.
    SignedHeaderNameCase,
    /// A header the interface asks to sign when present (PSU-ID, TPP-Redirect-URI, ...) sent unsigned.
    UnsignedOptionalHeader,
}

impl Tolerance {
    /// Every tolerance, in the README's order.
    pub const ALL: [Tolerance; 7] = [
        Tolerance::KeyIdIssuerSpelling,
        Tolerance::KeyIdSerialSpelling,
        Tolerance::RawSignatureBytes,
        Tolerance::PemArmouredCertificate,
        Tolerance::AlgorithmName,
        Tolerance::SignedHeaderNameCase,
        Tolerance::UnsignedOptionalHeader,
    ];

    /// The stable id (README, traffic log, docs/rehearsal.md).
    pub fn id(self) -> &'static str {
        match self {
            Tolerance::KeyIdIssuerSpelling => "key-id-issuer-spelling",
            Tolerance::KeyIdSerialSpelling => "key-id-serial-spelling",
            Tolerance::RawSignatureBytes => "raw-signature-bytes",
            Tolerance::PemArmouredCertificate => "pem-armoured-certificate",
            Tolerance::AlgorithmName => "algorithm-name",
            Tolerance::SignedHeaderNameCase => "signed-header-name-case",
            Tolerance::UnsignedOptionalHeader => "unsigned-optional-header",
        }
    }

    /// What the sandbox profile accepts (with a WARNING).
    pub fn sandbox(self) -> &'static str {
        match self {
            Tolerance::KeyIdIssuerSpelling => "keyId CA naming the issuer in another spelling (`S=` for `ST=`, other order, spaces, `%20`, quotes, organizationIdentifier left out)",
            Tolerance::KeyIdSerialSpelling => "keyId SN written in lower-case hex, with leading zeros, or in decimal",
            Tolerance::RawSignatureBytes => "raw ISO-8859-1 or UTF-8 bytes in the Signature header (as the platform's signing proxy sends `L=Tromsø`)",
            Tolerance::PemArmouredCertificate => "TPP-Signature-Certificate with PEM armour",
            Tolerance::AlgorithmName => "algorithm `RSA-SHA256`, `hs2019` or `SHA256withRSA` for an RSA key",
            Tolerance::SignedHeaderNameCase => "signed header names not in lower case",
            Tolerance::UnsignedOptionalHeader => "a header the interface asks to sign when present (PSU-ID, TPP-Redirect-URI, ...) left unsigned",
        }
    }

    /// What the production profile does.
    pub fn production(self) -> &'static str {
        match self {
            Tolerance::KeyIdIssuerSpelling | Tolerance::KeyIdSerialSpelling => {
                "compares keyId with the certificate byte for byte and refuses any other spelling"
            }
            Tolerance::RawSignatureBytes => "refuses header bytes outside ASCII",
            Tolerance::PemArmouredCertificate => "refuses anything but the base64 of the DER",
            Tolerance::AlgorithmName => "refuses any algorithm name but `rsa-sha256`",
            Tolerance::SignedHeaderNameCase => "refuses signed header names not in lower case",
            Tolerance::UnsignedOptionalHeader => "refuses the request",
        }
    }

    /// The code production refuses with (the status follows from it, `api::error::status_of`).
    pub fn refusal_code(self) -> Code {
        match self {
            Tolerance::RawSignatureBytes | Tolerance::PemArmouredCertificate => Code::FormatError,
            Tolerance::KeyIdIssuerSpelling
            | Tolerance::KeyIdSerialSpelling
            | Tolerance::AlgorithmName
            | Tolerance::SignedHeaderNameCase
            | Tolerance::UnsignedOptionalHeader => Code::BadRequest,
        }
    }
}

/// Something accepted under a tolerance: which one, and the WARNING the sandbox profile answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tolerated {
    pub tolerance: Tolerance,
    pub warning: TppMessage,
}

impl Tolerated {
    pub fn new(tolerance: Tolerance, code: Code, path: &str, text: impl Into<String>) -> Self {
        Tolerated {
            tolerance,
            warning: TppMessage::warning(code, Some(path), text),
        }
    }
}

/// The one place a tolerance is decided: under the sandbox profile the WARNING, under production the
/// refusal production gives, whose text says that the sandbox profile accepts it.
pub fn judge(profile: Profile, tolerated: &Tolerated) -> Result<TppMessage, Refusal> {
    match profile {
        Profile::Sandbox => Ok(tolerated.warning.clone()),
        Profile::Production => {
            let said = tolerated.warning.text.as_deref().unwrap_or_default();
            Err(Refusal::new(
                tolerated.tolerance.refusal_code(),
                tolerated.warning.path.as_deref(),
                truncate_text(format!(
                    "Refused under the production profile ({}): {said} The sandbox profile accepts it.",
                    tolerated.tolerance.id()
                )),
            ))
        }
    }
}

/// Judges every tolerated thing of one request: the WARNINGs to answer with, or the first refusal.
pub fn judge_all(profile: Profile, tolerated: &[Tolerated]) -> Result<Vec<TppMessage>, Refusal> {
    tolerated.iter().map(|t| judge(profile, t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tolerated() -> Tolerated {
        Tolerated::new(
            Tolerance::PemArmouredCertificate,
            Code::FormatError,
            "TPP-Signature-Certificate",
            "came with PEM armour.",
        )
    }

    #[test]
    fn the_sandbox_profile_answers_the_warning() {
        assert_eq!(
            judge(Profile::Sandbox, &tolerated()),
            Ok(tolerated().warning)
        );
    }

    #[test]
    fn the_production_profile_refuses_and_says_the_sandbox_accepts_it() {
        let refusal = judge(Profile::Production, &tolerated()).unwrap_err();
        assert_eq!(refusal.code, Code::FormatError);
        assert_eq!(refusal.path.as_deref(), Some("TPP-Signature-Certificate"));
        assert!(refusal.text.contains("came with PEM armour."));
        assert!(refusal.text.ends_with("The sandbox profile accepts it."));
    }

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<_> = Tolerance::ALL.iter().map(|t| t.id()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), Tolerance::ALL.len());
    }
}
