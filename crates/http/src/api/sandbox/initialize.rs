//! `POST /v1/sandbox/initialize`: reset the sandbox to its known state (any body is ignored): the mock
//! data is seeded afresh, and every consent, TPP session, authorisation and access count is removed, so
//! flows start from the beginning. TPP contact registrations are the TPPs' own and are kept.

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use axum::extract::State;
use xs2a_core::bank::mock::seed::{self, InitSummary};
use xs2a_workbench::app_state::AppState;

/// 200 with the counts of what was created. Seeded transaction dates are relative to the clock's today.
pub async fn initialize(State(state): State<AppState>) -> ApiResult<Json<InitSummary>> {
    let today = state.clock.now().date();
    let summary = seed::reset(&state.store, today)?;
    super::changed(&state, "all");
    Ok(Json(summary))
}
