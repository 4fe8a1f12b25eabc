//! Bulk payments (`/v1/bulk-payments/...`) in the Berlin Group shape: `batchBookingPreferred`
//! (optional), `debtorAccount` (required, for all entries), `requestedExecutionDate` (optional, for
//! all entries) and `payments`, 1 to [`MAX_BULK_ENTRIES`] orders, each validated like a single
//! payment with paths `payments[i]....`.

use super::account::debtor_account;
use super::dates::requested_execution_date;
use super::fields::{as_object, index, opt_bool, req_array, Object};
use super::order::{order, Shared};
use super::Ctx;
use crate::bank::pis::model::PaymentOrder;
use crate::domain::refusal::Refusal;

/// The most orders one bulk payment may hold (the sandbox's choice; Berlin Group sets no limit).
pub const MAX_BULK_ENTRIES: usize = 1000;

/// The orders of a bulk body and its `batchBookingPreferred`.
pub fn bulk(ctx: &mut Ctx, object: &Object) -> Result<(Vec<PaymentOrder>, Option<bool>), Refusal> {
    let batch_booking_preferred = opt_bool(object, "", "batchBookingPreferred")?;
    let shared = Shared {
        debtor_account: debtor_account(object, "")?,
        requested_execution_date: requested_execution_date(ctx, object, "")?,
    };
    let entries = req_array(object, "", "payments")?;
    if entries.is_empty() || entries.len() > MAX_BULK_ENTRIES {
        return Err(Refusal::format(
            "payments",
            format!(
                "payments has {} entries; a bulk payment holds 1 to {MAX_BULK_ENTRIES}.",
                entries.len()
            ),
        ));
    }
    let orders = entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let path = index("payments", i);
            order(ctx, as_object(entry, &path)?, &path, Some(&shared))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((orders, batch_booking_preferred))
}
