//! What caused a write: the exchange the capture layer numbered, or an event (a batch run, a clock move,
//! an import, a workbench change, a rewind) that takes its number on the timeline when it first writes.
//! The cause travels with the work as a task-local (as `REQUEST_WRITES` does for durability), set by the
//! layer or function where the work begins; the journal reads it when it records a commit.
//!
//! Work handed to another thread (`spawn_blocking`) takes its cause along with [`carry`].

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The timeline the journal's positions refer to: the traffic log's entry numbers.
pub trait Timeline: Send + Sync {
    /// A fresh entry number for an event being recorded now; `None` when the log records nothing.
    fn reserve(&self) -> Option<u64>;
    /// The last entry number given out (0 when none).
    fn last_given(&self) -> u64;
    /// The most bytes the log keeps; the journal keeps at most as many of its own.
    fn max_bytes(&self) -> u64;
}

/// The cause of the writes made by the work running now.
#[derive(Clone)]
pub enum Cause {
    /// An exchange of the traffic log (numbered when its request arrived).
    Entry(u64),
    /// An event that is numbered when it first writes, and recorded on the timeline under that number.
    Event(Arc<EventCause>),
}

/// An event cause: its kind (the event that will carry its number) and, once it wrote, its number.
pub struct EventCause {
    kind: &'static str,
    timeline: Option<Arc<dyn Timeline>>,
    /// 0: the timeline gave none (the log is off).
    id: OnceLock<u64>,
    wrote: AtomicBool,
    claimed: AtomicBool,
}

impl EventCause {
    /// Its entry number, taken now if not yet (0 when the timeline gives none).
    pub fn id(&self) -> u64 {
        *self.id.get_or_init(|| {
            self.timeline
                .as_ref()
                .and_then(|t| t.reserve())
                .unwrap_or(0)
        })
    }

    /// Its entry number if it was given one already (it wrote, or an event took it); never takes one.
    pub fn number(&self) -> Option<u64> {
        self.id.get().copied().filter(|id| *id > 0)
    }

    pub(crate) fn note_write(&self) {
        self.wrote.store(true, Ordering::SeqCst);
    }

    /// True when something was written under it.
    pub fn wrote(&self) -> bool {
        self.wrote.load(Ordering::SeqCst)
    }

    /// True when an event took its number.
    pub fn claimed(&self) -> bool {
        self.claimed.load(Ordering::SeqCst)
    }

    pub fn kind(&self) -> &'static str {
        self.kind
    }
}

tokio::task_local! {
    static CAUSE: Cause;
}

/// The cause of the work running on this task or thread, if one was set.
pub fn current() -> Option<Cause> {
    CAUSE.try_with(Cause::clone).ok()
}

/// The entry number the writes of the work running now are recorded under, if it has one yet: the
/// exchange's, or the number its event cause took. An event published inside that does not take the
/// number itself names it as its cause (`causedBy`), which is where rewinding to it returns.
pub fn current_number() -> Option<u64> {
    match current()? {
        Cause::Entry(id) => Some(id).filter(|id| *id > 0),
        Cause::Event(cause) => cause.number(),
    }
}

/// Runs `future` with `cause` as the cause of its writes.
pub async fn within<F: Future>(cause: Cause, future: F) -> F::Output {
    CAUSE.scope(cause, future).await
}

/// Runs `work` with `cause` as the cause of its writes (blocking code).
pub fn within_sync<R>(cause: Cause, work: impl FnOnce() -> R) -> R {
    CAUSE.sync_scope(cause, work)
}

/// `work` to run on another thread with the cause of the caller.
pub fn carry<R>(work: impl FnOnce() -> R + Send) -> impl FnOnce() -> R + Send {
    let cause = current();
    move || match cause {
        Some(cause) => within_sync(cause, work),
        None => work(),
    }
}

/// A new event cause of `kind`, numbered on `timeline` when it first writes.
pub fn event(kind: &'static str, timeline: Option<Arc<dyn Timeline>>) -> Arc<EventCause> {
    Arc::new(EventCause {
        kind,
        timeline,
        id: OnceLock::new(),
        wrote: AtomicBool::new(false),
        claimed: AtomicBool::new(false),
    })
}

/// Runs `work` as an event of `kind` — unless it runs inside an exchange, which is then its cause (a
/// batch run asked for by a request belongs to that request). Returns what `work` returned and the event
/// cause it ran under, if any.
pub fn as_event<R>(
    kind: &'static str,
    timeline: Option<Arc<dyn Timeline>>,
    work: impl FnOnce() -> R,
) -> (R, Option<Arc<EventCause>>) {
    if matches!(current(), Some(Cause::Entry(_))) {
        return (work(), None);
    }
    let cause = event(kind, timeline);
    let out = within_sync(Cause::Event(Arc::clone(&cause)), work);
    (out, Some(cause))
}

/// The entry number an event of `kind` published now takes: the number of the event cause it is
/// published under, when the cause is of that kind (or for `any_cause`: `state.change`, the event that
/// stands for work without an event of its own) and no event took it yet; `None` otherwise (the event is
/// numbered as it is stored).
pub fn claim(kind: &str, any_cause: bool) -> Option<u64> {
    let Some(Cause::Event(cause)) = current() else {
        return None;
    };
    if cause.kind != kind && !any_cause {
        return None;
    }
    if cause.claimed.swap(true, Ordering::SeqCst) {
        return None;
    }
    Some(cause.id()).filter(|id| *id > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    struct Counter(AtomicU64);

    impl Timeline for Counter {
        fn reserve(&self) -> Option<u64> {
            Some(self.0.fetch_add(1, Ordering::SeqCst) + 1)
        }
        fn last_given(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
        fn max_bytes(&self) -> u64 {
            u64::MAX
        }
    }

    #[test]
    fn an_event_is_numbered_once_and_claimed_once_by_its_kind() {
        let timeline: Arc<dyn Timeline> = Arc::new(Counter(AtomicU64::new(10)));
        let ((), cause) = as_event("clock", Some(timeline), || {
            assert_eq!(
                claim("batch.run", false),
                None,
                "another kind does not take it"
            );
            assert_eq!(claim("clock", false), Some(11));
            assert_eq!(claim("clock", false), None, "taken once");
        });
        let cause = cause.unwrap();
        assert_eq!(cause.id(), 11);
        assert!(cause.claimed());
    }

    #[test]
    fn the_generic_event_takes_any_causes_number() {
        let timeline: Arc<dyn Timeline> = Arc::new(Counter(AtomicU64::new(3)));
        let ((), cause) = as_event("batch.run", Some(timeline), || {
            assert_eq!(claim("state.change", true), Some(4));
        });
        assert!(cause.unwrap().claimed());
    }

    #[test]
    fn inside_an_exchange_the_exchange_stays_the_cause() {
        within_sync(Cause::Entry(5), || {
            let ((), cause) = as_event("batch.run", None, || {
                assert!(matches!(current(), Some(Cause::Entry(5))));
            });
            assert!(cause.is_none());
        });
    }

    #[test]
    fn work_carried_to_another_thread_keeps_its_cause() {
        let seen = within_sync(Cause::Entry(7), || {
            let work = carry(|| match current() {
                Some(Cause::Entry(id)) => id,
                _ => 0,
            });
            std::thread::spawn(work).join().unwrap()
        });
        assert_eq!(seen, 7);
    }
}
