//! Telling the workbench what a run did: one `payment.status` event per payment it acted on and one
//! `batch.run` event with the counts per status, on the event stream (`crate::bank::events`).
//!
//! A run that acted on more payments than the stream keeps ([`REPLAY`], 1 024) announces only itself:
//! no listener could receive more (the broadcast holds as many, so a live listener falls behind and a
//! reconnecting one is given the last 1 024), and building 100 000 events nobody receives was a tenth of
//! such a run. Its `batch.run` event says so (`paymentEvents: false`); the run record lists every
//! outcome.

use super::model::{BatchRun, Outcome};
use crate::bank::events::{EventKind, Events, REPLAY};
use serde_json::json;
use time::OffsetDateTime;

/// One payment's change, by run `run` (None for an instant execution).
pub(super) fn publish_status(
    events: &Events,
    at: OffsetDateTime,
    outcome: &Outcome,
    run: Option<&str>,
) {
    events.publish(
        EventKind::PaymentStatus,
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

/// A whole run: its payments' changes (unless there are more than the stream keeps), then the run itself.
pub(super) fn publish(events: &Events, run: &BatchRun) {
    let payment_events = run.outcomes.len() <= REPLAY;
    let mut statuses = std::collections::BTreeMap::<&str, usize>::new();
    for outcome in &run.outcomes {
        *statuses.entry(outcome.after.as_str()).or_default() += 1;
        if payment_events {
            publish_status(events, run.at, outcome, Some(&run.id));
        }
    }
    events.publish(
        EventKind::BatchRun,
        run.at,
        json!({
            "id": run.id,
            "at": run.at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            "trigger": run.trigger,
            "lastOfDay": run.last_of_day,
            "processed": run.processed,
            "statuses": statuses,
            "paymentEvents": payment_events,
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::batch::model::Trigger;
    use crate::bank::pis::status::PaymentStatus;
    use time::macros::datetime;

    fn run_of(payments: usize) -> BatchRun {
        BatchRun {
            id: "run-000000000001".to_owned(),
            at: datetime!(2026-06-01 11:00 UTC),
            trigger: Trigger::Manual,
            last_of_day: false,
            processed: payments,
            outcomes: (0..payments)
                .map(|i| Outcome {
                    payment_id: format!("p-{i}"),
                    before: PaymentStatus::ACTC,
                    after: PaymentStatus::ACSC,
                    reason: None,
                    funds_available: Some(true),
                })
                .collect(),
        }
    }

    /// The kinds of the events a run publishes, and its `batch.run` event.
    fn published(payments: usize) -> (Vec<&'static str>, serde_json::Value) {
        let events = Events::default();
        publish(&events, &run_of(payments));
        let (kept, _, _) = events.resume(0);
        let kinds = kept.iter().map(|e| e.kind.name()).collect();
        let run = kept.last().expect("the run's event").data.clone();
        (kinds, run)
    }

    #[test]
    fn a_run_announces_each_payment_while_the_stream_can_hold_them() {
        let (kinds, run) = published(3);
        assert_eq!(
            kinds,
            [
                "payment.status",
                "payment.status",
                "payment.status",
                "batch.run"
            ]
        );
        assert_eq!(run["paymentEvents"], true);
        let (_, run) = published(REPLAY);
        assert_eq!(
            run["paymentEvents"], true,
            "up to as many as the stream keeps"
        );
        assert_eq!(run["statuses"]["ACSC"], REPLAY);
    }

    #[test]
    fn a_larger_run_announces_only_itself_and_says_so() {
        let (kinds, run) = published(REPLAY + 1);
        assert_eq!(kinds, ["batch.run"]);
        assert_eq!(run["paymentEvents"], false);
        assert_eq!(run["processed"], REPLAY + 1);
        assert_eq!(run["statuses"]["ACSC"], REPLAY + 1);
    }
}
