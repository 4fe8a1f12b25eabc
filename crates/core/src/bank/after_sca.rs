//! What follows a completed payment SCA outside the SCA engine: instant payments execute at once
//! (straks payments are instant, docs/reference/payments.md#endpoints-and-products), and the authorised payments'
//! new statuses are announced. Called by the two places where a PSU completes SCA, the bank's pages and the sandbox
//! automation endpoint. It sits above `payments`, `sca` and `batch` (it takes the whole [`BankState`] and calls into
//! the SCA records and the batch simulator), so none of them needs to know the others for this.

use crate::bank::events::EventKind;
use crate::bank::pis::model::Payment;
use crate::bank::pis::status::PaymentStatus;
use crate::bank::sca::authorisation::{Authorisation, Outcome, Purpose};
use crate::bank::state::BankState;
use serde_json::json;

/// Executes the instant payments the authorisation approved and publishes the status changes.
pub fn after_sca(state: &BankState, auth: &Authorisation) {
    if auth.purpose != Purpose::Payment || auth.outcome != Some(Outcome::Succeeded) {
        return;
    }
    let now = state.clock.now();
    let Ok(table) = state.store.table::<Payment>() else {
        return;
    };
    for id in &auth.payment_ids {
        let Ok(Some(payment)) = table.get(id) else {
            continue;
        };
        let payment =
            if payment.payment.product.is_instant() && payment.status == PaymentStatus::ACTC {
                match crate::bank::batch::execute_now(&state.store, &state.events, id, now) {
                    Ok(executed) => executed,
                    Err(error) => {
                        tracing::error!(%error, payment = %id, "instant payment execution failed");
                        payment
                    }
                }
            } else {
                payment
            };
        state.events.publish(
            EventKind::PaymentStatus,
            now,
            json!({"paymentId": payment.id, "transactionStatus": payment.status.as_str(), "basketId": auth.basket_id}),
        );
    }
}
