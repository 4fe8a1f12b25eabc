//! TPP sessions (docs/interface.md#strong-customer-authentication-and-tpp-sessions): a completed SCA is valid for
//! one TPP and one PSU, across TPP roles, for one hour inside the TPP-Session-ID it was done in. Completing an SCA
//! in a new session id invalidates the PSU's older session ids at that TPP; an aborted SCA changes nothing.

use super::Context;
use crate::domain::refusal::CoreResult;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

/// An SCA inside a session is valid for 1 hour (docs/interface.md#limits).
pub const SCA_WINDOW: Duration = Duration::hours(1);

/// One TPP-Session-ID in which the PSU completed SCA.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TppSession {
    pub tpp_id: String,
    pub customer_id: String,
    pub session_id: String,
    /// The context the SCA was done in.
    pub context: Context,
    pub agreement_id: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub sca_at: OffsetDateTime,
    /// False once a later SCA in another session id replaced it.
    pub active: bool,
}

impl Record for TppSession {
    const TREE: &'static str = "sca-sessions";
    fn key(&self) -> String {
        session_key(&self.tpp_id, &self.customer_id, &self.session_id)
    }
}

fn session_key(tpp_id: &str, customer_id: &str, session_id: &str) -> String {
    format!("{tpp_id}/{customer_id}/{session_id}")
}

/// Why a session does not cover a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionState {
    /// SCA was done in this session less than an hour ago.
    Valid(TppSession),
    /// No SCA was ever completed in this session id.
    Unknown,
    /// The hour has passed.
    Expired(TppSession),
    /// A later SCA in another session id replaced it.
    Replaced(TppSession),
}

/// The state of the PSU's session `session_id` at this TPP.
pub fn state(
    store: &Store,
    tpp_id: &str,
    customer_id: &str,
    session_id: &str,
    now: OffsetDateTime,
) -> CoreResult<SessionState> {
    let Some(session) =
        store
            .table::<TppSession>()?
            .get(&session_key(tpp_id, customer_id, session_id))?
    else {
        return Ok(SessionState::Unknown);
    };
    Ok(if !session.active {
        SessionState::Replaced(session)
    } else if now >= session.sca_at + SCA_WINDOW {
        SessionState::Expired(session)
    } else {
        SessionState::Valid(session)
    })
}

/// Records a completed SCA in `session_id` and retires the PSU's other sessions at this TPP.
pub fn record_sca(
    store: &Store,
    tpp_id: &str,
    customer_id: &str,
    session_id: &str,
    context: Context,
    agreement_id: Option<&str>,
    now: OffsetDateTime,
) -> CoreResult<TppSession> {
    let sessions = store.table::<TppSession>()?;
    for mut other in sessions.scan_prefix(&format!("{tpp_id}/{customer_id}/"))? {
        if other.session_id != session_id && other.active {
            other.active = false;
            sessions.insert(&other)?;
        }
    }
    let session = TppSession {
        tpp_id: tpp_id.to_owned(),
        customer_id: customer_id.to_owned(),
        session_id: session_id.to_owned(),
        context,
        agreement_id: agreement_id.map(str::to_owned),
        sca_at: now,
        active: true,
    };
    let replaced = sessions.get(&session.key())?.map(|old| old.sca_at);
    sessions.insert(&session)?;
    super::expiry::session_recorded(store, &session.key(), session.sca_at, replaced)?;
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

    #[test]
    fn an_sca_lasts_one_hour_in_its_session() {
        let store = Store::temporary().unwrap();
        record_sca(&store, "T", "C", "s1", Context::Private, None, NOW).unwrap();
        assert!(matches!(
            state(&store, "T", "C", "s1", NOW + Duration::minutes(59)).unwrap(),
            SessionState::Valid(_)
        ));
        assert!(matches!(
            state(&store, "T", "C", "s1", NOW + Duration::hours(1)).unwrap(),
            SessionState::Expired(_)
        ));
        assert_eq!(
            state(&store, "T", "C", "s2", NOW).unwrap(),
            SessionState::Unknown
        );
        assert_eq!(
            state(&store, "OTHER", "C", "s1", NOW).unwrap(),
            SessionState::Unknown
        );
    }

    #[test]
    fn completing_sca_in_a_new_session_replaces_the_old_one() {
        let store = Store::temporary().unwrap();
        record_sca(&store, "T", "C", "s1", Context::Private, None, NOW).unwrap();
        record_sca(
            &store,
            "T",
            "C",
            "s2",
            Context::Private,
            None,
            NOW + Duration::minutes(5),
        )
        .unwrap();
        assert!(matches!(
            state(&store, "T", "C", "s1", NOW + Duration::minutes(6)).unwrap(),
            SessionState::Replaced(_)
        ));
        assert!(matches!(
            state(&store, "T", "C", "s2", NOW + Duration::minutes(6)).unwrap(),
            SessionState::Valid(_)
        ));
    }
}
