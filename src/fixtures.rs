//! Test credentials compiled into the binary, so a fresh machine runs with no files to find: the test CA
//! (trusted by default; its key lets `cert issue` work offline), the bank's response-signing certificate
//! and the TLS server certificate for localhost. TEST ONLY: these private keys are public.

pub const TEST_CA_CERT_PEM: &str = include_str!("../fixtures/certs/ca/cert.pem");
pub const TEST_CA_KEY_PEM: &str = include_str!("../fixtures/certs/ca/key.pem");
pub const BANK_CERT_PEM: &str = include_str!("../fixtures/certs/bank/cert.pem");
pub const BANK_KEY_PEM: &str = include_str!("../fixtures/certs/bank/key.pem");
pub const SERVER_CERT_PEM: &str = include_str!("../fixtures/certs/server/cert.pem");
pub const SERVER_KEY_PEM: &str = include_str!("../fixtures/certs/server/key.pem");
