//! Rewind in the workbench API (docs/rewind.md): what an entry changed, the sandbox returned to the state
//! before or after an entry, the state at an entry as a state file, two points compared, and the trainer's
//! restart of a journey from one of its steps. Also the layer that makes every workbench request that
//! writes an entry of the timeline (`state.change`), so that its changes can be shown and undone.
//! Thin: the work is `xs2a_workbench::rewind`; the replay of a restart is the CLI's replay engine.

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::{RawQuery, Request, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::json;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::rewind::restart_steps::{NotReplayed, PlannedStep};
use xs2a_workbench::rewind::{
    self, changes::EntryChanges, compare::Comparison, Point, Position, Rewound,
};

/// Runs blocking store work off the async threads, with the request's cause.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(xs2a_core::domain::cause::carry(work))
        .await
        .map_err(ApiError::internal)?
}

/// The layer: a workbench request that changes something (any method but GET and HEAD) is the cause of
/// its writes, as a `state.change` event `{what: "workbench", method, path, status}` on the timeline when
/// it wrote and no event of its own (a clock move, a batch run, an import, a rewind) took its number.
pub async fn workbench_cause(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    let (method, path) = (
        request.method().to_string(),
        request.uri().path().to_owned(),
    );
    xs2a_core::bank::causes::recorded_async(&state, next.run(request), |response| {
        json!({
            "what": "workbench",
            "method": method,
            "path": path,
            "status": response.status().as_u16(),
        })
    })
    .await
}

/// `GET /traffic/{id}/changes`: 200 what the entry changed.
pub async fn changes(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
) -> ApiResult<Json<EntryChanges>> {
    blocking(move || Ok(Json(rewind::changes::of_entry(&state, id, "id")?))).await
}

/// The body of `POST /rewind`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RewindRequest {
    /// The timeline entry (exchange or event) to return to.
    to: u64,
    /// The state before it or after it.
    position: Position,
}

/// `POST /rewind {to, position}`: 200 the sandbox is at that point.
pub async fn rewind_to(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<RewindRequest>,
) -> ApiResult<Json<Rewound>> {
    let point = Point {
        entry: request.to,
        position: request.position,
    };
    blocking(move || Ok(Json(rewind::rewind(&state, point, "to")?))).await
}

/// `GET /rewind/preview?to=N&position=before|after`: 200 what `POST /rewind` to that point would undo
/// now, nothing applied.
pub async fn preview(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<rewind::RewindPreview>> {
    let query = rewind::ask::Query::parse(raw.as_deref(), &["to", "position"])?;
    let point = Point {
        entry: query.entry("to")?,
        position: query.position("position")?,
    };
    blocking(move || Ok(Json(rewind::preview(&state, point, "to")?))).await
}

/// `GET /state/at/{id}?position=before|after` (after by default): 200 the state file of the sandbox's
/// state at that point, the live state untouched.
pub async fn state_at(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let query = rewind::ask::Query::parse(raw.as_deref(), &["position"])?;
    let point = Point {
        entry: id,
        position: query.position("position")?,
    };
    let bytes = blocking(move || Ok(rewind::state_at(&state, point, "id")?)).await?;
    let name = format!("state-{}-{id}.json", point.position.as_str());
    Ok((
        [
            (CONTENT_TYPE, "application/json".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `GET /state/compare?a=&b=&aPosition=&bPosition=` (after by default): 200 what differs from the state
/// at `a` to the state at `b`.
pub async fn compare(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<Comparison>> {
    let query = rewind::ask::Query::parse(raw.as_deref(), &["a", "b", "aPosition", "bPosition"])?;
    let a = Point {
        entry: query.entry("a")?,
        position: query.position("aPosition")?,
    };
    let b = Point {
        entry: query.entry("b")?,
        position: query.position("bPosition")?,
    };
    blocking(move || Ok(Json(rewind::compare::compare(&state, a, b)?))).await
}

/// The body of `POST /journeys/{id}/restart`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RestartRequest {
    /// The journey's exchange to restart from.
    from: u64,
    /// The pause between re-run steps, so that a room can follow (0 to 10000 ms; 800 by default).
    pace_ms: Option<u64>,
}

/// What a restart does, or would do.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Restart {
    /// The rewind to the state before the restarted step (null in a plan: nothing rewound yet).
    #[schema(required = true)]
    pub rewound: Option<Rewound>,
    /// The entry the sandbox returns to the state before.
    pub start: u64,
    /// The persona whose key signs the re-run.
    pub persona: String,
    /// The steps re-run, in order: the TPP's requests, the PSU's pages and forms, the PSU's way back to
    /// the workbench's callback, batch runs.
    pub steps: Vec<PlannedStep>,
    /// What is not played again as it happened, and why (the restart's dialog says it before it starts).
    pub not_replayed: Vec<NotReplayed>,
}

impl Restart {
    fn of(plan: &rewind::restart::Plan, rewound: Option<Rewound>) -> Restart {
        Restart {
            rewound,
            start: plan.start,
            persona: plan.persona.clone(),
            steps: plan.steps.iter().map(|s| s.described()).collect(),
            not_replayed: plan.not_replayed.clone(),
        }
    }
}

/// `GET /journeys/{id}/restart?from=N`: 200 what a restart from that step would play again and what it
/// would not, nothing changed.
pub async fn restart_plan(
    State(state): State<AppState>,
    ApiPath(journey): ApiPath<String>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<Restart>> {
    let query = rewind::ask::Query::parse(raw.as_deref(), &["from"])?;
    let from = query.entry("from")?;
    blocking(move || {
        let plan = rewind::restart::plan(&state, &journey, from, "from")?;
        Ok(Json(Restart::of(&plan, None)))
    })
    .await
}

/// `POST /journeys/{id}/restart {from, paceMs}`: 202 the sandbox is back before the step, and the
/// journey's steps from there are being re-run (their exchanges appear on the timeline as they are sent).
pub async fn restart(
    State(state): State<AppState>,
    ApiPath(journey): ApiPath<String>,
    JsonBody(request): JsonBody<RestartRequest>,
) -> ApiResult<(StatusCode, Json<Restart>)> {
    let pace = rewind::ask::restart_pace(request.pace_ms)?;
    let planning = state.clone();
    let (plan, rewound) = blocking(move || {
        let plan = rewind::restart::plan(&planning, &journey, request.from, "from")?;
        let point = Point {
            entry: plan.start,
            position: Position::Before,
        };
        let rewound = rewind::rewind(&planning, point, "from")?;
        Ok((plan, rewound))
    })
    .await?;
    let answer = Restart::of(&plan, Some(rewound));
    let url = state.base_url();
    tokio::spawn(async move {
        rewind::restart::play(plan, &url, crate::api::openapi::template_for, pace).await;
    });
    Ok((StatusCode::ACCEPTED, Json(answer)))
}
