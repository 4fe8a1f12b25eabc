//! Starting an authorisation that approves payments (one, or a signing basket's): the engine's start
//! (`flow`) with the payment's own fields, and the payer's context checked at once when the PSU is
//! already known. What the authorisation approves, and applying it, is `approval`'s.

use super::approval::assign_payer_context;
use super::authorisation::{Authorisation, Purpose};
use super::flow::{self, StartSca};
use crate::refusal::CoreResult;
use crate::store::Store;
use time::OffsetDateTime;

/// Starts an authorisation approving `payment_ids`.
pub fn start(
    store: &Store,
    mut request: StartSca,
    payment_ids: Vec<String>,
    basket_id: Option<String>,
    tpp_brand: Option<String>,
    now: OffsetDateTime,
) -> CoreResult<Authorisation> {
    request.purpose = Purpose::Payment;
    request.preset_agreement_id = None;
    let mut auth = flow::start(store, request, now)?;
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
    store.table::<Authorisation>()?.insert(&auth)?;
    Ok(auth)
}
