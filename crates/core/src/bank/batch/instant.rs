//! Instant (straks) payments: executed at once when their SCA completes
//! (docs/reference/payments.md#endpoints-and-products), with the same decisions and bookings as a run (`decide`,
//! `write`), except that short of funds is a rejection.

use super::announce::publish_status;
use super::decide::{decide, Context};
use super::ledger::Ledger;
use super::model::Outcome;
use super::write::commit;
use crate::bank::events::Events;
use crate::bank::pis::model::{Payment, PaymentService};
use crate::bank::pis::status::PaymentStatus;
use crate::domain::refusal::Refusal;
use crate::store::Store;
use time::OffsetDateTime;

/// Executes an authorised instant payment at once (called right after authorisation, without the run
/// lock held). Returns the payment as stored afterwards; a payment that is not waiting for execution
/// (RCVD, or already final) is returned unchanged.
pub fn execute_now(
    store: &Store,
    events: &Events,
    payment_id: &str,
    at: OffsetDateTime,
) -> Result<Payment, Refusal> {
    let _runs = store.locks().runs();
    let _mock_data = store.locks().mock_data();
    let (payment, outcome) = store.atomically(|store| execute_one(store, payment_id, at))?;
    if let Some(outcome) = outcome {
        publish_status(events, at, &outcome, None);
    }
    Ok(payment)
}

/// Decides and books one instant payment inside the caller's atomic operation.
fn execute_one(
    store: &Store,
    payment_id: &str,
    at: OffsetDateTime,
) -> Result<(Payment, Option<Outcome>), Refusal> {
    let payments = store.table::<Payment>()?;
    let payment = payments
        .get(payment_id)?
        .ok_or_else(|| Refusal::unknown("paymentId", "payment", payment_id))?;
    let waiting = matches!(
        payment.status,
        PaymentStatus::ACTC | PaymentStatus::ACCP | PaymentStatus::PDNG
    );
    let periodic = payment.payment.service == PaymentService::PeriodicPayments;
    if !waiting || periodic || payment.authorised_at.is_none() {
        return Ok((payment, None));
    }
    let mut ledger = Ledger::load(store)?;
    let mut payment = payment;
    let mut cx = Context {
        ledger: &mut ledger,
        at,
        last_of_day: true,
        instant: true,
    };
    let Some(outcome) = decide(&mut cx, &mut payment) else {
        return Ok((payment, None));
    };
    commit(store, ledger, std::slice::from_ref(&payment), &[true])?;
    Ok((payment, Some(outcome)))
}
