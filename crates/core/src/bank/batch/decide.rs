//! What a run (or an instant execution) decides for one payment, against the in-memory [`Ledger`].
//!
//! Decisions (ACCP means funds are lacking, and status responses carry fundsAvailable:
//! docs/reference/payments.md#sca-states-batch-runs):
//! - enough funds: every order is booked, ACSC, `fundsAvailable: true`;
//! - short of funds: ACCP with `fundsAvailable: false` and reason "AM04 insufficient funds", retried at
//!   every run; at the day's last run (18:00 UTC, or any run at or after it) still short: RJCT. A bulk
//!   payment then books the orders that fit, in order, and rejects the rest (PART; RJCT if none fit);
//! - payment permission removed, or account blocked or deleted: RJCT with the reason;
//! - an order in another currency than the debtor account: that order is rejected (the sandbox does not
//!   convert currencies);
//! - forced outcomes (set by the payment service): `Rejected` RJCT at the run; `LackingFunds` behaves as
//!   short of funds whatever the balance; `Pending` holds the payment in PDNG and it is never executed
//!   while the flag stays; `Partial` books the first order and rejects the others (PART for a bulk);
//! - instant payments are decided at once: booked (ACSC) or RJCT; short of funds is RJCT with
//!   `fundsAvailable: false`, since an instant payment cannot wait for a later run.
//!
//! Periodic payments never come here: the runs do not process them (docs/reference/payments.md#periodic-payments),
//! see `due`.

use super::ledger::{Debtor, Ledger};
use super::model::Outcome;
use crate::bank::pis::model::{Execution, ForcedOutcome, Payment, PaymentService};
use crate::bank::pis::status::PaymentStatus;
use rust_decimal::Decimal;
use time::OffsetDateTime;

/// The bank's reason for a payment whose funds are lacking (ISO 20022 AM04).
pub const INSUFFICIENT_FUNDS: &str = "AM04 insufficient funds";

const FORCED_REJECTED: &str = "rejected by the sandbox (forced outcome)";
const FORCED_PENDING: &str = "held pending by the sandbox (forced outcome)";
const FORCED_PARTIAL: &str = "rejected by the sandbox (forced partial outcome)";
const NO_DEBTOR: &str =
    "the debtor account no longer exists in the sandbox (initialisation removes accounts)";

/// What deciding one payment needs besides the payment.
pub(super) struct Context<'a> {
    pub ledger: &'a mut Ledger,
    pub at: OffsetDateTime,
    pub last_of_day: bool,
    pub instant: bool,
}

/// Decides one payment: its new status, executions and bookings. None when nothing changed (a payment
/// held pending by a forced outcome).
pub(super) fn decide(cx: &mut Context, payment: &mut Payment) -> Option<Outcome> {
    let before = payment.status;
    decide_single(cx, payment)?;
    let reason = payment
        .history
        .last()
        .filter(|h| h.at == cx.at && h.status == payment.status && before != payment.status)
        .and_then(|h| h.reason.clone());
    let still_short = before == PaymentStatus::ACCP && payment.status == PaymentStatus::ACCP;
    Some(Outcome {
        payment_id: payment.id.clone(),
        before,
        after: payment.status,
        reason: reason.or_else(|| still_short.then(|| INSUFFICIENT_FUNDS.to_owned())),
        funds_available: payment.funds_available,
    })
}

/// Rejects every order of a payment with one reason.
fn reject_all(cx: &Context, payment: &mut Payment, reason: &str) {
    for order in 0..payment.payment.orders.len() {
        payment.executions.push(Execution {
            at: cx.at,
            order,
            status: PaymentStatus::RJCT,
            reason: Some(reason.to_owned()),
            transaction_id: None,
        });
    }
    payment.set_status(PaymentStatus::RJCT, Some(reason.to_owned()), cx.at);
}

/// Resolves the debtor, or rejects the payment (and answers None) when the bank would refuse it.
fn checked_debtor(cx: &Context, payment: &mut Payment) -> Option<Debtor> {
    if payment.forced == Some(ForcedOutcome::Rejected) {
        reject_all(cx, payment, FORCED_REJECTED);
        return None;
    }
    let Some(debtor) = cx.ledger.debtor(payment) else {
        reject_all(cx, payment, NO_DEBTOR);
        return None;
    };
    if let Some(reason) = cx.ledger.refusal(&debtor) {
        reject_all(cx, payment, &reason);
        return None;
    }
    Some(debtor)
}

/// The orders that may be booked, and those rejected before funds are looked at (another currency than
/// the debtor account's; all but the first under a forced partial outcome).
fn sort_orders(
    cx: &Context,
    payment: &Payment,
    debtor: &Debtor,
) -> (Vec<usize>, Vec<(usize, String)>) {
    let currency = cx.ledger.currency(debtor);
    let mut candidates = Vec::new();
    let mut rejected = Vec::new();
    for (i, order) in payment.payment.orders.iter().enumerate() {
        let ordered = order.instructed_amount.currency;
        if ordered != currency {
            rejected.push((i, format!("the sandbox does not convert currencies: the order is in {ordered}, the debtor account in {currency}")));
        } else if payment.forced == Some(ForcedOutcome::Partial) && !candidates.is_empty() {
            rejected.push((i, FORCED_PARTIAL.to_owned()));
        } else {
            candidates.push(i);
        }
    }
    (candidates, rejected)
}

fn decide_single(cx: &mut Context, payment: &mut Payment) -> Option<()> {
    if payment.forced == Some(ForcedOutcome::Pending) {
        if payment.status == PaymentStatus::PDNG {
            return None;
        }
        payment.set_status(PaymentStatus::PDNG, Some(FORCED_PENDING.to_owned()), cx.at);
        return Some(());
    }
    let Some(debtor) = checked_debtor(cx, payment) else {
        return Some(()); // rejected
    };
    let (candidates, mut rejected) = sort_orders(cx, payment, &debtor);
    let amount = |i: usize| payment.payment.orders[i].instructed_amount.amount;
    let total: Decimal = candidates.iter().map(|i| amount(*i)).sum();
    let funds = cx.ledger.funds(&debtor);
    let forced_short = payment.forced == Some(ForcedOutcome::LackingFunds);
    let short = forced_short || funds < total;
    if short && !cx.instant && !cx.last_of_day {
        payment.funds_available = Some(false);
        payment.set_status(
            PaymentStatus::ACCP,
            Some(INSUFFICIENT_FUNDS.to_owned()),
            cx.at,
        );
        return Some(());
    }
    let to_book: Vec<usize> = if !short {
        candidates
    } else if forced_short || cx.instant {
        rejected.extend(
            candidates
                .into_iter()
                .map(|i| (i, INSUFFICIENT_FUNDS.to_owned())),
        );
        Vec::new()
    } else {
        // The day's last run: book what fits, in order; reject the rest.
        let mut left = funds;
        let mut fits = Vec::new();
        for i in candidates {
            if amount(i) <= left {
                left -= amount(i);
                fits.push(i);
            } else {
                rejected.push((i, INSUFFICIENT_FUNDS.to_owned()));
            }
        }
        fits
    };
    let booked = book(cx, payment, &debtor, &to_book);
    record(cx, payment, booked, rejected, !short);
    Some(())
}

/// Books the orders `to_book` (one debit per order, or one for all of a bulk booked as a batch); returns
/// (order, the debit's transaction id) for each.
fn book(
    cx: &mut Context,
    payment: &Payment,
    debtor: &Debtor,
    to_book: &[usize],
) -> Vec<(usize, Option<String>)> {
    let as_one_debit = payment.payment.service == PaymentService::BulkPayments
        && payment.payment.batch_booking_preferred == Some(true);
    let on = cx.at.date();
    let mut booked: Vec<(usize, Option<String>)> = to_book
        .iter()
        .map(|&i| {
            let order = &payment.payment.orders[i];
            (i, cx.ledger.book(payment, order, debtor, on, !as_one_debit))
        })
        .collect();
    if as_one_debit && !to_book.is_empty() {
        let sum: Decimal = to_book
            .iter()
            .map(|i| payment.payment.orders[*i].instructed_amount.amount)
            .sum();
        let currency = cx.ledger.currency(debtor);
        let debit = cx
            .ledger
            .book_bulk_debit(payment, debtor, sum, currency, to_book.len(), on);
        for b in &mut booked {
            b.1 = Some(debit.clone());
        }
    }
    booked
}

/// Records the executions (in order order) and the payment's new status: ACSC when every order was
/// booked, RJCT when none was, PART between.
fn record(
    cx: &Context,
    payment: &mut Payment,
    booked: Vec<(usize, Option<String>)>,
    rejected: Vec<(usize, String)>,
    funds_available: bool,
) {
    let n = payment.payment.orders.len();
    let booked_count = booked.len();
    let first_rejection = rejected
        .iter()
        .min_by_key(|(i, _)| *i)
        .map(|(_, r)| r.clone());
    // (order, status, reason, transaction id)
    let mut planned: Vec<(usize, PaymentStatus, Option<String>, Option<String>)> = booked
        .into_iter()
        .map(|(i, debit)| (i, PaymentStatus::ACSC, None, debit))
        .collect();
    planned.extend(
        rejected
            .into_iter()
            .map(|(i, r)| (i, PaymentStatus::RJCT, Some(r), None)),
    );
    planned.sort_by_key(|p| p.0);
    for (order, status, reason, transaction_id) in planned {
        payment.executions.push(Execution {
            at: cx.at,
            order,
            status,
            reason,
            transaction_id,
        });
    }
    payment.funds_available = Some(funds_available);
    let (status, reason) = match (booked_count, first_rejection) {
        (b, _) if b == n && n > 0 => (PaymentStatus::ACSC, None),
        (0, reason) => (
            PaymentStatus::RJCT,
            reason.or(Some("the payment has no orders".to_owned())),
        ),
        (b, reason) => (
            PaymentStatus::PART,
            Some(format!(
                "{b} of {n} orders booked; {}",
                reason.unwrap_or_default()
            )),
        ),
    };
    payment.set_status(status, reason, cx.at);
}
