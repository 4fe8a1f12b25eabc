//! Catching up the scheduled runs after time moved: every run whose time came since the last one
//! performed, each as of its own time, the schedule marker moving with each in the same atomic operation
//! (so a crash never performs a scheduled run twice or skips one).

use super::announce::publish;
use super::model::{BatchRun, ScheduleMarker, Trigger};
use super::run::run_atomically;
use super::schedule;
use crate::bank::events::{EventKind, Events};
use crate::domain::refusal::Refusal;
use crate::store::Store;
use time::OffsetDateTime;

/// The most scheduled runs one catch-up performs (five a day for a leap year); older missed runs are
/// skipped, so a clock moved decades ahead answers in bounded time.
pub const MAX_CATCH_UP_RUNS: usize = 5 * 366;

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
/// scheduled time (so a clock moved ahead by a month gets its 155 runs). The last performed run is kept in the store; when none is recorded yet, `since`
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
        // Each run is its own event of the timeline (docs/rewind.md).
        let run = store.as_event(EventKind::BatchRun, || {
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
