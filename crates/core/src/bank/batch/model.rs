//! The batch simulator's records: one stored [`BatchRun`] per run with what happened to each payment it
//! processed, and the schedule marker that remembers up to which scheduled run the sandbox has caught up.

use crate::bank::pis::status::PaymentStatus;
use crate::store::Record;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// What started a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Trigger {
    /// One of the five daily runs (by the ticker, or caught up after the clock was moved).
    Scheduled,
    /// `POST /v1/sandbox/batch-runs`: a trainer or tester asked for a run now.
    Manual,
}

/// What a run did to one payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = RunOutcome)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub payment_id: String,
    pub before: PaymentStatus,
    pub after: PaymentStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub funds_available: Option<bool>,
}

/// One batch run, stored in tree "batch-runs" so the workbench can show past runs after a restart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchRun {
    /// `run-<number>`, zero-padded so that key order is the order the runs happened in.
    pub id: String,
    /// The simulated instant the run ran as (a scheduled time, or the clock's now for manual runs).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    pub trigger: Trigger,
    /// True when this was the day's last scheduled run (payments still short of funds were rejected).
    pub last_of_day: bool,
    /// How many payments the run looked at and acted on.
    pub processed: usize,
    pub outcomes: Vec<Outcome>,
}

impl Record for BatchRun {
    const TREE: &'static str = "batch-runs";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// The last scheduled run the sandbox has performed (or decided to skip). Kept in the store so that a
/// restart catches up the runs missed while the service was down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleMarker {
    pub id: String,
    #[serde(with = "time::serde::rfc3339")]
    pub last_run: OffsetDateTime,
}

impl ScheduleMarker {
    pub const KEY: &'static str = "schedule";
}

impl Record for ScheduleMarker {
    const TREE: &'static str = "batch-schedule";
    fn key(&self) -> String {
        self.id.clone()
    }
}
