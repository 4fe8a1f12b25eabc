//! The sandbox's tolerances: everything it accepts with a WARNING because production differs, in one
//! list. Each site that tolerates something (mostly the signature gate, `signing::verifier`) names its
//! [`Tolerance`] and records it as [`Tolerated`]; `rehearsal::tolerance::judge` decides, by the profile,
//! whether that is the WARNING or the refusal production gives. The vocabulary lives here, below both the
//! gate and the rehearsal, so that neither reaches into the other. The table of tolerances in
//! docs/rehearsal.md is checked against [`Tolerance::ALL`] (`tests/api/rehearsal_tolerances.rs`).

use crate::domain::refusal::{Code, TppMessage};

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
    /// The Signature's algorithm written otherwise than `rsa-sha256` (`RSA-SHA256`, `hs2019`, `SHA-256`).
    AlgorithmName,
    /// Signed header names not in lower case in the Signature's headers part.
    SignedHeaderNameCase,
    /// A header the interface asks to sign when present (PSU-ID, TPP-Redirect-URI, ...) sent unsigned.
    UnsignedOptionalHeader,
    /// A signed header outside SPEC's candidates (`accept`, `psu-ip-address`, `content-type`): Berlin
    /// Group allows no other entries in the headers part.
    SignedHeaderBeyondCandidates,
    /// The mock-data API (`/v1/sandbox/*`) and its shortcuts, each answered with a WARNING: a wrong
    /// check digit, a repeated balance type, the platform kit's number amounts and lower-case enums.
    /// Production has no such API; the operator's own calls (the workbench token) keep it under the
    /// production profile, so that a rehearsal can be staged.
    MockDataApi,
}

impl Tolerance {
    /// Every tolerance, in the order of docs/rehearsal.md's table.
    pub const ALL: [Tolerance; 9] = [
        Tolerance::KeyIdIssuerSpelling,
        Tolerance::KeyIdSerialSpelling,
        Tolerance::RawSignatureBytes,
        Tolerance::PemArmouredCertificate,
        Tolerance::AlgorithmName,
        Tolerance::SignedHeaderNameCase,
        Tolerance::UnsignedOptionalHeader,
        Tolerance::SignedHeaderBeyondCandidates,
        Tolerance::MockDataApi,
    ];

    /// The stable id (docs/rehearsal.md, the traffic log).
    pub fn id(self) -> &'static str {
        match self {
            Tolerance::KeyIdIssuerSpelling => "key-id-issuer-spelling",
            Tolerance::KeyIdSerialSpelling => "key-id-serial-spelling",
            Tolerance::RawSignatureBytes => "raw-signature-bytes",
            Tolerance::PemArmouredCertificate => "pem-armoured-certificate",
            Tolerance::AlgorithmName => "algorithm-name",
            Tolerance::SignedHeaderNameCase => "signed-header-name-case",
            Tolerance::UnsignedOptionalHeader => "unsigned-optional-header",
            Tolerance::SignedHeaderBeyondCandidates => "signed-header-beyond-candidates",
            Tolerance::MockDataApi => "mock-data-api",
        }
    }

    /// What the sandbox profile accepts (with a WARNING).
    pub fn sandbox(self) -> &'static str {
        match self {
            Tolerance::KeyIdIssuerSpelling => "keyId CA naming the issuer in another spelling (`S=` for `ST=`, other order, spaces, `%20`, quotes, organizationIdentifier left out)",
            Tolerance::KeyIdSerialSpelling => "keyId SN written in lower-case hex, with leading zeros, or in decimal",
            Tolerance::RawSignatureBytes => "raw ISO-8859-1 or UTF-8 bytes in the Signature header (as the platform's signing proxy sends `L=Tromsø`)",
            Tolerance::PemArmouredCertificate => "TPP-Signature-Certificate with PEM armour",
            Tolerance::AlgorithmName => "algorithm `RSA-SHA256`, `hs2019`, `SHA256withRSA` or `SHA-256` for an RSA key",
            Tolerance::SignedHeaderNameCase => "signed header names not in lower case",
            Tolerance::UnsignedOptionalHeader => "a header the interface asks to sign when present (PSU-ID, TPP-Redirect-URI, ...) left unsigned",
            Tolerance::SignedHeaderBeyondCandidates => "a signed header outside the candidates (date, digest, x-request-id, psu-id, psu-corporate-id, tpp-redirect-uri), such as `accept` or `psu-ip-address`",
            Tolerance::MockDataApi => "the mock-data API `/v1/sandbox/*` and its shortcuts: a wrong check digit, a repeated balance type, the platform kit's number amounts and lower-case enums",
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
            Tolerance::SignedHeaderBeyondCandidates => {
                "refuses the request (Berlin Group: no other entries may be included)"
            }
            Tolerance::MockDataApi => "has no mock-data API: `/v1/sandbox/*` is an unknown path to TPPs (the operator's own calls, with the workbench token, keep it to stage a rehearsal)",
        }
    }

    /// The code production refuses with (its status follows from it, `Code::status`).
    pub fn refusal_code(self) -> Code {
        match self {
            Tolerance::RawSignatureBytes | Tolerance::PemArmouredCertificate => Code::FormatError,
            Tolerance::KeyIdIssuerSpelling
            | Tolerance::KeyIdSerialSpelling
            | Tolerance::AlgorithmName
            | Tolerance::SignedHeaderNameCase
            | Tolerance::UnsignedOptionalHeader
            | Tolerance::SignedHeaderBeyondCandidates => Code::BadRequest,
            Tolerance::MockDataApi => Code::NotFound,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<_> = Tolerance::ALL.iter().map(|t| t.id()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), Tolerance::ALL.len());
    }
}
