//! `GET /workbench/api/session`: where the service runs and how.

use crate::api::answer::Json;
use axum::extract::State;
use serde::Serialize;
use xs2a_core::domain::clock::ClockReading;
use xs2a_workbench::app_state::AppState;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    version: &'static str,
    base_url: String,
    /// `loopback` (this machine only) or `shared` (the operator credential guards the controls).
    #[schema(schema_with = mode_schema)]
    mode: &'static str,
    #[schema(required = true)]
    data_dir: Option<String>,
    callback_url: String,
    clock: ClockReading,
    /// The data directory's format, and its last migration (docs/data-directory.md).
    data_format: xs2a_core::store::DataFormat,
    /// The profile the bank is played in (docs/rehearsal.md).
    profile: xs2a_core::bank::rehearsal::Profile,
}

/// 200: the session.
pub async fn session(State(state): State<AppState>) -> Json<Session> {
    let base_url = state.base_url();
    Json(Session {
        version: env!("CARGO_PKG_VERSION"),
        callback_url: format!("{base_url}/workbench/callback"),
        base_url,
        mode: state.settings.access.as_str(),
        data_dir: state.settings.data_dir.clone(),
        clock: state.clock.reading(),
        data_format: state.store.data_format().clone(),
        profile: state.rehearsal.profile(),
    })
}

/// The OpenAPI schema of `Session.mode`: one of a fixed set of words.
fn mode_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(serde_json::json!({"type": "string", "enum": ["loopback", "shared"]}))
        .expect("a valid schema")
}
