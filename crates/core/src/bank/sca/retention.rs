//! Keeping the SCA records bounded. Every 401 that asks for SCA stores an authorisation and every
//! completed SCA a TPP session; left alone, a client that never follows its scaRedirect would grow the
//! store without end. Two rules bound them:
//! - **Age.** An authorisation is removed [`RETENTION`] (24 hours of sandbox time) after it was started,
//!   a session 24 hours after its SCA. By then an unfinished authorisation has been expired for 23.5
//!   hours and a session's one-hour window is long over, so no running flow needs them; until then a
//!   late request still hears "expired" rather than "unknown".
//! - **Count.** A TPP keeps at most [`MAX_PER_TPP`] authorisations: starting one more removes its
//!   oldest, finished or not (an unfinished one's scaRedirect then answers "no such authorisation").
//!
//! Both are cheap: each TPP's authorisations are listed in start order beside a stored count, and the
//! expiry index (`expiry`) lists the records by the time they may go, so a prune reads only what it
//! removes. It runs on every start (a few records) and on the batch scheduler's tick (many).

use super::authorisation::Authorisation;
use super::expiry::expiry_of_authorisation;
pub use super::expiry::{Expiry, Kind, RETENTION};
use super::session::TppSession;
use crate::domain::refusal::CoreResult;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use std::sync::MutexGuard;
use time::OffsetDateTime;

/// The most authorisations one TPP keeps; the oldest go first.
pub const MAX_PER_TPP: usize = 200;

/// Records pruned when an authorisation starts (a little work on each, so a busy TPP keeps up).
const PRUNED_ON_START: usize = 16;

/// Records pruned at most per scheduler tick.
pub const PRUNED_PER_TICK: usize = 10_000;

/// Records removed in one all-or-nothing step of a prune.
const BATCH: usize = 256;

/// One authorisation in its TPP's list, in the order they were started.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TppAuthorisation {
    pub tpp_id: String,
    pub seq: u64,
    pub authorisation_id: String,
}

impl Record for TppAuthorisation {
    const TREE: &'static str = "sca-authorisations-by-tpp";
    fn key(&self) -> String {
        list_key(&self.tpp_id, self.seq)
    }
}

fn list_prefix(tpp_id: &str) -> String {
    format!("{tpp_id}/")
}

fn list_key(tpp_id: &str, seq: u64) -> String {
    format!("{tpp_id}/{seq:020}")
}

/// How many authorisations a TPP's list holds (so the cap needs no count of the list).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TppAuthorisationCount {
    pub tpp_id: String,
    pub count: usize,
}

impl Record for TppAuthorisationCount {
    const TREE: &'static str = "sca-authorisation-counts";
    fn key(&self) -> String {
        self.tpp_id.clone()
    }
}

/// A TPP's authorisations still kept, in the order they were started (its list holds at most
/// [`MAX_PER_TPP`], so this reads no other TPP's).
pub fn of_tpp(store: &Store, tpp_id: &str) -> CoreResult<Vec<Authorisation>> {
    let authorisations = store.table::<Authorisation>()?;
    let mut found = Vec::new();
    for entry in store
        .table::<TppAuthorisation>()?
        .scan_prefix(&list_prefix(tpp_id))?
    {
        if let Some(auth) = authorisations.get(&entry.authorisation_id)? {
            found.push(auth);
        }
    }
    Ok(found)
}

/// Stores a new authorisation with its place in its TPP's list and its expiry, removing the TPP's
/// oldest beyond [`MAX_PER_TPP`], all at once; then prunes a few records that are due.
pub fn store_new(store: &Store, auth: &mut Authorisation) -> CoreResult<()> {
    {
        let records = store.locks().sca_records();
        store.atomically(|store| admit(store, auth, &records))?;
    }
    prune_after_start(store, auth.created_at)
}

/// The few due records a start prunes, after its commit (outside the caller's operation and locks).
pub fn prune_after_start(store: &Store, now: OffsetDateTime) -> CoreResult<()> {
    prune(store, now, PRUNED_ON_START).map(drop)
}

/// Writes a new authorisation's records (see [`store_new`]) into the caller's operation. The caller holds
/// the records' lock (`records`) until that operation has committed: the TPP's count is read here and
/// written at the commit, and a start in between would count from the same number.
pub fn admit(
    store: &Store,
    auth: &mut Authorisation,
    _records: &MutexGuard<'_, ()>,
) -> CoreResult<()> {
    let list = store.table::<TppAuthorisation>()?;
    let counts = store.table::<TppAuthorisationCount>()?;
    let mut count = counts.get(&auth.tpp_id)?.map_or(0, |c| c.count);
    if count >= MAX_PER_TPP {
        // Read before this operation writes to the list, so only the oldest few are decoded.
        let oldest =
            list.first_n_with_prefix(&list_prefix(&auth.tpp_id), count + 1 - MAX_PER_TPP)?;
        for entry in &oldest {
            forget(store, entry)?;
        }
        count -= oldest.len();
    }
    let seq = store.next_number()?;
    auth.seq = Some(seq);
    store.table::<Authorisation>()?.insert(auth)?;
    store
        .table::<Expiry>()?
        .insert(&expiry_of_authorisation(auth))?;
    list.insert(&TppAuthorisation {
        tpp_id: auth.tpp_id.clone(),
        seq,
        authorisation_id: auth.id.clone(),
    })?;
    counts.insert(&TppAuthorisationCount {
        tpp_id: auth.tpp_id.clone(),
        count: count + 1,
    })?;
    Ok(())
}

/// Removes a listed authorisation, its expiry entry and its place in the list (the caller counts).
fn forget(store: &Store, entry: &TppAuthorisation) -> CoreResult<()> {
    if let Some(auth) = store
        .table::<Authorisation>()?
        .remove(&entry.authorisation_id)?
    {
        store
            .table::<Expiry>()?
            .remove(&expiry_of_authorisation(&auth).key())?;
    }
    store.table::<TppAuthorisation>()?.remove(&entry.key())?;
    Ok(())
}

/// Removes up to `max` authorisations and sessions whose time has come by `now`; returns how many.
pub fn prune(store: &Store, now: OffsetDateTime, max: usize) -> CoreResult<usize> {
    // Keys of entries due by `now` sort before this one.
    let bound = format!("{:020}", now.unix_timestamp().max(0).saturating_add(1));
    // The usual case, nothing due, costs one look at the index and no lock.
    if store
        .table::<Expiry>()?
        .first_n_below(&bound, 1)?
        .is_empty()
    {
        return Ok(0);
    }
    let mut removed = 0;
    let mut looked = 0;
    while looked < max {
        let _records = store.locks().sca_records();
        let (seen, gone) = store.atomically(|store| {
            let due = store
                .table::<Expiry>()?
                .first_n_below(&bound, BATCH.min(max - looked))?;
            let mut gone = 0;
            for expiry in &due {
                gone += usize::from(remove_due(store, expiry, now)?);
            }
            CoreResult::Ok((due.len(), gone))
        })?;
        looked += seen;
        removed += gone;
        if seen < BATCH {
            break;
        }
    }
    Ok(removed)
}

/// Removes the record an expiry entry names if its time has come (it may have been renewed or
/// removed since), and the entry itself.
fn remove_due(store: &Store, expiry: &Expiry, now: OffsetDateTime) -> CoreResult<bool> {
    store.table::<Expiry>()?.remove(&expiry.key())?;
    match expiry.kind {
        Kind::Authorisation => {
            let auths = store.table::<Authorisation>()?;
            let Some(auth) = auths.get(&expiry.key)? else {
                return Ok(false);
            };
            if auth.created_at + RETENTION > now {
                return Ok(false);
            }
            auths.remove(&auth.id)?;
            if let Some(seq) = auth.seq {
                let list = store.table::<TppAuthorisation>()?;
                if list.remove(&list_key(&auth.tpp_id, seq))?.is_some() {
                    let counts = store.table::<TppAuthorisationCount>()?;
                    if let Some(mut count) = counts.get(&auth.tpp_id)? {
                        count.count = count.count.saturating_sub(1);
                        counts.insert(&count)?;
                    }
                }
            }
            Ok(true)
        }
        Kind::Session => {
            let sessions = store.table::<TppSession>()?;
            match sessions.get(&expiry.key)? {
                Some(session) if session.sca_at + RETENTION <= now => {
                    sessions.remove(&expiry.key)?;
                    Ok(true)
                }
                _ => Ok(false),
            }
        }
    }
}

#[cfg(test)]
mod tests;
