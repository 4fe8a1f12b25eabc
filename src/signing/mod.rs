//! The request gate and its TPP-side twin: HTTP message signatures, digests, dates and eIDAS certificates.

pub mod certificate;
pub mod distinguished_name;
pub mod issue;
pub mod qc_statements;
pub mod trust;
