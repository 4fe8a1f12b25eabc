//! `POST /v1/sandbox/initialize`: reset the sandbox to its known state (any body is ignored): the mock
//! data is seeded afresh, and every consent, TPP session, authorisation and access count is removed, so
//! flows start from the beginning. TPP contact registrations are the TPPs' own and are kept.

use crate::api::ais::access::AccountAccessLog;
use crate::consent::Consent;
use crate::error::ApiResult;
use crate::sandbox::seed::{self, InitSummary};
use crate::sca::authorisation::Authorisation;
use crate::sca::psu::{CorporateLink, PsuLink};
use crate::sca::session::TppSession;
use crate::state::AppState;
use crate::store::Record;
use axum::extract::State;
use axum::Json;

/// The trees of the flows built on the mock data.
const FLOW_TREES: &[&str] = &[
    Consent::TREE,
    TppSession::TREE,
    Authorisation::TREE,
    AccountAccessLog::TREE,
    PsuLink::TREE,
    CorporateLink::TREE,
];

/// 200 with the counts of what was created. Seeded transaction dates are relative to the clock's today.
pub async fn initialize(State(state): State<AppState>) -> ApiResult<Json<InitSummary>> {
    let today = state.clock.now().date();
    let summary = seed::initialize(&state.store, today)?;
    state.store.clear_trees(FLOW_TREES)?;
    Ok(Json(summary))
}
