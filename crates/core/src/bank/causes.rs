//! Causes as the service sets them: work run as an event of the timeline, and the `state.change` event
//! that carries the number of work that wrote without an event of its own (an import, a workbench edit),
//! so that every change the journal recorded has an entry on the timeline to show it and return to it.

use crate::bank::events::EventKind;
use crate::bank::state::BankState;
use crate::domain::cause::{self, Cause, EventCause};
use crate::store::Store;
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;

impl Store {
    /// Runs `work` as an event of `kind` (a batch run, a clock move), numbered on the timeline when it
    /// first writes, unless it runs inside an exchange (which is then its cause). The event of that kind
    /// published inside takes the number.
    pub fn as_event<R>(&self, kind: EventKind, work: impl FnOnce() -> R) -> R {
        let timeline = self.journal().and_then(|j| j.timeline());
        cause::as_event(kind.name(), timeline, work).0
    }
}

/// Publishes `state.change` with `data` under `cause` when it wrote and no event took its number.
fn announce(state: &BankState, cause: &Arc<EventCause>, data: impl FnOnce() -> Value) {
    if cause.wrote() && !cause.claimed() {
        // Published under the cause, so that it takes the cause's number.
        cause::within_sync(Cause::Event(Arc::clone(cause)), || {
            state
                .events
                .publish(EventKind::StateChange, state.clock.now(), data())
        });
    }
}

/// Runs blocking `work` as a `state.change` of the timeline (unless inside an exchange): `data` says what
/// it was, e.g. `{"what": "import", "mode": "replace"}`.
pub fn recorded<R>(state: &BankState, data: impl FnOnce() -> Value, work: impl FnOnce() -> R) -> R {
    let timeline = state.store.journal().and_then(|j| j.timeline());
    let (out, cause) = cause::as_event(EventKind::StateChange.name(), timeline, work);
    if let Some(cause) = cause {
        announce(state, &cause, data);
    }
    out
}

/// [`recorded`] for async work (a workbench request). `data` is made once the work is done, from what
/// it returned.
pub async fn recorded_async<F: Future>(
    state: &BankState,
    future: F,
    data: impl FnOnce(&F::Output) -> Value,
) -> F::Output {
    if matches!(cause::current(), Some(Cause::Entry(_))) {
        return future.await;
    }
    let timeline = state.store.journal().and_then(|j| j.timeline());
    let event = cause::event(EventKind::StateChange.name(), timeline);
    let out = cause::within(Cause::Event(Arc::clone(&event)), future).await;
    announce(state, &event, || data(&out));
    out
}
