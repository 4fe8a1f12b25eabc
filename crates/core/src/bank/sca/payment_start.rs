//! Starting an authorisation that approves payments (one, or a signing basket's): the engine's start
//! (`engine`) with the payment's own fields, and the payer's context checked at once when the PSU is
//! already known. What the authorisation approves, and applying it, is `approval`'s.

use super::approval::assign_payer_context;
use super::authorisation::{Authorisation, Purpose};
use super::engine::{self, StartSca};
use crate::domain::refusal::CoreResult;
use crate::store::Store;
use time::OffsetDateTime;

/// Starts an authorisation approving `payment_ids`.
pub fn start(
    store: &Store,
    request: StartSca,
    payment_ids: Vec<String>,
    basket_id: Option<String>,
    tpp_brand: Option<String>,
    now: OffsetDateTime,
) -> CoreResult<Authorisation> {
    let mut auth = prepare(store, request, payment_ids, basket_id, tpp_brand, now)?;
    super::retention::store_new(store, &mut auth)?;
    Ok(auth)
}

/// The authorisation [`start`] stores, not yet stored. Reads the payments, so inside an operation that
/// creates them it sees them (`Store::atomically` reads its own pending writes).
pub(crate) fn prepare(
    store: &Store,
    mut request: StartSca,
    payment_ids: Vec<String>,
    basket_id: Option<String>,
    tpp_brand: Option<String>,
    now: OffsetDateTime,
) -> CoreResult<Authorisation> {
    request.purpose = Purpose::Payment;
    request.preset_agreement_id = None;
    let mut auth = engine::prepare(store, request, now)?;
    auth.context = None;
    auth.agreement_id = None;
    auth.payment_ids = payment_ids;
    auth.basket_id = basket_id;
    auth.tpp_brand = tpp_brand;
    if auth.customer_id.is_some() {
        // A preset PSU that may not pay from these accounts identifies again on the page.
        if assign_payer_context(store, &mut auth).is_err() {
            auth.customer_id = None;
        }
    }
    Ok(auth)
}
