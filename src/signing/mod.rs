//! The request gate and its TPP-side twin: HTTP message signatures, digests, dates and eIDAS certificates.
//!
//! One module serves the server (verification), the CLI (`sign`, `verify`, `cert issue`), the workbench
//! and the tests, so what the sandbox accepts and what its own tools produce cannot drift apart.

pub mod digest;
pub mod http_date;
pub mod rfc2047;
pub mod signature_header;
pub mod signing_string;
// pub mod signer;
// pub mod verifier;
