//! What the fault plan's rules do to the bank's own state when they fire: resources changed at the bank
//! (a consent revoked or expired, a payment or part of a basket rejected) and the PSU's choices on the SCA
//! pages overridden. Above consent, payments and sca, which they act through; `rehearsal` (below them)
//! only decides which rule fires.

pub mod resources;
pub mod sca_page;
