//! One batch run, an instant execution, and catching up the scheduled runs after time moved.
//!
//! A run reads every payment once, picks the due ones (non-periodic ACTC, ACCP or PDNG whose requested
//! execution date has come; periodic ACSP whose next execution date has come), decides each in the order
//! they were authorised against the in-memory [`Ledger`], and then writes: the transactions, each touched
//! account once, the changed payments and the run record, each tree in one pass (the transactions on the
//! second core, beside the payments). The caller makes the writes durable (the HTTP layer does after every request; the scheduler after every tick).
//!
//! Decisions (SPEC.md: ACCP means funds are lacking, and status responses carry fundsAvailable):
//! - enough funds: every order is booked, ACSC, `fundsAvailable: true`;
//! - short of funds: ACCP with `fundsAvailable: false` and reason "AM04 insufficient funds", retried at
//!   every run; at the day's last run (18:00 UTC, or any run at or after it) still short: RJCT. A bulk
//!   payment then books the orders that fit, in order, and rejects the rest (PART; RJCT if none fit);
//! - payment permission removed, or account blocked or deleted: RJCT with the reason;
//! - an order in another currency than the debtor account: that order is rejected (the sandbox does not
//!   convert currencies);
//! - forced outcomes (set by the payment service): `Rejected` RJCT at the run; `LackingFunds` behaves as
//!   short of funds whatever the balance; `Pending` holds the payment in PDNG and it is never executed
//!   while the flag stays; `Partial` books the first order and rejects the others (PART for a bulk).
//! - periodic payments run on their own schedule: at the first run on or after the due date one instance
//!   is booked and the next date computed (`periodic`); short of funds the instance is retried during the
//!   day and rejected at the last run (the standing order itself goes on); after the end date: ACSC.
//! - instant payments ([`execute_now`]) are decided at once: booked (ACSC) or RJCT; short of funds is RJCT
//!   with `fundsAvailable: false`, since an instant payment cannot wait for a later run.

use super::ledger::{Debtor, Ledger};
use super::model::{BatchRun, Outcome, ScheduleMarker, Trigger};
use super::{periodic, schedule};
use crate::events::Events;
use crate::payments::model::{Execution, ForcedOutcome, Payment, PaymentService};
use crate::payments::status::PaymentStatus;
use crate::refusal::Refusal;
use crate::store::Store;
use rust_decimal::Decimal;
use serde_json::json;
use time::OffsetDateTime;

/// SPEC.md's reason for a payment whose funds are lacking (ISO 20022 AM04).
pub const INSUFFICIENT_FUNDS: &str = "AM04 insufficient funds";
/// The most scheduled runs one catch-up performs (five a day for a leap year); older missed runs are
/// skipped, so a clock moved decades ahead answers in bounded time.
pub const MAX_CATCH_UP_RUNS: usize = 5 * 366;

const FORCED_REJECTED: &str = "rejected by the sandbox (forced outcome)";
const FORCED_PENDING: &str = "held pending by the sandbox (forced outcome)";
const FORCED_PARTIAL: &str = "rejected by the sandbox (forced partial outcome)";
const NO_DEBTOR: &str =
    "the debtor account no longer exists in the sandbox (initialisation removes accounts)";

/// Where a booked transaction's id goes once the bookings are numbered: payment, execution, booking.
struct Link {
    payment: usize,
    execution: usize,
    booking: usize,
}

/// What deciding one payment needs besides the payment.
struct Context<'a> {
    ledger: &'a mut Ledger,
    links: &'a mut Vec<Link>,
    index: usize,
    at: OffsetDateTime,
    last_of_day: bool,
    instant: bool,
}

/// Runs one batch now (the caller's `at`), taking the run lock. See the module documentation.
pub fn run_batch(
    store: &Store,
    events: &Events,
    at: OffsetDateTime,
    trigger: Trigger,
) -> Result<BatchRun, Refusal> {
    let _runs = store.locks().runs();
    run_locked(store, events, at, trigger)
}

/// The latest requested execution date of a payment's orders (bulk orders may each name one).
fn requested_date(payment: &Payment) -> Option<time::Date> {
    payment
        .payment
        .orders
        .iter()
        .filter_map(|o| o.requested_execution_date)
        .max()
}

/// A byte-level pre-filter on a stored payment: false when its status can be read and is one a run never
/// acts on, so the (many) final payments are not decoded on every run. The first `"status":"` in a stored
/// payment is the top-level one: the fields before it (ids, the validated request) have no such key, and
/// a quote inside a string value is always escaped.
fn may_be_due(json: &[u8]) -> bool {
    const KEY: &[u8] = br#""status":""#;
    let Some(at) = json.windows(KEY.len()).position(|w| w == KEY) else {
        return true;
    };
    match json.get(at + KEY.len()..at + KEY.len() + 4) {
        Some(status) => matches!(status, b"ACTC" | b"ACCP" | b"PDNG" | b"ACSP"),
        None => true,
    }
}

/// True when a run at `at` acts on the payment.
fn is_due(payment: &Payment, at: OffsetDateTime) -> bool {
    if payment.authorised_at.is_some_and(|a| a > at) {
        return false;
    }
    let today = at.date();
    if payment.payment.service == PaymentService::PeriodicPayments {
        return payment.status == PaymentStatus::ACSP
            && payment.next_execution_date.is_some_and(|d| d <= today);
    }
    let held =
        payment.forced == Some(ForcedOutcome::Pending) && payment.status == PaymentStatus::PDNG;
    matches!(
        payment.status,
        PaymentStatus::ACTC | PaymentStatus::ACCP | PaymentStatus::PDNG
    ) && !held
        && requested_date(payment).is_none_or(|d| d <= today)
}

/// One run under the run lock: decided, then written in one atomic operation (statuses, bookings on
/// both sides, balances and the run record), then announced. A crash leaves the run wholly done or not
/// begun; a run not begun is caught up at the next start (scheduled) or simply did not happen (manual).
pub(super) fn run_locked(
    store: &Store,
    events: &Events,
    at: OffsetDateTime,
    trigger: Trigger,
) -> Result<BatchRun, Refusal> {
    store.as_event("batch.run", || {
        let run = run_atomically(store, at, trigger, |_| Ok(()))?;
        publish(events, &run);
        Ok(run)
    })
}

/// Decides and writes one run inside one atomic operation; `also` adds writes that must happen with it
/// (a catch-up's schedule marker).
fn run_atomically(
    store: &Store,
    at: OffsetDateTime,
    trigger: Trigger,
    also: impl FnOnce(&Store) -> Result<(), Refusal>,
) -> Result<BatchRun, Refusal> {
    let _mock_data = store.locks().mock_data();
    store.atomically(|store| {
        let run = decide_and_write(store, at, trigger)?;
        also(store)?;
        Ok(run)
    })
}

fn decide_and_write(
    store: &Store,
    at: OffsetDateTime,
    trigger: Trigger,
) -> Result<BatchRun, Refusal> {
    let last_of_day = schedule::is_last_run_of_day(at);
    let mut due: Vec<Payment> = store
        .table::<Payment>()?
        .list_filtered_parallel(may_be_due)?
        .into_iter()
        .filter(|p| is_due(p, at))
        .collect();
    due.sort_by(|a, b| {
        (a.authorised_at, a.created_at, &a.id).cmp(&(b.authorised_at, b.created_at, &b.id))
    });
    let mut outcomes = Vec::with_capacity(due.len());
    let mut changed = vec![false; due.len()];
    if !due.is_empty() {
        let mut ledger = Ledger::load(store)?;
        let mut links = Vec::new();
        for (index, payment) in due.iter_mut().enumerate() {
            let mut cx = Context {
                ledger: &mut ledger,
                links: &mut links,
                index,
                at,
                last_of_day,
                instant: false,
            };
            if let Some(outcome) = decide(&mut cx, payment) {
                outcomes.push(outcome);
                changed[index] = true;
            }
        }
        commit(store, ledger, &mut due, &changed, links)?;
    }
    let run = BatchRun {
        id: format!("run-{:012}", store.next_number()?),
        at,
        trigger,
        last_of_day,
        processed: outcomes.len(),
        outcomes,
    };
    store.table::<BatchRun>()?.insert(&run)?;
    Ok(run)
}

/// Executes an authorised instant payment at once (the payment service calls this right after
/// authorisation; it must not hold [`super::lock`] then). Returns the payment as stored afterwards; a
/// payment that is not waiting for execution (RCVD, or already final) is returned unchanged.
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
        PaymentStatus::ACTC | PaymentStatus::ACCP | PaymentStatus::PDNG | PaymentStatus::ACSP
    );
    if !waiting || payment.authorised_at.is_none() {
        return Ok((payment, None));
    }
    let mut ledger = Ledger::load(store)?;
    let mut links = Vec::new();
    let mut one = vec![payment];
    let mut cx = Context {
        ledger: &mut ledger,
        links: &mut links,
        index: 0,
        at,
        last_of_day: true,
        instant: true,
    };
    let Some(outcome) = decide(&mut cx, &mut one[0]) else {
        return Ok((one.remove(0), None));
    };
    commit(store, ledger, &mut one, &[true], links)?;
    Ok((one.remove(0), Some(outcome)))
}

/// Records `now` as the schedule's last run when no run is recorded yet (a new store), so that catching up
/// starts there.
pub fn start_schedule(store: &Store, now: OffsetDateTime) -> Result<(), Refusal> {
    let _runs = store.locks().runs();
    let markers = store.table::<ScheduleMarker>()?;
    if markers.get(ScheduleMarker::KEY)?.is_none() {
        markers.insert(&ScheduleMarker {
            id: ScheduleMarker::KEY.to_owned(),
            last_run: now,
        })?;
    }
    Ok(())
}

/// Runs every scheduled run that came due since the last one performed, in order, each as of its own
/// scheduled time (so a clock moved ahead by a month gets its 155 runs, and periodic payments their
/// monthly instances). The last performed run is kept in the store; when none is recorded yet, `since`
/// (the clock's reading before it moved) is where catching up starts, else `now`. A clock moved back
/// restarts the schedule from `now`. At most [`MAX_CATCH_UP_RUNS`] are performed, the latest ones.
///
/// `now` is read once the runs' lock is held: a reading taken before could be overtaken by a clock
/// move and the runs it performed, and would then look like a clock moved back.
pub fn run_due(
    store: &Store,
    events: &Events,
    since: Option<OffsetDateTime>,
    now: impl FnOnce() -> OffsetDateTime,
) -> Result<Vec<BatchRun>, Refusal> {
    let _runs = store.locks().runs();
    let now = now();
    let markers = store.table::<ScheduleMarker>()?;
    let mark = |last_run: OffsetDateTime| {
        markers.insert(&ScheduleMarker {
            id: ScheduleMarker::KEY.to_owned(),
            last_run,
        })
    };
    let last = match markers.get(ScheduleMarker::KEY)? {
        Some(marker) if marker.last_run <= now => marker.last_run,
        Some(_) => {
            mark(now)?;
            return Ok(Vec::new());
        }
        None => {
            let start = since.filter(|s| *s <= now).unwrap_or(now);
            mark(start)?;
            start
        }
    };
    let mut due = schedule::runs_between(last, now);
    if due.len() > MAX_CATCH_UP_RUNS {
        due.drain(..due.len() - MAX_CATCH_UP_RUNS);
    }
    let mut runs = Vec::with_capacity(due.len());
    for at in due {
        // The marker moves with the run, so a crash never performs a scheduled run twice or skips one.
        let run = store.as_event("batch.run", || {
            let run = run_atomically(store, at, Trigger::Scheduled, |store| {
                Ok(store.table::<ScheduleMarker>()?.insert(&ScheduleMarker {
                    id: ScheduleMarker::KEY.to_owned(),
                    last_run: at,
                })?)
            })?;
            publish(events, &run);
            Ok::<_, Refusal>(run)
        })?;
        runs.push(run);
    }
    Ok(runs)
}

/// Writes what a run decided: transactions (numbered, their ids copied into the executions), touched
/// accounts and card accounts, and the changed payments; each tree in one pass.
fn commit(
    store: &Store,
    mut ledger: Ledger,
    payments: &mut [Payment],
    changed: &[bool],
    links: Vec<Link>,
) -> Result<(), Refusal> {
    let bookings = std::mem::take(&mut ledger.bookings);
    // Transactions are numbered here (cheap) so the executions can name them; the heavy part, encoding
    // and writing them, runs beside the payments' on the second core.
    let bookings = crate::sandbox::transactions::number_bookings(store, bookings)?;
    for link in links {
        payments[link.payment].executions[link.execution].transaction_id =
            Some(bookings[link.booking].id.clone());
    }
    let (accounts, cards) = ledger.touched();
    store
        .table::<crate::sandbox::model::Transaction>()?
        .insert_many(&bookings)?;
    store
        .table::<crate::sandbox::model::Account>()?
        .insert_many(accounts)?;
    store
        .table::<crate::sandbox::model::CardAccount>()?
        .insert_many(cards)?;
    store.table::<Payment>()?.insert_many(
        payments
            .iter()
            .zip(changed)
            .filter(|(_, c)| **c)
            .map(|(p, _)| p),
    )?;
    Ok(())
}

fn decide(cx: &mut Context, payment: &mut Payment) -> Option<Outcome> {
    let before = payment.status;
    if payment.payment.service == PaymentService::PeriodicPayments {
        decide_periodic(cx, payment)?;
    } else {
        decide_single(cx, payment)?;
    }
    Some(Outcome {
        payment_id: payment.id.clone(),
        before,
        after: payment.status,
        reason: payment
            .history
            .last()
            .filter(|h| h.at == cx.at && h.status == payment.status && before != payment.status)
            .and_then(|h| h.reason.clone())
            .or_else(|| pending_reason(payment, before, cx.at)),
        funds_available: payment.funds_available,
    })
}

/// The reason shown for a run that left the status as it was (ACCP retried, periodic instance).
fn pending_reason(payment: &Payment, before: PaymentStatus, at: OffsetDateTime) -> Option<String> {
    match (before, payment.status) {
        (PaymentStatus::ACCP, PaymentStatus::ACCP) => Some(INSUFFICIENT_FUNDS.to_owned()),
        (PaymentStatus::ACSP, PaymentStatus::ACSP) => match payment.executions.last() {
            Some(e) if e.at == at => e.reason.clone(),
            _ => Some(format!(
                "{INSUFFICIENT_FUNDS}: the instance is retried at the next run"
            )),
        },
        _ => None,
    }
}

/// Rejects every order of a payment with one reason.
fn reject_all(
    cx: &Context,
    payment: &mut Payment,
    reason: &str,
    funds: Option<bool>,
) -> Option<()> {
    for order in 0..payment.payment.orders.len() {
        payment.executions.push(Execution {
            at: cx.at,
            order,
            status: PaymentStatus::RJCT,
            reason: Some(reason.to_owned()),
            transaction_id: None,
        });
    }
    if funds.is_some() {
        payment.funds_available = funds;
    }
    payment.next_execution_date = None;
    payment.set_status(PaymentStatus::RJCT, Some(reason.to_owned()), cx.at);
    Some(())
}

/// Resolves the debtor, or rejects the payment when the bank would refuse it.
fn checked_debtor(cx: &Context, payment: &mut Payment) -> Result<Debtor, ()> {
    if payment.forced == Some(ForcedOutcome::Rejected) {
        reject_all(cx, payment, FORCED_REJECTED, None);
        return Err(());
    }
    let Some(debtor) = cx.ledger.debtor(payment) else {
        reject_all(cx, payment, NO_DEBTOR, None);
        return Err(());
    };
    if let Some(reason) = cx.ledger.refusal(&debtor) {
        reject_all(cx, payment, &reason, None);
        return Err(());
    }
    Ok(debtor)
}

fn decide_single(cx: &mut Context, payment: &mut Payment) -> Option<()> {
    if payment.forced == Some(ForcedOutcome::Pending) {
        if payment.status == PaymentStatus::PDNG {
            return None;
        }
        payment.set_status(PaymentStatus::PDNG, Some(FORCED_PENDING.to_owned()), cx.at);
        return Some(());
    }
    let Ok(debtor) = checked_debtor(cx, payment) else {
        return Some(()); // rejected
    };
    let currency = cx.ledger.currency(&debtor);
    let orders = &payment.payment.orders;
    let mut rejected: Vec<(usize, String)> = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    for (i, order) in orders.iter().enumerate() {
        let ordered = order.instructed_amount.currency;
        if ordered != currency {
            rejected.push((i, format!("the sandbox does not convert currencies: the order is in {ordered}, the debtor account in {currency}")));
        } else if payment.forced == Some(ForcedOutcome::Partial) && !candidates.is_empty() {
            rejected.push((i, FORCED_PARTIAL.to_owned()));
        } else {
            candidates.push(i);
        }
    }
    let amount = |i: usize| orders[i].instructed_amount.amount;
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
    let as_one_debit = payment.payment.service == PaymentService::BulkPayments
        && payment.payment.batch_booking_preferred == Some(true);
    let on = cx.at.date();
    // (order, status, reason, booking)
    let mut planned: Vec<(usize, PaymentStatus, Option<String>, Option<usize>)> = Vec::new();
    for &i in &to_book {
        let debit = cx.ledger.book(
            payment,
            &payment.payment.orders[i],
            &debtor,
            on,
            !as_one_debit,
        );
        planned.push((i, PaymentStatus::ACSC, None, debit));
    }
    if as_one_debit && !to_book.is_empty() {
        let sum: Decimal = to_book
            .iter()
            .map(|i| payment.payment.orders[*i].instructed_amount.amount)
            .sum();
        let debit = cx
            .ledger
            .book_bulk_debit(payment, &debtor, sum, currency, to_book.len(), on);
        for p in &mut planned {
            p.3 = Some(debit);
        }
    }
    let first_rejection = rejected
        .iter()
        .min_by_key(|(i, _)| *i)
        .map(|(_, r)| r.clone());
    planned.extend(
        rejected
            .into_iter()
            .map(|(i, r)| (i, PaymentStatus::RJCT, Some(r), None)),
    );
    planned.sort_by_key(|p| p.0);
    let n = payment.payment.orders.len();
    let booked = to_book.len();
    for (order, status, reason, booking) in planned {
        payment.executions.push(Execution {
            at: cx.at,
            order,
            status,
            reason,
            transaction_id: None,
        });
        if let Some(booking) = booking {
            cx.links.push(Link {
                payment: cx.index,
                execution: payment.executions.len() - 1,
                booking,
            });
        }
    }
    payment.funds_available = Some(!short);
    let (status, reason) = match (booked, first_rejection) {
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
    Some(())
}

fn decide_periodic(cx: &mut Context, payment: &mut Payment) -> Option<()> {
    let due = payment.next_execution_date?;
    if due > cx.at.date() || payment.forced == Some(ForcedOutcome::Pending) {
        return None;
    }
    let schedule = payment.payment.schedule.clone()?;
    let Ok(debtor) = checked_debtor(cx, payment) else {
        return Some(()); // rejected
    };
    let order = payment.payment.orders.first()?.clone();
    let currency = cx.ledger.currency(&debtor);
    if order.instructed_amount.currency != currency {
        let reason = format!(
            "the sandbox does not convert currencies: the order is in {}, the debtor account in {currency}",
            order.instructed_amount.currency
        );
        return reject_all(cx, payment, &reason, None);
    }
    let short = payment.forced == Some(ForcedOutcome::LackingFunds)
        || cx.ledger.funds(&debtor) < order.instructed_amount.amount;
    payment.funds_available = Some(!short);
    if short && !cx.last_of_day {
        // Retried at the next run today; the outcome says so.
        return Some(());
    }
    let (status, reason, booking) = if short {
        (
            PaymentStatus::RJCT,
            Some(format!(
                "{INSUFFICIENT_FUNDS}: the instance due {due} was not executed"
            )),
            None,
        )
    } else {
        let debit = cx.ledger.book(payment, &order, &debtor, cx.at.date(), true);
        (
            PaymentStatus::ACSC,
            Some(format!("standing order instance due {due} executed")),
            debit,
        )
    };
    payment.executions.push(Execution {
        at: cx.at,
        order: 0,
        status,
        reason,
        transaction_id: None,
    });
    if let Some(booking) = booking {
        cx.links.push(Link {
            payment: cx.index,
            execution: payment.executions.len() - 1,
            booking,
        });
    }
    let next = periodic::next_execution(&schedule, due);
    match schedule.end_date {
        Some(end) if next > end => {
            payment.next_execution_date = None;
            payment.set_status(
                PaymentStatus::ACSC,
                Some(format!("the standing order ended on {end}")),
                cx.at,
            );
        }
        _ => payment.next_execution_date = Some(next),
    }
    Some(())
}

fn publish_status(events: &Events, at: OffsetDateTime, outcome: &Outcome, run: Option<&str>) {
    events.publish(
        "payment.status",
        at,
        json!({
            "paymentId": outcome.payment_id,
            "before": outcome.before,
            "after": outcome.after,
            "reason": outcome.reason,
            "fundsAvailable": outcome.funds_available,
            "batchRunId": run,
        }),
    );
}

fn publish(events: &Events, run: &BatchRun) {
    let mut statuses = std::collections::BTreeMap::<&str, usize>::new();
    for outcome in &run.outcomes {
        *statuses.entry(outcome.after.as_str()).or_default() += 1;
        publish_status(events, run.at, outcome, Some(&run.id));
    }
    events.publish(
        "batch.run",
        run.at,
        json!({
            "id": run.id,
            "at": run.at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            "trigger": run.trigger,
            "lastOfDay": run.last_of_day,
            "processed": run.processed,
            "statuses": statuses,
        }),
    );
}
