//! The request gate and its TPP-side twin: HTTP message signatures, digests, dates and eIDAS certificates.

pub mod distinguished_name;
pub mod qc_statements;
