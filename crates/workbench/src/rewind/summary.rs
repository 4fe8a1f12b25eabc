//! Changed records as the workbench shows them: in registry order (customers before accounts before
//! payments), by key, each with its field differences, the balances that moved, and at most
//! [`MAX_RESOURCES`] of them (an import changes thousands: the answer says how many it left out); and
//! counted by kind and change over all of them, so a run of 250 created transactions reads as one line.

use super::diff::{BalanceMove, ChangeKind, ResourceChange};
use serde::Serialize;
use std::collections::BTreeMap;
use xs2a_core::store::journal::ChangeSet;
use xs2a_core::store::registry::TREES;

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
    /// The changed records counted by resource kind and change, those left out included, in the order
    /// of `resources` (registry order).
    pub groups: Vec<ChangeGroup>,
}

/// How many records of one kind changed in one way.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeGroup {
    /// As `ResourceChange.resource`.
    pub resource: String,
    pub change: ChangeKind,
    /// The sandbox's own bookkeeping, as `ResourceChange.internal`.
    pub internal: bool,
    pub count: usize,
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
        groups: Vec::new(),
    };
    for ((tree, key), (before, after)) in places {
        let Some(change) = ResourceChange::of(tree, &key, before.as_deref(), after.as_deref())
        else {
            continue;
        };
        summary.balances.extend(change.balances_moved());
        match summary
            .groups
            .iter_mut()
            .find(|g| g.resource == change.resource && g.change == change.change)
        {
            Some(group) => group.count += 1,
            None => summary.groups.push(ChangeGroup {
                resource: change.resource.clone(),
                change: change.change,
                internal: change.internal,
                count: 1,
            }),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_count_every_change_by_kind_those_left_out_included() {
        let mut places: BTreeMap<Place, Sides> = BTreeMap::new();
        for i in 0..MAX_RESOURCES + 20 {
            places.insert(
                ("consents", format!("c{i:04}").into_bytes()),
                (None, Some(b"{}".to_vec())),
            );
        }
        places.insert(
            ("payments", b"p1".to_vec()),
            (Some(br#"{"s":1}"#.to_vec()), Some(br#"{"s":2}"#.to_vec())),
        );
        let summary = summarise(places);
        assert_eq!(summary.resources.len(), MAX_RESOURCES);
        assert_eq!(summary.omitted, 21);
        let groups: Vec<(&str, ChangeKind, usize)> = summary
            .groups
            .iter()
            .map(|g| (g.resource.as_str(), g.change, g.count))
            .collect();
        assert_eq!(
            groups,
            [
                ("consent", ChangeKind::Created, MAX_RESOURCES + 20),
                ("payment", ChangeKind::Changed, 1)
            ]
        );
    }
}
