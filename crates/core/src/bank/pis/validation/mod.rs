//! Validation of payment requests: turns a JSON body into a [`ValidatedPayment`] (plus WARNING
//! `tppMessages`), or refuses it with one 400 naming the JSON path at fault.
//!
//! Rules come from the bank (docs/interface.md#payments, docs/reference/payments.md#validation-duplicates-fees: the
//! payment request fields, Address, Debtor account, the lists of allowed values, Limits, the KID and
//! downstream-character errors, the structured-address announcement); shapes the bank leaves open (periodic, bulk,
//! serviceLevel, creditorAgent) follow Berlin Group 1.3. The files:
//!
//! - [`fields`]: JSON access, missing fields and wrong types at their paths;
//! - [`text`]: character-counted lengths and the downstream character set;
//! - [`amount`]: instructedAmount and currencies; [`account`]: creditor/debtor accounts, BIC;
//! - [`address`]: creditorAddress, `city`, the structured-address rule and its enforcement date;
//! - [`remittance`]: the three exclusive remittance forms and the KID rule;
//! - [`dates`]: execution dates; [`order`]: one order; [`periodic`]; [`bulk`]; [`fees`].

pub mod account;
pub mod address;
pub mod amount;
pub mod bulk;
pub mod dates;
pub mod fees;
pub mod fields;
pub mod order;
pub mod periodic;
pub mod remittance;
pub mod text;

#[cfg(test)]
mod tests;

use crate::bank::pis::model::{PaymentProduct, PaymentService, ValidatedPayment};
use crate::domain::refusal::{Code, Refusal, RefusalContext, TppMessage};
use serde_json::Value;
use time::{Date, OffsetDateTime, UtcOffset};

pub use fees::{fee, fee_information};

/// What every rule may need: the product, the clock, and the warnings gathered so far.
pub struct Ctx {
    pub product: PaymentProduct,
    pub now: OffsetDateTime,
    /// The calendar date of `now` in UTC, against which execution dates are judged.
    pub today: Date,
    warnings: Vec<TppMessage>,
}

impl Ctx {
    /// A context for `product` at `now`.
    pub fn new(product: PaymentProduct, now: OffsetDateTime) -> Self {
        Ctx {
            product,
            now,
            today: now.to_offset(UtcOffset::UTC).date(),
            warnings: Vec::new(),
        }
    }

    /// Records a WARNING to return with an accepted request.
    pub fn warn(&mut self, code: Code, path: &str, text: impl Into<String>) {
        self.warnings
            .push(TppMessage::warning(code, Some(path), text));
    }
}

/// Validates a payment request body for `service` and `product` at `now`.
///
/// Returns the validated payment and the warnings to send along (deprecated `city`, structured
/// address parts that will be required). The first broken rule refuses the request with a 400 at
/// its JSON path; warnings gathered before it travel with the error.
pub fn validate(
    service: PaymentService,
    product: PaymentProduct,
    body: &Value,
    now: OffsetDateTime,
) -> Result<(ValidatedPayment, Vec<TppMessage>), Refusal> {
    if product.is_instant() && service != PaymentService::Payments {
        return Err(Refusal::new(
            Code::ProductInvalid,
            None,
            format!(
                "{} is offered as a single payment only, not through /v1/{}: instant payments \
                 execute at once and cannot be periodic or bulk.",
                product.path(),
                service.path()
            ),
        )
        .in_context(RefusalContext::MalformedRequest));
    }
    let mut ctx = Ctx::new(product, now);
    match validate_body(&mut ctx, service, body) {
        Ok(payment) => Ok((payment, ctx.warnings)),
        Err(error) => Err(error.with_messages(ctx.warnings)),
    }
}

/// The body rules of each service.
fn validate_body(
    ctx: &mut Ctx,
    service: PaymentService,
    body: &Value,
) -> Result<ValidatedPayment, Refusal> {
    let object = fields::as_object(body, "(body)")?;
    let (orders, schedule, batch_booking_preferred) = match service {
        PaymentService::Payments => (vec![order::order(ctx, object, "", None)?], None, None),
        PaymentService::PeriodicPayments => {
            let order = order::order(ctx, object, "", None)?;
            (vec![order], Some(periodic::schedule(ctx, object)?), None)
        }
        PaymentService::BulkPayments => {
            let (orders, batch) = bulk::bulk(ctx, object)?;
            (orders, None, batch)
        }
    };
    Ok(ValidatedPayment {
        service,
        product: ctx.product,
        orders,
        schedule,
        batch_booking_preferred,
    })
}
