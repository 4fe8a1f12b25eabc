//! The expiry index of the SCA records: one entry per authorisation and per TPP session, keyed by the time
//! the record may go ([`RETENTION`] after it started), so that pruning (`retention`) reads only what is
//! due. Sessions note their entry here when they are recorded (`session`), which is why the index sits
//! below both.

use super::authorisation::Authorisation;
use crate::domain::refusal::CoreResult;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

/// How long authorisations and sessions are kept after they start.
pub const RETENTION: Duration = Duration::hours(24);

/// What an expiry entry removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Authorisation,
    Session,
}

/// A record that may be removed from `at` on (unix seconds).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expiry {
    pub at: i64,
    pub kind: Kind,
    /// The record's key in its own tree.
    pub key: String,
}

impl Record for Expiry {
    const TREE: &'static str = "sca-expiry";
    fn key(&self) -> String {
        expiry_key(self.at, self.kind, &self.key)
    }
}

/// Zero-padded seconds first, so that key order is time order.
fn expiry_key(at: i64, kind: Kind, key: &str) -> String {
    let kind = match kind {
        Kind::Authorisation => 'a',
        Kind::Session => 's',
    };
    format!("{:020}/{kind}/{key}", at.max(0))
}

pub(super) fn expiry_of_authorisation(auth: &Authorisation) -> Expiry {
    Expiry {
        at: (auth.created_at + RETENTION).unix_timestamp(),
        kind: Kind::Authorisation,
        key: auth.id.clone(),
    }
}

fn expiry_of_session(sca_at: OffsetDateTime, key: String) -> Expiry {
    Expiry {
        at: (sca_at + RETENTION).unix_timestamp(),
        kind: Kind::Session,
        key,
    }
}

/// Notes when the session stored under `key` with its SCA at `sca_at` may go; `replaced` is the SCA time
/// of the record it overwrote, whose entry is no longer needed.
pub fn session_recorded(
    store: &Store,
    key: &str,
    sca_at: OffsetDateTime,
    replaced: Option<OffsetDateTime>,
) -> CoreResult<()> {
    let expiries = store.table::<Expiry>()?;
    if let Some(before) = replaced {
        expiries.remove(&expiry_of_session(before, key.to_owned()).key())?;
    }
    expiries.insert(&expiry_of_session(sca_at, key.to_owned()))?;
    Ok(())
}
