//! A broadcast of what happens in the sandbox — payment status changes, batch runs, clock moves, SCA steps
//! — for the workbench's live views and the event streams. The kinds of event are one enum, [`EventKind`]:
//! publishers name their event with it, and the documents describe the events from it. Every event gets a
//! number; the last [`REPLAY`] are kept so that a listener that reconnects resumes where it left off (SSE
//! `Last-Event-ID`).
//! Bounded: a slow listener loses the oldest events rather than holding memory; nothing here is the record
//! of truth (the store is). When the server stops, [`Events::end_streams`] tells every event stream to end,
//! so that a graceful stop finishes at once instead of waiting for listeners that never leave.

use serde::Serialize;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use time::OffsetDateTime;
use tokio::sync::{broadcast, watch};

/// The member of an event's data naming the timeline entry its changes were recorded under, when that
/// is not the event's own (docs/rewind.md).
pub const CAUSED_BY: &str = "causedBy";

/// How many events a listener may fall behind before it misses some.
const CAPACITY: usize = 1024;
/// How many past events a reconnecting listener can be given.
pub const REPLAY: usize = 1024;

/// Declares [`EventKind`] from one list: each kind's description (its doc), its name on the wire and the
/// OpenAPI component its data follows, side by side.
macro_rules! event_kinds {
    ($($(#[doc = $doc:literal])+ $kind:ident = $name:literal, data $data:literal;)+) => {
        /// What an event is about, published as its name (the SSE `event:` line, the JSON's `kind`, the
        /// timeline entry's `event`). The documents describe the kinds from here: the workbench's
        /// `WorkbenchEvent` and `TimelineEventData`, the traffic log's `EventEntry.event`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum EventKind {
            $($(#[doc = $doc])+ $kind,)+
        }

        impl EventKind {
            /// Every kind, in the order the workbench's document lists them.
            pub const ALL: &'static [EventKind] = &[$(EventKind::$kind),+];

            /// The name on the wire.
            pub const fn name(self) -> &'static str {
                match self {
                    $(EventKind::$kind => $name,)+
                }
            }

            /// The OpenAPI component (`#/components/schemas/…`) its `data` follows.
            pub const fn data_schema(self) -> &'static str {
                match self {
                    $(EventKind::$kind => $data,)+
                }
            }
        }
    };
}

event_kinds! {
    /// A payment's status changed: created (RCVD), authorised, decided by a batch run or an instant
    /// execution, cancelled.
    PaymentStatus = "payment.status", data "PaymentStatusEvent";
    /// A batch run finished (on schedule, on demand, or caught up after a clock move).
    BatchRun = "batch.run", data "BatchRunEvent";
    /// The sandbox clock was set, advanced or frozen.
    Clock = "clock", data "ClockReading";
    /// Mock data was written (customers, accounts, card accounts, transactions, agreements), or all of it
    /// changed (an initialisation, a restore, an import, a rewind): views read it afresh.
    SandboxChanged = "sandbox.changed", data "SandboxChangedEvent";
    /// The PSU moved through the bank's SCA pages. Described in the documents; nothing publishes it yet.
    ScaStep = "sca.step", data "ScaStepEvent";
    /// The workbench captured an SCA redirect to the TPP.
    ScaCallback = "sca.callback", data "Callback";
    /// A persona was issued or changed.
    PersonaChanged = "persona.changed", data "PersonaChangedEvent";
    /// The workbench or an import changed the sandbox's state (the entry's writes are its state
    /// changes). Published under any event cause, it takes the cause's number.
    StateChange = "state.change", data "StateChangeEvent";
    /// The sandbox returned to the state at another timeline entry.
    Rewind = "rewind", data "RewindEvent";
    /// The traffic log was cleared: its entries and their files are gone, and so are the journeys; views
    /// of the timeline read it afresh.
    TrafficCleared = "traffic.cleared", data "TrafficClearedEvent";
}

impl EventKind {
    /// The kinds the traffic log's timeline records (the others only reach the live streams), in the
    /// order the documents list them.
    pub const TIMELINE: &'static [EventKind] = &[
        EventKind::PaymentStatus,
        EventKind::BatchRun,
        EventKind::ScaStep,
        EventKind::Clock,
        EventKind::StateChange,
        EventKind::Rewind,
    ];

    /// Whether the traffic log's timeline records it.
    pub fn on_timeline(self) -> bool {
        EventKind::TIMELINE.contains(&self)
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One thing that happened.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Increasing from 1 for the life of the process.
    #[serde(skip)]
    pub id: u64,
    /// Serialised as its name: "payment.status", "batch.run", …
    pub kind: EventKind,
    /// The timeline entry number it takes, when it is the event whose writes the change journal recorded
    /// under that number (see `domain::cause::claim`); otherwise numbered as it is stored.
    #[serde(skip)]
    pub entry: Option<u64>,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    pub data: serde_json::Value,
}

/// The broadcast. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Events {
    sender: broadcast::Sender<Event>,
    next: Arc<AtomicU64>,
    recent: Arc<Mutex<VecDeque<Event>>>,
    /// True once the server stops: the streams over this broadcast end.
    ending: Arc<watch::Sender<bool>>,
}

impl Default for Events {
    fn default() -> Self {
        Events {
            sender: broadcast::channel(CAPACITY).0,
            next: Arc::new(AtomicU64::new(1)),
            recent: Arc::new(Mutex::new(VecDeque::with_capacity(REPLAY))),
            ending: Arc::new(watch::channel(false).0),
        }
    }
}

impl Events {
    /// Publishes an event; nobody listening is fine.
    pub fn publish(&self, kind: EventKind, at: OffsetDateTime, data: serde_json::Value) {
        // Numbered and sent under the ring's lock, so ids reach listeners in order.
        let entry = crate::domain::cause::claim(kind.name(), kind == EventKind::StateChange);
        let mut data = data;
        if entry.is_none() {
            // Its changes were recorded under another entry (the exchange that asked for a batch run, the
            // run a payment's status step belongs to): rewinding to this event returns to that entry.
            if let (Some(cause), Some(fields)) =
                (crate::domain::cause::current_number(), data.as_object_mut())
            {
                fields.insert(CAUSED_BY.to_owned(), cause.into());
            }
        }
        let mut recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        let event = Event {
            id: self.next.fetch_add(1, Ordering::SeqCst),
            kind,
            entry,
            at,
            data,
        };
        if recent.len() == REPLAY {
            recent.pop_front();
        }
        recent.push_back(event.clone());
        let _ = self.sender.send(event);
    }

    /// A new listener, receiving events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    /// A listener resuming after event `last_seen`: the kept events after it (and whether some between
    /// were no longer kept), then everything from now on, without a gap or a repeat.
    pub fn resume(&self, last_seen: u64) -> (Vec<Event>, bool, broadcast::Receiver<Event>) {
        let recent = self.recent.lock().unwrap_or_else(|p| p.into_inner());
        let receiver = self.sender.subscribe();
        let missed_some = recent.front().is_some_and(|first| first.id > last_seen + 1);
        let backlog = recent
            .iter()
            .filter(|e| e.id > last_seen)
            .cloned()
            .collect();
        (backlog, missed_some, receiver)
    }

    /// Tells every event stream (the sandbox's and the traffic log's) to end: the server is stopping.
    pub fn end_streams(&self) {
        self.ending.send_replace(true);
    }

    /// Completes once [`Events::end_streams`] was called (at once if it was already).
    pub fn streams_end(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut ending = self.ending.subscribe();
        async move {
            let _ = ending.wait_for(|&ending| ending).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use time::macros::datetime;

    const AT: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

    #[test]
    fn a_listener_resumes_after_the_last_event_it_saw() {
        let events = Events::default();
        for n in 0..5 {
            events.publish(EventKind::Clock, AT, json!({ "n": n }));
        }
        let (backlog, missed, mut live) = events.resume(3);
        assert_eq!(backlog.iter().map(|e| e.id).collect::<Vec<_>>(), [4, 5]);
        assert!(!missed);
        events.publish(EventKind::Clock, AT, json!({ "n": 5 }));
        assert_eq!(live.try_recv().unwrap().id, 6);
    }

    #[test]
    fn a_listener_too_far_behind_is_told_it_missed_events() {
        let events = Events::default();
        for _ in 0..REPLAY + 10 {
            events.publish(EventKind::Clock, AT, json!({}));
        }
        let (backlog, missed, _) = events.resume(2);
        assert!(missed);
        assert_eq!(backlog.len(), REPLAY);
    }

    #[test]
    fn every_kind_keeps_its_name_on_the_wire() {
        let names: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "payment.status",
                "batch.run",
                "clock",
                "sandbox.changed",
                "sca.step",
                "sca.callback",
                "persona.changed",
                "state.change",
                "rewind",
                "traffic.cleared"
            ]
        );
        assert!(EventKind::TIMELINE
            .iter()
            .all(|k| EventKind::ALL.contains(k)));
        assert!(!EventKind::SandboxChanged.on_timeline() && EventKind::Rewind.on_timeline());
        let events = Events::default();
        events.publish(EventKind::PaymentStatus, AT, json!({"paymentId": "p1"}));
        let (kept, _, _) = events.resume(0);
        assert_eq!(
            serde_json::to_value(&kept[0]).unwrap(),
            json!({"kind": "payment.status", "at": "2026-06-01T12:00:00Z", "data": {"paymentId": "p1"}})
        );
        assert_eq!(
            kept[0].kind.to_string(),
            "payment.status",
            "the SSE event name"
        );
    }
}
