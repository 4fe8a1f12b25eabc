//! The state at one point against the state at another: only the records the journal changed between the
//! two can differ, so the comparison reads those records at both points (a record's bytes at a point are
//! what the first later change replaced, or its current bytes when none did).

use super::point::{record_of, refusal, Point};
use super::summary::{summarise, ChangeSummary, Sides};
use crate::app_state::AppState;
use serde::Serialize;
use std::collections::BTreeMap;
use xs2a_core::domain::refusal::CoreResult;

/// Two points and what differs from the first to the second.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub a: Point,
    pub b: Point,
    /// Records as they are at `a` ("before") and at `b` ("after").
    #[serde(flatten)]
    pub summary: ChangeSummary,
}

/// The state at `a` against the state at `b`.
pub fn compare(state: &AppState, a: Point, b: Point) -> CoreResult<Comparison> {
    let at_a = record_of(state, a, "a")?;
    let at_b = record_of(state, b, "b")?;
    let (low, high) = (at_a.min(at_b), at_a.max(at_b));
    let journal = super::point::journal(state, "a")?;
    // The journal's lock holds commits back while the records and the current bytes are read together.
    let held = journal.lock();
    if !journal
        .holds(&held, low)
        .map_err(xs2a_core::domain::refusal::Refusal::from)?
    {
        return Err(refusal(
            xs2a_core::store::journal::Journal::pruned(&held),
            "a",
        ));
    }
    let sets = journal
        .records_between(low, u64::MAX)
        .map_err(xs2a_core::domain::refusal::Refusal::from)?;
    // Per record changed in [low, high): its bytes at low, and at high.
    let mut at_low: BTreeMap<(&'static str, Vec<u8>), Option<Vec<u8>>> = BTreeMap::new();
    let mut at_high: BTreeMap<(&'static str, Vec<u8>), Option<Vec<u8>>> = BTreeMap::new();
    for set in &sets {
        for change in &set.changes {
            let place = (change.tree, change.key.clone());
            if set.seq < high {
                at_low.entry(place).or_insert_with(|| change.before.clone());
            } else if at_low.contains_key(&place) {
                at_high
                    .entry(place)
                    .or_insert_with(|| change.before.clone());
            }
        }
    }
    let mut places: BTreeMap<(&'static str, Vec<u8>), Sides> = BTreeMap::new();
    for (place, low_bytes) in at_low {
        let high_bytes = match at_high.remove(&place) {
            Some(bytes) => bytes,
            None => state.store.raw_get(place.0, &place.1)?,
        };
        let sides = if at_a <= at_b {
            (low_bytes, high_bytes)
        } else {
            (high_bytes, low_bytes)
        };
        places.insert(place, sides);
    }
    drop(held);
    Ok(Comparison {
        a,
        b,
        summary: summarise(places),
    })
}
