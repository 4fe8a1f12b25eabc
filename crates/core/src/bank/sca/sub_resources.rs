//! The authorisations started on one payment or one signing basket: Berlin Group's authorisation
//! sub-resources (`GET …/authorisations` lists them, `GET …/authorisations/{id}` reads one).

use super::authorisation::{Authorisation, Purpose};
use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::store::Store;

/// What an authorisation was started on.
#[derive(Debug, Clone, Copy)]
pub enum Resource<'a> {
    /// A payment's own authorisation (not one of a basket holding it).
    Payment(&'a str),
    Basket(&'a str),
}

impl Resource<'_> {
    /// Whether `auth` is a sub-resource of this payment or basket.
    pub fn owns(&self, auth: &Authorisation) -> bool {
        if auth.purpose != Purpose::Payment {
            return false;
        }
        match *self {
            Resource::Payment(id) => {
                auth.basket_id.is_none() && auth.payment_ids.iter().any(|p| p == id)
            }
            Resource::Basket(id) => auth.basket_id.as_deref() == Some(id),
        }
    }
}

/// 404 SCA_NOT_FOUND: no authorisation of that id was started on this `of` (payment or basket) by the
/// calling TPP; another TPP's authorisation is not found either.
pub fn no_such_authorisation(of: &str) -> Refusal {
    Refusal::new(
        Code::ScaNotFound,
        Some("authorisationId"),
        format!("No such authorisation of this {of}."),
    )
}

/// The TPP's authorisations of `resource` still kept, in the order they were started.
pub fn started_on(
    store: &Store,
    tpp_id: &str,
    resource: Resource<'_>,
) -> CoreResult<Vec<Authorisation>> {
    let mut found = super::retention::of_tpp(store, tpp_id)?;
    found.retain(|a| resource.owns(a));
    Ok(found)
}
