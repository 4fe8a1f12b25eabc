//! The log's own behaviour that needs no HTTP: following the sandbox's events.

use super::model::Entry;
use super::TrafficLog;
use std::sync::Arc;
use time::OffsetDateTime;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;
use xs2a_core::bank::events::{EventKind, Events};
use xs2a_core::store::Store;

/// Waits until the log stores an event of `kind`, however long its writer takes: `live` is a subscription
/// made before the event was published, so its announcement is heard (or, when the listener fell behind,
/// the stored log has it). False when the log stopped first. No deadline and no sleep.
fn wait_for_event(mut live: Receiver<Arc<Entry>>, log: &TrafficLog, kind: &str) -> bool {
    loop {
        match live.blocking_recv().as_deref() {
            Ok(Entry::Event(e)) if e.event == kind => return true,
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => {
                let stored = log
                    .page(
                        None,
                        10,
                        |entry| matches!(entry, Entry::Event(e) if e.event == kind),
                    )
                    .expect("page");
                if !stored.is_empty() {
                    return true;
                }
            }
            Err(RecvError::Closed) => return false,
        }
    }
}

#[test]
fn follows_events_when_started_outside_any_runtime() {
    // An embedding app (the desktop's GUI thread) may build the log with no tokio runtime current.
    assert!(tokio::runtime::Handle::try_current().is_err());
    let events = Events::default();
    let log = TrafficLog::start(Store::temporary().unwrap(), &events).unwrap();
    let live = log.subscribe();
    events.publish(
        EventKind::Clock,
        OffsetDateTime::now_utc(),
        serde_json::json!({"to": "x"}),
    );
    assert!(
        wait_for_event(live, &log, "clock"),
        "the clock move is on the timeline"
    );
}

#[tokio::test]
async fn follows_events_on_the_current_runtime() {
    let events = Events::default();
    let log = TrafficLog::start(Store::temporary().unwrap(), &events).unwrap();
    let live = log.subscribe();
    events.publish(
        EventKind::BatchRun,
        OffsetDateTime::now_utc(),
        serde_json::json!({}),
    );
    let found = tokio::task::spawn_blocking(move || wait_for_event(live, &log, "batch.run"));
    assert!(found.await.unwrap(), "the batch run is on the timeline");
}

#[test]
fn other_kinds_of_event_stay_off_the_timeline() {
    let events = Events::default();
    let log = TrafficLog::start(Store::temporary().unwrap(), &events).unwrap();
    let live = log.subscribe();
    events.publish(
        EventKind::PersonaChanged,
        OffsetDateTime::now_utc(),
        serde_json::json!({}),
    );
    events.publish(
        EventKind::Clock,
        OffsetDateTime::now_utc(),
        serde_json::json!({}),
    );
    assert!(wait_for_event(live, &log, "clock"));
    let all = log.page(None, 10, |_| true).unwrap();
    assert_eq!(all.len(), 1, "only the clock move: {all:?}");
}

#[test]
fn a_queued_item_is_small_because_every_slot_of_the_queue_is_allocated_at_start() {
    // std's bounded channel allocates and stamps all QUEUE slots when the log starts (as tokio's
    // broadcast does its 4,096, which therefore carries `Arc<Entry>`): a slot is as large as the largest
    // kind of item. An event inline made the queue 1.6 MB, resident from the first second (heaptrack).
    assert!(
        std::mem::size_of::<super::Pending>() <= 24,
        "a queued item is {} bytes: box the large kind",
        std::mem::size_of::<super::Pending>()
    );
}
