//! The request gate and its TPP-side twin: HTTP message signatures, digests, dates and eIDAS certificates.
//!
//! One module serves the server (verification), the CLI (`sign`, `verify`, `cert issue`), the workbench
//! and the tests, so what the sandbox accepts and what its own tools produce cannot drift apart.

#[cfg(test)]
mod cavage_vectors;
pub mod certificate;
pub mod certificate_hints;
pub mod der_text;
pub mod digest;
pub mod distinguished_name;
pub mod header_map;
pub mod headers;
pub mod http_date;
pub mod issue;
pub mod key_id;
pub mod pasted;
pub mod qc_statements;
pub mod required_headers;
pub mod rfc2047;
pub mod rsa_sha256;
pub mod signature_header;
pub mod signer;
pub mod signing_string;
pub mod steps;
pub mod subject;
pub mod trust;
pub mod verifier;

pub mod test_credentials;
