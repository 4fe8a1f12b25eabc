//! What accounts and card accounts share as records a customer holds: looked up by id (404 naming the
//! kind), listed per customer in their natural order (BBAN, masked PAN), answered as the sandbox's view
//! with the holder's name and usage, and the Berlin Group `usage` word itself. The twins keep only what
//! differs: their fields, their numbers and their creation rules (`accounts`, `card_accounts`, where each
//! implements [`Holding`]).

use super::customers;
use super::model::{Balance, Customer, CustomerType};
use crate::domain::refusal::Refusal;
use crate::store::{Record, Store};

/// A kind of record a customer holds: an account or a card account.
pub trait Holding: Record + Sized {
    /// How a refusal names one ("account", "card account").
    const KIND: &'static str;
    /// How the sandbox answers one (`GET /v1/sandbox/accounts/{id}`, `.../card-accounts/{id}`).
    type View;
    fn id(&self) -> &str;
    fn customer_id(&self) -> &str;
    fn customer_number(&self) -> &str;
    /// What lists are ordered by: BBAN for accounts, masked PAN for card accounts.
    fn order(&self) -> &str;
    fn balances(&self) -> &[Balance];
    /// The view, with what it shows of the holder.
    fn into_view(self, holder: &Customer) -> Self::View;
}

/// The `H` with this id; 404 RESOURCE_UNKNOWN at `path` otherwise.
pub fn by_id<H: Holding>(store: &Store, path: &str, id: &str) -> Result<H, Refusal> {
    store
        .table::<H>()?
        .get(id)?
        .ok_or_else(|| Refusal::unknown(path, H::KIND, id))
}

/// Every `H` a customer holds, in its list order.
pub fn of_customer<H: Holding>(store: &Store, customer_id: &str) -> Result<Vec<H>, Refusal> {
    let mut held: Vec<H> = store
        .table::<H>()?
        .list()?
        .into_iter()
        .filter(|h| h.customer_id() == customer_id)
        .collect();
    held.sort_by(|a, b| a.order().cmp(b.order()));
    Ok(held)
}

/// The sandbox's view of a record, with its holder.
pub fn view<H: Holding>(store: &Store, held: H) -> Result<H::View, Refusal> {
    let holder = customers::by_number(store, "customerNumber", held.customer_number())?;
    Ok(held.into_view(&holder))
}

/// The view of the `H` with this id, 404 at `path` (the mock id's name) otherwise.
pub fn get_view<H: Holding>(store: &Store, path: &str, id: &str) -> Result<H::View, Refusal> {
    view(store, by_id::<H>(store, path, id)?)
}

/// Berlin Group `usage`: PRIV for a private customer's account, ORGA for a corporation's.
pub fn usage(customer_type: CustomerType) -> &'static str {
    match customer_type {
        CustomerType::Private => "PRIV",
        CustomerType::Corporate => "ORGA",
    }
}

/// The OpenAPI schema of `AccountView.usage` and `CardAccountView.usage`: one of a fixed set of words.
pub(crate) fn usage_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(serde_json::json!({"type": "string", "enum": ["PRIV", "ORGA"]}))
        .expect("a valid schema")
}
