//! Initiating a payment: the payment created and the authorisation that approves it started, as one
//! operation. Both are written in one commit, so a crash cannot leave an RCVD payment no PSU can approve
//! (a payment's creation answers with its `scaRedirect`, docs/reference/payments.md#endpoints-and-products). It sits
//! above `payments` and `sca`.

pub mod caller;
pub mod creation;

use crate::bank::pis::model::{Payment, PaymentProduct, PaymentService};
use crate::bank::pis::service::{self, CreatePayment};
use crate::bank::pis::status::PaymentStatus;
use crate::bank::sca::authorisation::Authorisation;
use crate::bank::sca::engine::StartSca;
use crate::bank::sca::{payment_start, retention};
use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::Store;
use time::OffsetDateTime;

/// What the PSU's approval is started with, beside the payment.
pub struct Approval {
    pub start: StartSca,
    /// TPP-Brand-Logging-Information, shown on the bank's page.
    pub tpp_brand: Option<String>,
}

/// Creates the payment (RCVD) and starts its authorisation, all or nothing.
pub fn initiate(
    store: &Store,
    request: CreatePayment,
    approval: Approval,
    now: OffsetDateTime,
) -> CoreResult<(Payment, Authorisation)> {
    let allow_logical_duplicate = request.allow_logical_duplicate;
    let payment = service::prepare(store, request, now)?;
    let created = {
        // Held until the commit, in this order everywhere: the duplicate check and the TPP's count of
        // authorisations are read before they are written.
        let creation = store.locks().payment_creation();
        let records = store.locks().sca_records();
        store.atomically(|store| {
            let payment =
                service::insert_new(store, payment, allow_logical_duplicate, now, &creation)?;
            let mut auth = payment_start::prepare(
                store,
                approval.start,
                vec![payment.id.clone()],
                None,
                approval.tpp_brand,
                now,
            )?;
            retention::admit(store, &mut auth, &records)?;
            CoreResult::Ok((payment, auth))
        })?
    };
    retention::prune_after_start(store, now)?;
    Ok(created)
}

/// Starts another authorisation of the caller's payment `id` (`POST …/authorisations`): 409 CONFLICT unless the
/// payment is not yet authorised (RCVD).
pub fn authorise_again(
    store: &Store,
    caller: &caller::Caller,
    (service, product): (PaymentService, PaymentProduct),
    id: &str,
    now: OffsetDateTime,
) -> CoreResult<(Payment, Authorisation)> {
    caller::pisp(&caller.tpp)?;
    let payment = service::get(store, &caller.tpp.tpp_id(), service, product, id)?;
    if payment.status != PaymentStatus::RCVD {
        return Err(Refusal::conflict(
            "paymentId",
            format!(
                "The payment is {} already; only a payment not yet authorised can be authorised.",
                payment.status.as_str()
            ),
        ));
    }
    let customer_id = Some(payment.customer_id.as_str()).filter(|c| !c.is_empty());
    let approval = caller.approval(customer_id)?;
    let auth = payment_start::start(
        store,
        approval.start,
        vec![payment.id.clone()],
        None,
        approval.tpp_brand,
        now,
    )?;
    Ok((payment, auth))
}

#[cfg(test)]
mod caller_tests;
#[cfg(test)]
mod tests;
