//! A broadcast of what happens in the sandbox — payment status changes, batch runs, SCA steps — for the
//! workbench's live views and the `GET /v1/sandbox/events` stream. Bounded: a slow listener loses the
//! oldest events rather than holding memory; nothing here is the record of truth (the store is).

use serde::Serialize;
use time::OffsetDateTime;
use tokio::sync::broadcast;

/// How many events a listener may fall behind before it misses some.
const CAPACITY: usize = 1024;

/// One thing that happened.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// e.g. "payment.status", "batch.run", "sca.step".
    pub kind: &'static str,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    pub data: serde_json::Value,
}

/// The broadcast. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Events {
    sender: broadcast::Sender<Event>,
}

impl Default for Events {
    fn default() -> Self {
        Events {
            sender: broadcast::channel(CAPACITY).0,
        }
    }
}

impl Events {
    /// Publishes an event; nobody listening is fine.
    pub fn publish(&self, kind: &'static str, at: OffsetDateTime, data: serde_json::Value) {
        let _ = self.sender.send(Event { kind, at, data });
    }

    /// A new listener, receiving events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }
}
