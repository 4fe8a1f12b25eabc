//! The gate's steps as one table, in the order the verifier runs them: what each checks (in the
//! interface's words), the header it reads and the codes its refusals carry. The verifier runs one
//! function per row and refuses only with the row's codes; the traffic log's verdicts and the
//! workbench's description of the gate read the same rows, so none of them can drift from the others.

use crate::domain::refusal::Code;

/// A step of the check, named in refusals and in `xs2a-sandbox verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    RequiredHeaders,
    Date,
    Certificate,
    SignatureHeader,
    KeyId,
    Algorithm,
    SignedHeaders,
    Digest,
    Signature,
}

/// One row of the table.
#[derive(Debug)]
pub struct StepDefinition {
    pub step: Step,
    /// A stable identifier for APIs (kebab-case).
    pub id: &'static str,
    /// The name refusals ("failed at step 'date'") and the traffic log use.
    pub name: &'static str,
    /// What the step checks, in the interface's words.
    pub checks: &'static str,
    /// The header the step reads, if one.
    pub header: Option<&'static str>,
    /// The codes a refusal at this step carries (every refusal of the gate is 400).
    pub refusal_codes: &'static [Code],
}

/// The steps in the order the verifier runs them (and in the order of [`Step`]).
pub const STEPS: [StepDefinition; 9] = [
    StepDefinition {
        step: Step::RequiredHeaders,
        id: "required-headers",
        name: "required headers",
        checks: "Every request is signed: it carries X-Request-ID, Date, TPP-Signature-Certificate and Signature, and a Digest when it has a body.",
        header: None,
        refusal_codes: &[Code::HttpHeaderRequired, Code::FormatError],
    },
    StepDefinition {
        step: Step::Date,
        id: "date",
        name: "date",
        checks: "The Date header is an RFC 7231 date at most 60 seconds from the bank's clock.",
        header: Some("Date"),
        refusal_codes: &[Code::FormatError, Code::BadRequest],
    },
    StepDefinition {
        step: Step::Certificate,
        id: "certificate",
        name: "certificate",
        checks: "TPP-Signature-Certificate is the base64 eIDAS certificate that signed the request, issued by a trusted CA, valid now, with PSD2 roles.",
        header: Some("TPP-Signature-Certificate"),
        refusal_codes: &[Code::FormatError, Code::BadRequest],
    },
    StepDefinition {
        step: Step::SignatureHeader,
        id: "signature-header",
        name: "signature header",
        checks: "The Signature header holds keyId, algorithm, headers and signature, each key=\"value\", joined by commas.",
        header: Some("Signature"),
        refusal_codes: &[Code::FormatError],
    },
    StepDefinition {
        step: Step::KeyId,
        id: "key-id",
        name: "keyId",
        checks: "keyId is SN=<upper-case hex serial>,CA=<issuer DN per RFC 2253> of the signing certificate.",
        header: Some("Signature"),
        refusal_codes: &[Code::FormatError, Code::BadRequest],
    },
    StepDefinition {
        step: Step::Algorithm,
        id: "algorithm",
        name: "algorithm",
        checks: "algorithm names the certificate's algorithm, rsa-sha256.",
        header: Some("Signature"),
        refusal_codes: &[Code::BadRequest],
    },
    StepDefinition {
        step: Step::SignedHeaders,
        id: "signed-headers",
        name: "signed headers",
        checks: "headers lists the lower-case names of the signed headers in order: date, digest, x-request-id, psu-id, psu-corporate-id and tpp-redirect-uri when the request carries them.",
        header: Some("Signature"),
        refusal_codes: &[Code::FormatError, Code::BadRequest],
    },
    StepDefinition {
        step: Step::Digest,
        id: "digest",
        name: "digest",
        checks: "Digest is the algorithm name, '=' and the base64 hash (SHA-256 or SHA-512) of the body sent.",
        header: Some("Digest"),
        refusal_codes: &[Code::FormatError, Code::BadRequest],
    },
    StepDefinition {
        step: Step::Signature,
        id: "signature",
        name: "signature",
        checks: "signature is Base64(RSA-SHA256(signing string)): one 'name: value' line per signed header, in the listed order, joined by newlines.",
        header: Some("Signature"),
        refusal_codes: &[Code::BadRequest],
    },
];

/// Headers the bank names as candidates for signing (docs/interface.md#signing-every-request); those a request
/// carries should be signed.
pub const SIGNING_CANDIDATES: [&str; 6] = [
    "date",
    "digest",
    "x-request-id",
    "psu-id",
    "psu-corporate-id",
    "tpp-redirect-uri",
];

impl Step {
    /// Every step, in the order they run.
    pub const ALL: [Step; 9] = [
        Step::RequiredHeaders,
        Step::Date,
        Step::Certificate,
        Step::SignatureHeader,
        Step::KeyId,
        Step::Algorithm,
        Step::SignedHeaders,
        Step::Digest,
        Step::Signature,
    ];

    /// The step's row of [`STEPS`].
    pub fn definition(self) -> &'static StepDefinition {
        &STEPS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.definition().name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_step_once_in_running_order() {
        for (index, (definition, step)) in STEPS.iter().zip(Step::ALL).enumerate() {
            assert_eq!(definition.step, step);
            assert_eq!(step as usize, index);
            assert!(!definition.refusal_codes.is_empty(), "{}", definition.id);
            assert!(definition.checks.ends_with('.'), "{}", definition.id);
        }
        let mut ids: Vec<&str> = STEPS.iter().map(|s| s.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), STEPS.len());
    }
}
