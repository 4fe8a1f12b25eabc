//! `/workbench/api/register`: the simulated central register — every TPP seen, and the operator's changes
//! (unregistered, a role withdrawn, the certificate revoked at the NCA).

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use axum::extract::{Path, State};
use xs2a_core::bank::rehearsal::register::{RegisterChange, RegisteredTpp};
use xs2a_workbench::app_state::AppState;

/// 200: every TPP seen, by organisation identifier.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<RegisteredTpp>>> {
    Ok(Json(state.rehearsal.register.list(&state.store)?))
}

/// 200: the TPP as changed (stored first); 404 for a TPP never seen.
pub async fn change(
    State(state): State<AppState>,
    Path(organisation_id): Path<String>,
    JsonBody(change): JsonBody<RegisterChange>,
) -> ApiResult<Json<RegisteredTpp>> {
    Ok(Json(state.rehearsal.register.change(
        &state.store,
        &organisation_id,
        change,
    )?))
}
