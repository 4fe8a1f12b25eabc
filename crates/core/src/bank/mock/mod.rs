//! The sandbox's mock data, framework-free: customers, accounts, card accounts, their transactions and
//! corporate agreements, plus initialisation to the known state (docs/interface.md#mock-data-v1sandbox).
//!
//! Every function takes a [`Store`](crate::store::Store) (and `today` where dates matter) and returns
//! `Result<_, Refusal>`, so the HTTP handlers in `api::sandbox` stay thin and everything here is tested
//! without HTTP. Later areas (account information, payments) read the records of [`model`].
//!
//! Ids are UUID v5 values derived from a fixed namespace and each record's natural key (customer number,
//! BBAN, masked PAN, ...), so initialisation, and any script that replays the same requests, yields the
//! same ids every time.

/// The path under which the bank platform's sandbox serves `/v1` (its developer kit's scripts call
/// `/api-sandbox/v1/sandbox/...`); everything under `/v1` is served under it too.
pub const PLATFORM_PREFIX: &str = "/api-sandbox/v1";

pub mod accounts;
pub mod agreements;
pub mod booking_blocks;
pub mod card_accounts;
pub mod card_transactions;
pub mod customers;
pub mod edits;
pub mod generate;
pub mod holdings;
pub mod identifiers;
mod input;
pub mod listing;
pub mod model;
pub mod numbers;
pub mod seed;
pub mod transaction_codec;
pub mod transactions;

use crate::domain::refusal::TppMessage;
use uuid::Uuid;

/// A mock-data record as created, with the WARNINGs about what was accepted although production data
/// would not look like it (a wrong check digit, an 8-digit organisation number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warned<T> {
    pub value: T,
    pub warnings: Vec<TppMessage>,
}

impl<T> Warned<T> {
    /// The same warnings with the value turned into another.
    pub fn map<U>(self, change: impl FnOnce(T) -> U) -> Warned<U> {
        Warned {
            value: change(self.value),
            warnings: self.warnings,
        }
    }

    /// The same warnings with the value turned into another (a record into its view), or the refusal.
    pub fn try_map<U, E>(self, change: impl FnOnce(T) -> Result<U, E>) -> Result<Warned<U>, E> {
        Ok(Warned {
            value: change(self.value)?,
            warnings: self.warnings,
        })
    }
}

/// The fixed namespace every sandbox id is derived in. Part of the fixtures' contract: never change it.
/// Derived once (itself a SHA-1): a batch run derives an id for each of its bookings.
fn namespace() -> &'static Uuid {
    static NAMESPACE: std::sync::OnceLock<Uuid> = std::sync::OnceLock::new();
    NAMESPACE.get_or_init(|| Uuid::new_v5(&Uuid::NAMESPACE_URL, b"urn:xs2a-sandbox:mock-data"))
}

/// A stable id for a record of `kind` with the natural key `key` (e.g. `("account", "12050012345")`).
pub fn derive_id(kind: &str, key: &str) -> String {
    derive_uuid(kind, key).to_string()
}

/// [`derive_id`] as the UUID itself.
pub fn derive_uuid(kind: &str, key: &str) -> Uuid {
    Uuid::new_v5(namespace(), format!("{kind}:{key}").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_ids_are_stable_and_differ_by_kind() {
        assert_eq!(derive_id("account", "1"), derive_id("account", "1"));
        assert_ne!(derive_id("account", "1"), derive_id("customer", "1"));
    }
}
