//! `GET|PUT /workbench/api/profile`: which profile the bank is played in.

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::rehearsal::Profile;
use xs2a_workbench::app_state::AppState;

/// The profile setting.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfileSetting {
    /// `sandbox` or `production` (docs/rehearsal.md).
    pub profile: Profile,
}

/// 200: the profile in force.
pub async fn get(State(state): State<AppState>) -> Json<ProfileSetting> {
    Json(ProfileSetting {
        profile: state.rehearsal.profile(),
    })
}

/// 200: switched (stored first).
pub async fn put(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<ProfileSetting>,
) -> ApiResult<Json<ProfileSetting>> {
    state.rehearsal.set_profile(&state.store, body.profile)?;
    tracing::info!(profile = body.profile.as_str(), "profile switched");
    Ok(Json(body))
}
