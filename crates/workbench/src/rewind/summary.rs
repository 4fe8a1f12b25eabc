//! Changed records as the workbench shows them: in registry order (customers before accounts before
//! payments), by key, each with its field differences, the balances that moved, and at most
//! [`MAX_RESOURCES`] of them (an import changes thousands: the answer says how many it left out).

use super::diff::{BalanceMove, ResourceChange};
use crate::store::journal::ChangeSet;
use crate::store::registry::TREES;
use serde::Serialize;
use std::collections::BTreeMap;

/// The most changed records one answer lists.
pub const MAX_RESOURCES: usize = 500;

/// A record of a tree, by tree and key.
type Place = (&'static str, Vec<u8>);

/// A record's bytes at two points (`None`: absent).
pub type Sides = (Option<Vec<u8>>, Option<Vec<u8>>);

/// What changed between two points.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeSummary {
    /// The records that differ, in registry order and by key.
    pub resources: Vec<ResourceChange>,
    /// The balances of accounts and card accounts that moved.
    pub balances: Vec<BalanceMove>,
    /// Changed records left out of `resources` (at most 500 are listed); balances are all listed.
    pub omitted: usize,
}

fn tree_rank(tree: &str) -> usize {
    TREES
        .iter()
        .position(|t| t.name == tree)
        .unwrap_or(usize::MAX)
}

/// The summary of records' bytes at two points.
pub fn summarise(places: BTreeMap<Place, Sides>) -> ChangeSummary {
    let mut places: Vec<(Place, Sides)> = places.into_iter().collect();
    places.sort_by(|((ta, ka), _), ((tb, kb), _)| {
        tree_rank(ta).cmp(&tree_rank(tb)).then_with(|| ka.cmp(kb))
    });
    let mut summary = ChangeSummary {
        resources: Vec::new(),
        balances: Vec::new(),
        omitted: 0,
    };
    for ((tree, key), (before, after)) in places {
        let Some(change) = ResourceChange::of(tree, &key, before.as_deref(), after.as_deref())
        else {
            continue;
        };
        summary.balances.extend(change.balances_moved());
        if summary.resources.len() < MAX_RESOURCES {
            summary.resources.push(change);
        } else {
            summary.omitted += 1;
        }
    }
    summary
}

/// Per record the records `sets` changed: its bytes before the first of them and after the last.
pub fn net_of(sets: &[ChangeSet]) -> BTreeMap<Place, Sides> {
    let mut net: BTreeMap<Place, Sides> = BTreeMap::new();
    for set in sets {
        for change in &set.changes {
            net.entry((change.tree, change.key.clone()))
                .and_modify(|sides| sides.1 = change.after.clone())
                .or_insert_with(|| (change.before.clone(), change.after.clone()));
        }
    }
    net
}
