//! One batch run: every due payment (`due`) decided in the order it was authorised against the in-memory
//! [`Ledger`] (`decide`), then everything written in one atomic operation (`write`) with the run record,
//! then announced (`announce`). A crash leaves the run wholly done or not begun; a run not begun is
//! caught up at the next start (scheduled, `catch_up`) or simply did not happen (manual). The caller makes
//! the writes durable (the HTTP layer does after every request; the scheduler after every tick).

use super::announce::publish;
use super::decide::{decide, Context};
use super::due::{in_run_order, is_due, may_be_due};
use super::ledger::Ledger;
use super::model::{BatchRun, Trigger};
use super::schedule;
use super::write::commit;
use crate::bank::events::{EventKind, Events};
use crate::bank::pis::model::Payment;
use crate::domain::refusal::Refusal;
use crate::store::Store;
use time::OffsetDateTime;

/// From this many payments decided, a run frees them on a thread of their own.
const FREED_ASIDE: usize = 10_000;

/// Runs one batch now (the caller's `at`), taking the run lock. See the module documentation.
pub fn run_batch(
    store: &Store,
    events: &Events,
    at: OffsetDateTime,
    trigger: Trigger,
) -> Result<BatchRun, Refusal> {
    let _runs = store.locks().runs();
    // The run is an event of the timeline (docs/rewind.md): its writes are journaled under it, unless a
    // request asked for it, which is then their cause.
    store.as_event(EventKind::BatchRun, || {
        let run = run_atomically(store, at, trigger, |_| Ok(()))?;
        publish(events, &run);
        Ok(run)
    })
}

/// Decides and writes one run inside one atomic operation; `also` adds writes that must happen with it
/// (a catch-up's schedule marker). The caller holds the run lock.
pub(super) fn run_atomically(
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
    in_run_order(&mut due);
    let mut outcomes = Vec::with_capacity(due.len());
    let mut changed = vec![false; due.len()];
    if !due.is_empty() {
        let mut ledger = Ledger::load(store)?;
        let mut cx = Context {
            ledger: &mut ledger,
            at,
            last_of_day,
            instant: false,
        };
        for (index, payment) in due.iter_mut().enumerate() {
            if let Some(outcome) = decide(&mut cx, payment) {
                outcomes.push(outcome);
                changed[index] = true;
            }
        }
        commit(store, ledger, &due, &changed)?;
    }
    if due.len() >= FREED_ASIDE {
        // Freeing 100 000 decoded payments is work of its own: done on the other core, the run does not
        // wait for it.
        std::thread::spawn(move || drop(due));
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
