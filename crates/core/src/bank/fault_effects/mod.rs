//! What the fault plan's rules do when they fire: the answers given in the bank's place (`answers`),
//! and the bank's own state: resources changed at the bank
//! (a consent revoked or expired, a payment or part of a basket rejected) and the PSU's choices on the SCA
//! pages overridden. Above consent, payments and sca, which they act through; `rehearsal` (below them)
//! only decides which rule fires.

pub mod answers;
pub mod resources;
pub mod sca_page;
