//! What a payment authorisation approves: the payments it names (one, or a signing basket's), the
//! identified person's right to pay from each debtor account (which also gives the context: PRIVATE for
//! their own account, CORPORATE under the agreement that allows it), and the approval applied once SCA
//! completes. The engine (`engine`) calls these at the identify step and at completion; starting a payment
//! authorisation is `payment_start`'s.

use super::authorisation::{Authorisation, Outcome, Purpose};
use super::step_error::StepError;
use super::Context;
use crate::bank::pis::model::{Basket, Payment};
use crate::bank::pis::service::{apply_authorisation, may_pay_from, resolve_debtor};
use crate::domain::refusal::CoreResult;
use crate::store::Store;
use time::OffsetDateTime;

/// The payments an authorisation approves.
pub fn payments(store: &Store, auth: &Authorisation) -> CoreResult<Vec<Payment>> {
    let table = store.table::<Payment>()?;
    let mut out = Vec::new();
    for id in &auth.payment_ids {
        if let Some(payment) = table.get(id)? {
            out.push(payment);
        }
    }
    Ok(out)
}

/// Sets the context from the identified person's rights on every debtor account, or refuses.
pub fn assign_payer_context(store: &Store, auth: &mut Authorisation) -> Result<(), StepError> {
    if auth.purpose != Purpose::Payment {
        return Ok(());
    }
    let customer_id = auth.customer_id.clone().ok_or(StepError::UnknownPerson)?;
    let mut agreement: Option<String> = None;
    for payment in payments(store, auth)? {
        let debtor = resolve_debtor(store, &payment.payment)?;
        match may_pay_from(store, &customer_id, &debtor)? {
            None => return Err(StepError::NotAllowedToPay),
            Some(via) => {
                if via.is_some() {
                    agreement = via;
                }
            }
        }
    }
    auth.context = Some(if agreement.is_some() {
        Context::Corporate
    } else {
        Context::Private
    });
    auth.agreement_id = agreement;
    Ok(())
}

/// Called when an authorisation succeeded: the payments it approved are authorised. Returns the ids of
/// instant payments, which the caller executes at once.
pub fn apply(store: &Store, auth: &Authorisation, now: OffsetDateTime) -> CoreResult<Vec<String>> {
    if auth.purpose != Purpose::Payment || auth.outcome != Some(Outcome::Succeeded) {
        return Ok(Vec::new());
    }
    // A basket deleted after its SCA started no longer approves anything.
    if let Some(basket_id) = &auth.basket_id {
        let deleted = store
            .table::<Basket>()?
            .get(basket_id)?
            .is_none_or(|basket| basket.deleted);
        if deleted {
            return Ok(Vec::new());
        }
    }
    let approver = auth.customer_id.as_deref().unwrap_or_default();
    apply_authorisation(store, &auth.payment_ids, approver, now)
}
