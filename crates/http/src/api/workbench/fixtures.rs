//! Fixtures in the workbench API (docs/workbench-api.md, Fixtures): export the state or one journey's
//! flow, import a state file with a preview first, and named snapshots taken and restored in one call.
//! Thin: the work is `state_file`, `flow::from_traffic` and `own_state::snapshots`; imports and exports
//! run off the async threads (a large state takes a second).

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::query::ApiQuery;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::own_state::snapshots;
use xs2a_workbench::state_file::{self, Mode, Preview};

/// Runs blocking store work off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(xs2a_core::domain::cause::carry(work))
        .await
        .map_err(ApiError::internal)?
}

/// A JSON file to save, named for the save dialog.
fn attachment(bytes: Vec<u8>, name: &str) -> Response {
    (
        [
            (CONTENT_TYPE, "application/json".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        bytes,
    )
        .into_response()
}

/// The name a state file of the whole state is saved under: the sandbox and its clock's time, so that two
/// exports do not take one name (`sandbox-2026-06-01T1200Z.state.json`).
pub fn state_file_name(now: time::OffsetDateTime) -> String {
    let now = now.to_offset(time::UtcOffset::UTC);
    format!(
        "sandbox-{:04}-{:02}-{:02}T{:02}{:02}Z.state.json",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute()
    )
}

/// `GET /state`: 200 the whole state as a state file.
pub async fn export(State(state): State<AppState>) -> ApiResult<Response> {
    let name = state_file_name(state.clock.now());
    let bytes = blocking(move || {
        state_file::export(&state.store)
            .map_err(|e| xs2a_core::domain::refusal::Refusal::from(e).into())
    })
    .await?;
    Ok(attachment(bytes, &name))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// `replace` (default) or `merge`.
    mode: Option<String>,
    /// `true`: only say what would change.
    preview: Option<bool>,
}

/// What an import changed (`applied`), or would change (a preview).
#[derive(Serialize, utoipa::ToSchema)]
pub struct ImportOutcome {
    applied: bool,
    preview: Preview,
}

/// `POST /state?mode=replace|merge&preview=true` with a state file as the body: 200 `Preview` (what
/// changed, or would change). A refused file is 400 FORMAT_ERROR (409 CONFLICT for colliding ids) with
/// the JSON pointer as the message's `path`; nothing is written.
pub async fn import(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ImportQuery>,
    body: Bytes,
) -> ApiResult<Json<ImportOutcome>> {
    let mode = Mode::named(query.mode.as_deref())?;
    let preview = query.preview.unwrap_or(false);
    let announce = state.clone();
    let outcome = blocking(move || {
        let outcome = if preview {
            state_file::preview(&state.store, &body, mode)
        } else {
            state_file::live::import(&state, &body, mode)
        };
        outcome.map_err(|e| xs2a_core::domain::refusal::Refusal::from(e).into())
    })
    .await?;
    if !preview {
        // Every screen shows the imported state without a reload.
        crate::api::sandbox::changed(&announce, "all");
    }
    Ok(Json(ImportOutcome {
        applied: !preview,
        preview: outcome,
    }))
}

/// The flow exports' query: `state`, the name (or path, relative to the flow file) under which the state
/// file it starts from was saved, written into the flow's `state` field.
#[derive(Debug, Deserialize)]
pub struct FlowQuery {
    state: Option<String>,
}

/// `GET /journeys/{id}/flow`: 200 the journey as a flow file (404 for a journey the log does not hold).
pub async fn journey_flow(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<FlowQuery>,
) -> ApiResult<Response> {
    // Every exchange already answered is in the flow: what was handed to the log's writer is stored first
    // (a journey known from its first exchange could otherwise be exported with no step yet).
    state.traffic.settled().await;
    let mut flow = xs2a_workbench::flow::from_traffic::journey(&state.traffic, &id)?;
    if let Some(file) = query.state.filter(|s| !s.trim().is_empty()) {
        flow.state = Some(file);
    }
    let name = format!("{}.flow.json", id.replace([':', '/'], "-"));
    Ok(attachment(flow.to_bytes(), &name))
}

/// `GET /snapshots`: 200 `[{name, takenAt, bytes}]`.
pub async fn snapshots(State(state): State<AppState>) -> ApiResult<Json<Vec<snapshots::Summary>>> {
    Ok(Json(snapshots::list(&state)?))
}

/// `PUT /snapshots/{name}`: 201 the snapshot taken now (an existing one of that name is replaced).
pub async fn take(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<(StatusCode, Json<snapshots::Summary>)> {
    let summary = blocking(move || Ok(snapshots::take(&state, &name)?)).await?;
    Ok((StatusCode::CREATED, Json(summary)))
}

/// `GET /snapshots/{name}`: 200 its state file.
pub async fn download(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Response> {
    let snapshot = snapshots::get(&state, &name)?;
    Ok(attachment(
        snapshot.state.into_bytes(),
        &format!("{name}.state.json"),
    ))
}

/// `GET /snapshots/{name}/flow`: 200 every exchange served since the snapshot was taken, as a flow file.
pub async fn flow_since(
    State(state): State<AppState>,
    Path(name): Path<String>,
    ApiQuery(query): ApiQuery<FlowQuery>,
) -> ApiResult<Response> {
    state.traffic.settled().await;
    let file = format!("{name}.flow.json");
    let mut flow = blocking(move || Ok(snapshots::flow_since(&state, &name)?)).await?;
    if let Some(saved) = query.state.filter(|s| !s.trim().is_empty()) {
        flow.state = Some(saved);
    }
    Ok(attachment(flow.to_bytes(), &file))
}

/// `POST /snapshots/{name}/restore`: 200 `{applied: true, preview}`, the state as the snapshot holds it.
pub async fn restore(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<ImportOutcome>> {
    let announce = state.clone();
    let preview = blocking(move || Ok(snapshots::restore(&state, &name)?)).await?;
    crate::api::sandbox::changed(&announce, "all");
    Ok(Json(ImportOutcome {
        applied: true,
        preview,
    }))
}

/// `DELETE /snapshots/{name}`: 204.
pub async fn delete(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    snapshots::delete(&state, &name)?;
    Ok(StatusCode::NO_CONTENT)
}
