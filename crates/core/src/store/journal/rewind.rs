//! Undoing the journal: the values a run of records replaced ([`Undo`]), and the rewind itself — those
//! values written back over every tree they touch, in one transaction with the journal record that
//! describes the rewind, so that a crash leaves the state before it or after it, and the rewind can be
//! undone like any other change.

use super::codec::{Change, ChangeSet};
use super::{Journal, JournalError};
use crate::store::{Store, StoreError};
use std::collections::BTreeMap;

/// A record of a tree, by tree and key.
pub type Place = (&'static str, Vec<u8>);

/// What undoing a run of records (from one up to the newest) puts back.
#[derive(Debug, Default)]
pub struct Undo {
    /// Per record the run changed, its bytes before the run's first change to it (`None`: absent).
    pub values: BTreeMap<Place, Option<Vec<u8>>>,
    /// Per record, the bytes the run's last change to it left: what the state holds unless something
    /// wrote it without the journal.
    pub expected: BTreeMap<Place, Option<Vec<u8>>>,
    /// How many records (commits) the run holds.
    pub records: usize,
}

impl Undo {
    /// The undo of `sets`, oldest first.
    pub fn of(sets: &[ChangeSet]) -> Undo {
        let mut undo = Undo {
            records: sets.len(),
            ..Undo::default()
        };
        for set in sets {
            for change in &set.changes {
                let place = (change.tree, change.key.clone());
                undo.values
                    .entry(place.clone())
                    .or_insert_with(|| change.before.clone());
                undo.expected.insert(place, change.after.clone());
            }
        }
        undo
    }
}

/// What a rewind did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rewound {
    /// The journal records undone.
    pub undone: usize,
    /// The records of the state written back.
    pub changed: usize,
}

impl Store {
    /// Returns every journaled tree to its state before journal record `from`: the records from it up to
    /// the newest are undone, newest first, in one transaction together with the journal record of this
    /// rewind (its cause is the work running now). Refused with nothing written when `from` was pruned or
    /// when the state holds a record the journal did not see written.
    pub fn rewind_to(&self, from: u64) -> Result<Rewound, JournalError> {
        let journal = self
            .journal
            .as_deref()
            .ok_or_else(|| StoreError::Aborted("the change journal is off".into()))?;
        let mut state = journal.lock();
        if !journal.holds(&state, from)? {
            return Err(Journal::pruned(&state));
        }
        let undo = Undo::of(&journal.records_between(from, state.next_seq)?);
        let mut by_tree: BTreeMap<&'static str, (sled::Tree, sled::Batch)> = BTreeMap::new();
        let mut changes = Vec::new();
        for ((tree, key), target) in undo.values {
            let entry = match by_tree.entry(tree) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert((self.db.open_tree(tree)?, sled::Batch::default()))
                }
            };
            let current = entry.0.get(&key)?.map(|v| v.to_vec());
            let place = (tree, key);
            if undo.expected.get(&place) != Some(&current) {
                return Err(JournalError::Diverged {
                    tree,
                    key: String::from_utf8_lossy(&place.1).into_owned(),
                });
            }
            if current == target {
                continue;
            }
            match &target {
                Some(value) => entry.1.insert(place.1.clone(), value.clone()),
                None => entry.1.remove(place.1.clone()),
            }
            changes.push(Change {
                tree,
                key: place.1,
                before: current,
                after: target,
            });
        }
        let rewound = Rewound {
            undone: undo.records,
            changed: changes.len(),
        };
        if changes.is_empty() {
            return Ok(rewound);
        }
        let pos = journal.position_now(&state);
        let prepared = journal.prepare(&state, pos, super::codec::encode(pos, &changes));
        let mut names = Vec::with_capacity(by_tree.len() + 1);
        let mut trees = Vec::with_capacity(by_tree.len() + 1);
        let mut batches = Vec::with_capacity(by_tree.len() + 1);
        for (name, (tree, batch)) in by_tree {
            names.push(name);
            trees.push(tree);
            batches.push(batch);
        }
        names.push(super::TREE);
        trees.push(journal.tree().clone());
        let mut record = sled::Batch::default();
        record.insert(&prepared.key()[..], prepared.record.clone());
        batches.push(record);
        let checks = vec![Default::default(); names.len()];
        self.apply_batches(&names, &trees, &batches, &checks)?;
        journal.committed(&mut state, prepared);
        Ok(rewound)
    }
}

impl Journal {
    /// The journal records from `from` to the newest, for reading the state at a point without changing
    /// it: see [`Undo`].
    pub fn undo_from(&self, from: u64) -> Result<Undo, JournalError> {
        let state = self.lock();
        if !self.holds(&state, from)? {
            return Err(Journal::pruned(&state));
        }
        Ok(Undo::of(&self.records_between(from, state.next_seq)?))
    }
}
