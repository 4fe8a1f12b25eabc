//! The log's own behaviour that needs no HTTP: following the sandbox's events.

use super::model::Entry;
use super::TrafficLog;
use crate::events::{EventKind, Events};
use crate::store::Store;
use std::time::{Duration, Instant};
use time::OffsetDateTime;

/// Waits until the log holds an event of `kind`, up to a few seconds.
fn wait_for_event(log: &TrafficLog, kind: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        log.settle(Duration::from_secs(1));
        let found = log
            .page(
                None,
                10,
                |entry| matches!(entry, Entry::Event(e) if e.event == kind),
            )
            .expect("page");
        if !found.is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn follows_events_when_started_outside_any_runtime() {
    // An embedding app (the desktop's GUI thread) may build the log with no tokio runtime current.
    assert!(tokio::runtime::Handle::try_current().is_err());
    let events = Events::default();
    let log = TrafficLog::start(Store::temporary().unwrap(), &events).unwrap();
    events.publish(
        EventKind::Clock,
        OffsetDateTime::now_utc(),
        serde_json::json!({"to": "x"}),
    );
    assert!(
        wait_for_event(&log, "clock"),
        "the clock move is on the timeline"
    );
}

#[tokio::test]
async fn follows_events_on_the_current_runtime() {
    let events = Events::default();
    let log = TrafficLog::start(Store::temporary().unwrap(), &events).unwrap();
    events.publish(
        EventKind::BatchRun,
        OffsetDateTime::now_utc(),
        serde_json::json!({}),
    );
    let found = tokio::task::spawn_blocking(move || wait_for_event(&log, "batch.run"));
    assert!(found.await.unwrap(), "the batch run is on the timeline");
}

#[test]
fn other_kinds_of_event_stay_off_the_timeline() {
    let events = Events::default();
    let log = TrafficLog::start(Store::temporary().unwrap(), &events).unwrap();
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
    assert!(wait_for_event(&log, "clock"));
    let all = log.page(None, 10, |_| true).unwrap();
    assert_eq!(all.len(), 1, "only the clock move: {all:?}");
}
