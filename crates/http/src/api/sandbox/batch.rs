//! `GET|POST /v1/sandbox/batch-runs`: the batch runs a trainer watches and triggers.
//!
//! GET answers `{"runs": [...], "scheduled": [...]}`: the past runs newest first, each with what it did to
//! every payment (`?limit=`, default 20, at most 500, since a run over many payments is large), and the
//! next five scheduled run times after the sandbox clock's now. POST performs one run now (201, the run).

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use xs2a_core::bank::batch::{self, monitor, schedule, BatchRun, Trigger};
use xs2a_workbench::app_state::AppState;

#[derive(Deserialize)]
pub struct RunsQuery {
    limit: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct RunsView {
    runs: Vec<BatchRun>,
    #[serde(with = "rfc3339_list")]
    scheduled: Vec<OffsetDateTime>,
}

/// A list of instants as RFC 3339 strings.
mod rfc3339_list {
    use serde::ser::SerializeSeq;
    use serde::Serializer;
    use time::format_description::well_known::Rfc3339;
    use time::OffsetDateTime;

    pub fn serialize<S: Serializer>(list: &[OffsetDateTime], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(list.len()))?;
        for at in list {
            seq.serialize_element(&at.format(&Rfc3339).map_err(serde::ser::Error::custom)?)?;
        }
        seq.end()
    }
}

/// 200: past runs (newest first) and the next five scheduled times.
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(query): TextQuery<RunsQuery>,
) -> ApiResult<Json<RunsView>> {
    let runs = monitor::recent_runs(&state.store, query.limit.as_deref())?;
    Ok(Json(RunsView {
        runs,
        scheduled: schedule::upcoming(state.clock.now(), 5),
    }))
}

/// 201: a run performed now, as of the sandbox clock.
pub async fn run_now(State(state): State<AppState>) -> ApiResult<(StatusCode, Json<BatchRun>)> {
    let (store, events, now) = (state.store.clone(), state.events.clone(), state.clock.now());
    let run = tokio::task::spawn_blocking(xs2a_core::domain::cause::carry(move || {
        batch::run_batch(&store, &events, now, Trigger::Manual)
    }))
    .await
    .map_err(|e| ApiError::internal(format!("batch run panicked: {e}")))??;
    Ok((StatusCode::CREATED, Json(run)))
}
