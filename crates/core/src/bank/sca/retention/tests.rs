//! The retention rules at work on a temporary store: the cap per TPP, removal by age, renewed sessions.

use super::*;
use crate::bank::sca::authorisation::Purpose;
use crate::bank::sca::engine::{self, StartSca};
use crate::bank::sca::session::{self, SessionState};
use crate::bank::sca::Context;
use time::macros::datetime;
use time::Duration;

const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

fn start(store: &Store, tpp: &str, now: OffsetDateTime) -> Authorisation {
    engine::start(
        store,
        StartSca {
            tpp_id: tpp.into(),
            tpp_name: tpp.into(),
            tpp_session_id: "s".into(),
            redirect_uri: "https://tpp.example/cb".into(),
            purpose: Purpose::Consent,
            preset_identity: None,
            preset_customer_id: None,
            preset_agreement_id: None,
            preferred_method: None,
            biometric_in_app: false,
        },
        now,
    )
    .unwrap()
}

fn exists(store: &Store, auth: &Authorisation) -> bool {
    store
        .table::<Authorisation>()
        .unwrap()
        .get(&auth.id)
        .unwrap()
        .is_some()
}

fn count(store: &Store, tpp: &str) -> usize {
    store
        .table::<TppAuthorisationCount>()
        .unwrap()
        .get(tpp)
        .unwrap()
        .map_or(0, |c| c.count)
}

#[test]
fn a_tpp_keeps_at_most_the_cap_and_its_oldest_go_first() {
    let store = Store::temporary().unwrap();
    let other = start(&store, "OTHER", NOW);
    let started: Vec<Authorisation> = (0..MAX_PER_TPP + 3)
        .map(|_| start(&store, "T", NOW))
        .collect();
    assert_eq!(count(&store, "T"), MAX_PER_TPP);
    for gone in &started[..3] {
        assert!(!exists(&store, gone));
    }
    for kept in &started[3..] {
        assert!(exists(&store, kept));
    }
    assert!(exists(&store, &other), "another TPP's are not touched");
    let list = store.table::<TppAuthorisation>().unwrap();
    assert_eq!(list.len(), MAX_PER_TPP + 1);
    // The expiry index holds an entry for each kept authorisation, none for the removed ones.
    assert_eq!(store.table::<Expiry>().unwrap().len(), MAX_PER_TPP + 1);
}

#[test]
fn authorisations_go_a_day_after_they_started_and_not_before() {
    let store = Store::temporary().unwrap();
    let old = start(&store, "T", NOW);
    let newer = start(&store, "T", NOW + Duration::hours(2));
    // Expired (30 minutes) but kept, so that a late page view or status read says "expired".
    assert_eq!(prune(&store, NOW + Duration::hours(23), 100).unwrap(), 0);
    assert!(exists(&store, &old));
    assert_eq!(prune(&store, NOW + RETENTION, 100).unwrap(), 1);
    assert!(!exists(&store, &old) && exists(&store, &newer));
    assert_eq!(count(&store, "T"), 1);
    assert_eq!(store.table::<TppAuthorisation>().unwrap().len(), 1);
    assert_eq!(store.table::<Expiry>().unwrap().len(), 1);
}

#[test]
fn a_session_goes_a_day_after_its_latest_sca() {
    let store = Store::temporary().unwrap();
    let recorded = |at| session::record_sca(&store, "T", "C", "s", Context::Private, None, at);
    recorded(NOW).unwrap();
    recorded(NOW + Duration::hours(2)).unwrap();
    assert_eq!(
        store.table::<Expiry>().unwrap().len(),
        1,
        "the renewed entry replaces the old"
    );
    prune(&store, NOW + RETENTION, 100).unwrap();
    assert!(matches!(
        session::state(&store, "T", "C", "s", NOW + RETENTION).unwrap(),
        SessionState::Expired(_)
    ));
    assert_eq!(
        prune(&store, NOW + RETENTION + Duration::hours(2), 100).unwrap(),
        1
    );
    assert_eq!(
        session::state(&store, "T", "C", "s", NOW + RETENTION).unwrap(),
        SessionState::Unknown
    );
    assert!(store.table::<Expiry>().unwrap().is_empty());
}

#[test]
fn a_prune_removes_no_more_than_asked_and_continues_later() {
    let store = Store::temporary().unwrap();
    // Two TPPs, each under the cap, more than one batch together.
    for i in 0..(BATCH + 10) {
        start(&store, if i % 2 == 0 { "T" } else { "U" }, NOW);
    }
    let later = NOW + RETENTION;
    assert_eq!(prune(&store, later, BATCH + 5).unwrap(), BATCH + 5);
    assert_eq!(prune(&store, later, 1000).unwrap(), 5);
    assert_eq!((count(&store, "T"), count(&store, "U")), (0, 0));
}
