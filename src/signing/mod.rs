//! The request gate and its TPP-side twin: HTTP message signatures, digests, dates and eIDAS certificates.

pub mod qc_statements;
