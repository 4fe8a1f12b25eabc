//! Committing an operation's writes: one sled transaction over every tree they touch and, when a tree is
//! journaled, the change journal's record of what they changed, in that same transaction.
//!
//! The journaled path reads each record's "before" inside the transaction, where sled reads it anyway (a
//! transactional insert fetches the value it replaces): reading it once more beforehand, outside, cost a
//! second lookup per written record (docs/rewind.md, "What the journal costs").

use super::journal::{self, Journal, RecordWriter};
use super::overlay::{Pending, TreeWrites, WriteBuffer};
use super::{Store, StoreError};
use sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};
use std::collections::{BTreeMap, BTreeSet};

/// What one tree's part of a journaled commit does.
struct TreePlan {
    name: &'static str,
    journaled: bool,
    /// Stored records removed because the operation cleared the tree (and did not write them), with their
    /// bytes (read under the journal's lock, before the transaction).
    cleared: Vec<(sled::IVec, sled::IVec)>,
    writes: BTreeMap<Vec<u8>, Pending>,
    /// Keys that must not be stored yet ("only if absent").
    must_be_new: BTreeSet<Vec<u8>>,
}

impl Store {
    /// Commits an operation's pending writes in one sled transaction over every tree they touch, with the
    /// journal's record of what they changed when they touch a journaled tree (under the journal's lock,
    /// so the bytes read as "before" are the ones replaced; a write that leaves a record's bytes as they
    /// were is left out of both).
    pub(super) fn commit(&self, buffer: WriteBuffer) -> Result<(), StoreError> {
        if buffer.is_empty() {
            return Ok(());
        }
        match self
            .journal
            .as_deref()
            .filter(|_| buffer.trees.keys().any(|t| journal::covers(t)))
        {
            Some(journal) => self.commit_journaled(journal, buffer),
            None => self.commit_plain(buffer),
        }
    }

    /// A commit no journal sees: each tree's writes as one batch.
    fn commit_plain(&self, buffer: WriteBuffer) -> Result<(), StoreError> {
        let mut names = Vec::with_capacity(buffer.trees.len());
        let mut trees = Vec::with_capacity(buffer.trees.len());
        let mut batches = Vec::with_capacity(buffer.trees.len());
        let mut checks = Vec::with_capacity(buffer.trees.len());
        for (name, writes) in buffer.trees {
            let tree = self.db.open_tree(name)?;
            let mut batch = sled::Batch::default();
            if writes.cleared {
                for key in tree.iter().keys() {
                    let key = key?;
                    if !writes.writes.contains_key(key.as_ref()) {
                        batch.remove(key);
                    }
                }
            }
            for (key, value) in writes.writes {
                match value {
                    Some(value) => batch.insert(key, value),
                    None => batch.remove(key),
                }
            }
            names.push(name);
            trees.push(tree);
            batches.push(batch);
            checks.push(new_keys_to_check(writes.cleared, writes.must_be_new));
        }
        self.apply_batches(&names, &trees, &batches, &checks)
    }

    /// A commit with the journal's record of it, under the journal's lock.
    fn commit_journaled(&self, journal: &Journal, buffer: WriteBuffer) -> Result<(), StoreError> {
        let mut state = journal.lock();
        let mut names = Vec::with_capacity(buffer.trees.len() + 1);
        let mut trees = Vec::with_capacity(buffer.trees.len() + 1);
        let mut plans = Vec::with_capacity(buffer.trees.len());
        for (name, writes) in buffer.trees {
            let tree = self.db.open_tree(name)?;
            plans.push(plan(name, &tree, writes)?);
            names.push(name);
            trees.push(tree);
        }
        names.push(journal::TREE);
        trees.push(journal.tree().clone());
        let state_now = &*state;
        let record_size = plans.iter().map(TreePlan::record_size).sum();
        let outcome = trees.as_slice().transaction(|views| {
            let (journal_view, views) = views.split_last().expect("the journal's tree is last");
            let mut record = RecordWriter::with_capacity(record_size);
            for (plan, view) in plans.iter().zip(views) {
                apply_plan(plan, view, &mut record)?;
            }
            if record.is_empty() {
                return Ok(None);
            }
            let pos = journal.position_now(state_now);
            let prepared = journal.prepare(state_now, pos, record.finish(pos));
            journal_view.insert(&prepared.key()[..], prepared.record.clone())?;
            Ok(Some(prepared))
        });
        match outcome {
            Ok(prepared) => {
                if let Some(prepared) = prepared {
                    journal.committed(&mut state, prepared);
                }
                self.note_write(&names);
                Ok(())
            }
            Err(TransactionError::Abort(reason)) => Err(StoreError::Aborted(reason)),
            Err(TransactionError::Storage(error)) => Err(StoreError::Sled(error)),
        }
    }

    /// Applies one batch per tree in one sled transaction over all of them (recovered whole or not at
    /// all after a crash), refusing the whole of it if a key of `checks` (per tree) is already stored.
    pub(super) fn apply_batches(
        &self,
        names: &[&'static str],
        trees: &[sled::Tree],
        batches: &[sled::Batch],
        checks: &[BTreeSet<Vec<u8>>],
    ) -> Result<(), StoreError> {
        let started = std::time::Instant::now();
        let outcome = trees.transaction(|views| {
            for (i, view) in views.iter().enumerate() {
                refuse_stored(names[i], view, &checks[i])?;
                view.apply_batch(&batches[i])?;
            }
            Ok(())
        });
        tracing::trace!(elapsed = ?started.elapsed(), trees = names.len(), "transaction");
        match outcome {
            Ok(()) => {
                self.note_write(names);
                Ok(())
            }
            Err(TransactionError::Abort(reason)) => Err(StoreError::Aborted(reason)),
            Err(TransactionError::Storage(error)) => Err(StoreError::Sled(error)),
        }
    }
}

impl TreePlan {
    /// About how many bytes this tree's part of the journal's record takes: each write's key and value,
    /// with room for a "before" as large (a record rewritten keeps its size, roughly), and what the
    /// cleared records hold. Reserved at once, so that a record of many megabytes is not grown by
    /// copying.
    fn record_size(&self) -> usize {
        if !self.journaled {
            return 0;
        }
        let per_change = self.name.len() + 16;
        let writes: usize = self
            .writes
            .iter()
            .map(|(key, value)| per_change + key.len() + 2 * value.as_ref().map_or(0, Vec::len))
            .sum();
        let cleared: usize = self
            .cleared
            .iter()
            .map(|(key, value)| per_change + key.len() + value.len())
            .sum();
        writes + cleared
    }
}

/// In a cleared tree every stored key goes: "only if absent" holds by construction.
fn new_keys_to_check(cleared: bool, must_be_new: BTreeSet<Vec<u8>>) -> BTreeSet<Vec<u8>> {
    if cleared {
        BTreeSet::new()
    } else {
        must_be_new
    }
}

/// One tree's part of a journaled commit; a cleared tree's stored records are read here, under the
/// journal's lock.
fn plan(name: &'static str, tree: &sled::Tree, writes: TreeWrites) -> Result<TreePlan, StoreError> {
    let journaled = journal::covers(name);
    let mut cleared = Vec::new();
    if writes.cleared {
        for pair in tree.iter() {
            let (key, value) = pair?;
            if !writes.writes.contains_key(key.as_ref()) {
                cleared.push((key, value));
            }
        }
    }
    Ok(TreePlan {
        name,
        journaled,
        cleared,
        must_be_new: new_keys_to_check(writes.cleared, writes.must_be_new),
        writes: writes.writes,
    })
}

/// Refuses the transaction when a key that must be new is stored.
fn refuse_stored(
    name: &str,
    view: &TransactionalTree,
    keys: &BTreeSet<Vec<u8>>,
) -> Result<(), ConflictableTransactionError<String>> {
    for key in keys {
        if view.get(key)?.is_some() {
            return Err(ConflictableTransactionError::Abort(format!(
                "a record under {} in {} was written by another operation first",
                String::from_utf8_lossy(key),
                name
            )));
        }
    }
    Ok(())
}

/// Applies one tree's writes inside the transaction, adding to the journal's `record` what they changed
/// in a journaled tree. The "before" is read through the transaction (sled's insert reads it too, from the
/// same cache) and written into the record straight from sled's buffer.
fn apply_plan(
    plan: &TreePlan,
    view: &TransactionalTree,
    record: &mut RecordWriter,
) -> Result<(), ConflictableTransactionError<String>> {
    refuse_stored(plan.name, view, &plan.must_be_new)?;
    for (key, before) in &plan.cleared {
        view.remove(key.as_ref())?;
        if plan.journaled {
            record.push(plan.name, key, Some(before), None);
        }
    }
    for (key, value) in &plan.writes {
        if plan.journaled {
            let before = view.get(key)?;
            if before.as_deref() == value.as_deref() {
                continue;
            }
            record.push(plan.name, key, before.as_deref(), value.as_deref());
        }
        match value {
            Some(value) => view.insert(key.as_slice(), value.as_slice())?,
            None => view.remove(key.as_slice())?,
        };
    }
    Ok(())
}
