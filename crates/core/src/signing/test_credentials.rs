//! Test credentials compiled into the binary, so a fresh machine runs with no files to find: the test CA
//! (trusted by default; its key lets `cert issue` work offline), the bank's response-signing certificate
//! and the TLS server certificate for localhost. TEST ONLY: these private keys are public.

pub const TEST_CA_CERT_PEM: &str = include_str!("../../../../fixtures/certs/ca/cert.pem");
pub const TEST_CA_KEY_PEM: &str = include_str!("../../../../fixtures/certs/ca/key.pem");
pub const BANK_CERT_PEM: &str = include_str!("../../../../fixtures/certs/bank/cert.pem");
pub const BANK_KEY_PEM: &str = include_str!("../../../../fixtures/certs/bank/key.pem");
pub const SERVER_CERT_PEM: &str = include_str!("../../../../fixtures/certs/server/cert.pem");
pub const SERVER_KEY_PEM: &str = include_str!("../../../../fixtures/certs/server/key.pem");

/// The bundled TPP certificates with their keys, as the workbench offers them as personas:
/// (directory name, display name, certificate PEM, key PEM).
pub const TPP_CERTIFICATES: &[(&str, &str, &str, &str)] = &[
    (
        "aisp-pisp",
        "Sandbox AISP PISP AS",
        include_str!("../../../../fixtures/certs/aisp-pisp/cert.pem"),
        include_str!("../../../../fixtures/certs/aisp-pisp/key.pem"),
    ),
    (
        "aisp",
        "Sandbox AISP AS",
        include_str!("../../../../fixtures/certs/aisp/cert.pem"),
        include_str!("../../../../fixtures/certs/aisp/key.pem"),
    ),
    (
        "pisp",
        "Sandbox PISP AS",
        include_str!("../../../../fixtures/certs/pisp/cert.pem"),
        include_str!("../../../../fixtures/certs/pisp/key.pem"),
    ),
    (
        "expired",
        "Sandbox Expired TPP AS",
        include_str!("../../../../fixtures/certs/expired/cert.pem"),
        include_str!("../../../../fixtures/certs/expired/key.pem"),
    ),
    (
        "untrusted",
        "Sandbox Untrusted TPP AS",
        include_str!("../../../../fixtures/certs/untrusted/cert.pem"),
        include_str!("../../../../fixtures/certs/untrusted/key.pem"),
    ),
    (
        "no-roles",
        "Sandbox No Roles AS",
        include_str!("../../../../fixtures/certs/no-roles/cert.pem"),
        include_str!("../../../../fixtures/certs/no-roles/key.pem"),
    ),
];
