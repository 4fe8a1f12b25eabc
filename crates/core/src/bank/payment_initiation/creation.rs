//! Creating a payment, the whole use case (docs/reference/payments.md#endpoints-and-products): the caller's
//! rules, the request's validation, the fee, the payment and its authorisation stored as one operation
//! ([`super::initiate`]), and the RCVD status announced. The HTTP side parses the request into a
//! [`PaymentRequest`] and a [`Caller`] and maps the [`Created`] payment or the refusal back.

use super::caller::{pisp, Caller};
use crate::bank::events::EventKind;
use crate::bank::pis::model::{Payment, PaymentProduct, PaymentService};
use crate::bank::pis::service::CreatePayment;
use crate::bank::pis::validation::{self, fees};
use crate::bank::sca::authorisation::Authorisation;
use crate::bank::state::BankState;
use crate::domain::refusal::{CoreResult, TppMessage};
use serde_json::{json, Value};

/// A payment request as the HTTP side parsed it.
pub struct PaymentRequest<'a> {
    pub service: PaymentService,
    pub product: PaymentProduct,
    /// The JSON body, validated here per product.
    pub body: &'a Value,
    /// `allowLogicalDuplicate=true`: create it even when an earlier payment is its logical duplicate.
    pub allow_logical_duplicate: bool,
    /// The fault plan's `payment-rejected` effect applies to this request (docs/rehearsal.md).
    pub rejected_by_fault_plan: bool,
}

/// The payment created (RCVD), the authorisation approving it, and the warnings to answer with.
#[derive(Debug)]
pub struct Created {
    pub payment: Payment,
    pub authorisation: Authorisation,
    /// What production might refuse, found by the validation.
    pub warnings: Vec<TppMessage>,
}

/// Creates the payment `request` describes for `caller`, at the bank's clock, or refuses it. The checks run
/// in the order the bank answers them: the PSD2 role, the required headers, the PSU, the body.
pub fn create_payment(
    bank: &BankState,
    caller: &Caller,
    request: PaymentRequest<'_>,
) -> CoreResult<Created> {
    pisp(&caller.tpp)?;
    caller.require_headers()?;
    let now = bank.clock.now();
    let creator = caller.creator(&bank.store, now)?;
    let (payment, warnings) =
        validation::validate(request.service, request.product, request.body, now)?;
    let fee = fees::total(request.product, &payment.orders);
    let approval = caller.approval(creator.customer_id.as_deref())?;
    let (payment, authorisation) = super::initiate(
        &bank.store,
        CreatePayment {
            tpp_id: creator.tpp_id,
            customer_id: creator.customer_id,
            payment,
            allow_logical_duplicate: request.allow_logical_duplicate,
            fee,
            rejected_by_fault_plan: request.rejected_by_fault_plan,
        },
        approval,
        now,
    )?;
    bank.events.publish(
        EventKind::PaymentStatus,
        now,
        json!({"paymentId": payment.id, "transactionStatus": "RCVD"}),
    );
    Ok(Created {
        payment,
        authorisation,
        warnings,
    })
}
