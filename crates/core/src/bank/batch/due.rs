//! Which payments a run acts on, and in which order: non-periodic payments authorised by the run's time,
//! in ACTC, ACCP or PDNG, whose requested execution date has come, and not held pending by a forced
//! outcome; decided in the order they were authorised. Periodic payments are never due: the bank's sandbox
//! simulates batch processing for all payments except periodic ones (docs/reference/payments.md#periodic-payments)
//! (their status stays ACSP, see `payments::service`).

use crate::bank::pis::codec;
use crate::bank::pis::model::{ForcedOutcome, Payment, PaymentService};
use crate::bank::pis::status::PaymentStatus;
use time::{Date, OffsetDateTime};

/// The statuses a run may act on.
const WAITING: [PaymentStatus; 3] = [
    PaymentStatus::ACTC,
    PaymentStatus::ACCP,
    PaymentStatus::PDNG,
];

/// A byte-level pre-filter on a stored payment: false when its status is one a run never acts on, so the
/// (many) final payments are not decoded on every run. The compact form carries the status in its second
/// byte (`payments::codec`); in a JSON record of an earlier version the first `"status":"` is the
/// top-level one (the fields before it, ids and the validated request, have no such key, and a quote
/// inside a string value is always escaped).
pub(super) fn may_be_due(stored: &[u8]) -> bool {
    if let Some(status) = codec::stored_status(stored) {
        return WAITING.contains(&status);
    }
    const KEY: &[u8] = br#""status":""#;
    let Some(at) = stored.windows(KEY.len()).position(|w| w == KEY) else {
        return true;
    };
    match stored.get(at + KEY.len()..at + KEY.len() + 4) {
        Some(status) => WAITING.iter().any(|s| s.as_str().as_bytes() == status),
        None => true,
    }
}

/// The latest requested execution date of a payment's orders (bulk orders may each name one).
fn requested_date(payment: &Payment) -> Option<Date> {
    payment
        .payment
        .orders
        .iter()
        .filter_map(|o| o.requested_execution_date)
        .max()
}

/// True when a run at `at` acts on the payment.
pub(super) fn is_due(payment: &Payment, at: OffsetDateTime) -> bool {
    if payment.payment.service == PaymentService::PeriodicPayments
        || payment.authorised_at.is_some_and(|a| a > at)
    {
        return false;
    }
    let held =
        payment.forced == Some(ForcedOutcome::Pending) && payment.status == PaymentStatus::PDNG;
    WAITING.contains(&payment.status)
        && !held
        && requested_date(payment).is_none_or(|d| d <= at.date())
}

/// Sorts payments into the order a run decides them: as they were authorised (then created, then by id).
pub(super) fn in_run_order(due: &mut [Payment]) {
    due.sort_by(|a, b| {
        (a.authorised_at, a.created_at, &a.id).cmp(&(b.authorised_at, b.created_at, &b.id))
    });
}
