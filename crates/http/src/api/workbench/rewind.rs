//! Rewind in the workbench API (docs/rewind.md): what an entry changed, the sandbox returned to the state
//! before or after an entry, the state at an entry as a state file, two points compared, and the trainer's
//! restart of a journey from one of its steps. Also the layer that makes every workbench request that
//! writes an entry of the timeline (`state.change`), so that its changes can be shown and undone.
//! Thin: the work is `xs2a_workbench::rewind`; the replay of a restart is the CLI's replay engine.

use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::openapi::routes::Routes;
use crate::api::path::ApiPath;
use axum::extract::{RawQuery, Request, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
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
    let pairs = query_pairs(raw.as_deref(), &["to", "position"])?;
    let point = Point {
        entry: entry_id(&pairs, "to")?,
        position: position(&pairs, "position")?,
    };
    blocking(move || Ok(Json(rewind::preview(&state, point, "to")?))).await
}

/// A query's pairs, each name at most once.
fn query_pairs(raw: Option<&str>, allowed: &[&str]) -> ApiResult<Vec<(String, String)>> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|e| ApiError::format("(query)", format!("the query string is not valid: {e}")))?;
    for (i, (name, _)) in pairs.iter().enumerate() {
        if !allowed.contains(&name.as_str()) {
            return Err(ApiError::format(
                name,
                format!(
                    "unknown query parameter; this operation takes {}",
                    allowed.join(", ")
                ),
            ));
        }
        if pairs[..i].iter().any(|(n, _)| n == name) {
            return Err(ApiError::format(name, "given more than once"));
        }
    }
    Ok(pairs)
}

fn value<'p>(pairs: &'p [(String, String)], name: &str) -> Option<&'p str> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn position(pairs: &[(String, String)], name: &str) -> ApiResult<Position> {
    match value(pairs, name) {
        None | Some("after") => Ok(Position::After),
        Some("before") => Ok(Position::Before),
        Some(other) => Err(ApiError::format(
            name,
            format!("'{other}' is not a position: before or after"),
        )),
    }
}

fn entry_id(pairs: &[(String, String)], name: &str) -> ApiResult<u64> {
    let text = value(pairs, name).ok_or_else(|| ApiError::query_parameter_required(name))?;
    text.parse().map_err(|_| {
        ApiError::format(
            name,
            format!("'{text}' is not a timeline entry id (a whole number)"),
        )
    })
}

/// `GET /state/at/{id}?position=before|after` (after by default): 200 the state file of the sandbox's
/// state at that point, the live state untouched.
pub async fn state_at(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    let pairs = query_pairs(raw.as_deref(), &["position"])?;
    let point = Point {
        entry: id,
        position: position(&pairs, "position")?,
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
    let pairs = query_pairs(raw.as_deref(), &["a", "b", "aPosition", "bPosition"])?;
    let a = Point {
        entry: entry_id(&pairs, "a")?,
        position: position(&pairs, "aPosition")?,
    };
    let b = Point {
        entry: entry_id(&pairs, "b")?,
        position: position(&pairs, "bPosition")?,
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
    let pairs = query_pairs(raw.as_deref(), &["from"])?;
    let from = entry_id(&pairs, "from")?;
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
    let pace = request.pace_ms.unwrap_or(800);
    if pace > 10_000 {
        return Err(ApiError::format("paceMs", "paceMs is 0 to 10000"));
    }
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
        rewind::restart::play(
            plan,
            &url,
            crate::api::openapi::template_for,
            std::time::Duration::from_millis(pace),
        )
        .await;
    });
    Ok((StatusCode::ACCEPTED, Json(answer)))
}

/// The rewind routes (relative to `/workbench/api`), each with its OpenAPI description.
pub fn routes() -> Routes {
    use crate::api::openapi::builder::Param;
    let state_file = json!({"$ref": "#/components/schemas/StateFile"});
    Routes::new()
        .get("/traffic/{id}/changes", changes, |op| {
            op.tag("Rewind")
                .summary("What one timeline entry (exchange or event) changed in the sandbox's state")
                .description("The records the entry's writes created, changed and removed (net: from before its first write to after its last), with field-level differences and the balances moved. An entry that wrote nothing answers `commits: 0` and empty lists. 404 `RESOURCE_UNKNOWN`: no such entry; 409 `CONFLICT`: the entry is beyond the journal's reach, or the journal is off.")
                .operator()
                .answers::<EntryChanges>(200, "The entry's state changes")
                .refusals(&[400, 401, 404, 409])
        })
        .post("/rewind", rewind_to, |op| {
            op.tag("Rewind")
                .summary("Return the sandbox to the state before or after a timeline entry")
                .description("Atomically, over every tree of the state; the rewind is itself an entry of the timeline (`rewind`), so returning to the state before it undoes it. An event whose changes another entry made (a batch run a request asked for, a payment status step within a run) is rewound with that entry, and `note` says so; `note` also says when nothing changed. The sandbox rewinds only itself, not the TPP's own records. Workbench clients receive `sandbox.changed {what: \"all\"}`. 404 `RESOURCE_UNKNOWN`: no such entry; 409 `CONFLICT`: beyond the journal's reach, or the journal is off.")
                .operator()
                .body::<RewindRequest>(true)
                .answers::<Rewound>(200, "The sandbox is at that point")
                .refusals(&[400, 401, 404, 409])
        })
        .get("/rewind/preview", preview, |op| {
            op.tag("Rewind")
                .summary("What a rewind to a point would undo now, nothing applied")
                .description("The answer `POST /workbench/api/rewind` would give for the same point, without changing anything: how many journal records it would undo and how many records of the state it would change. `note` says when nothing would change, and when the entry is an event whose changes another entry made (a batch run a request asked for, a payment status step within a run): the rewind then returns to that entry's point. 404 `RESOURCE_UNKNOWN`: no such entry; 409 `CONFLICT`: beyond the journal's reach, or the journal is off.")
                .params(&[
                    Param::query("to", "integer", "The timeline entry (exchange or event).").required(),
                    Param::query(
                        "position",
                        "enum:before|after",
                        "Before or after the entry (default after).",
                    ),
                ])
                .operator()
                .answers::<rewind::RewindPreview>(200, "What the rewind would do")
                .refusals(&[400, 401, 404, 409])
        })
        .get("/state/at/{id}", state_at, |op| {
            op.tag("Rewind")
                .summary("The state at a timeline entry as a state file (the live state untouched)")
                .params(&[Param::query(
                    "position",
                    "enum:before|after",
                    "Before or after the entry (default after).",
                )])
                .operator()
                .answers_with(200, "A state file", "application/json", state_file)
                .refusals(&[400, 401, 404, 409])
        })
        .get("/state/compare", compare, |op| {
            op.tag("Rewind")
                .summary("The state at one timeline entry against the state at another")
                .params(&[
                    Param::query("a", "integer", "The first entry.").required(),
                    Param::query("b", "integer", "The second entry.").required(),
                    Param::query(
                        "aPosition",
                        "enum:before|after",
                        "Before or after a (default after).",
                    ),
                    Param::query(
                        "bPosition",
                        "enum:before|after",
                        "Before or after b (default after).",
                    ),
                ])
                .operator()
                .answers::<Comparison>(200, "What differs from the state at a to the state at b")
                .refusals(&[400, 401, 404, 409])
        })
        .get("/journeys/{id}/restart", restart_plan, |op| {
            op.tag("Rewind")
                .summary("What a restart of a journey from one of its steps would play again, and what not")
                .description("The plan `POST /journeys/{id}/restart` would follow from the step `from`, nothing rewound or sent: the steps in order (the TPP's requests, the PSU's pages and forms, the PSU's way back to the workbench's callback, batch runs) and what cannot be played again as it happened, with the reason (a request the gate refused, an answer the fault plan injected, the way back to a TPP app's own redirect URI, a scheduled batch run). 404 `RESOURCE_UNKNOWN`: no such journey, or the step is not one of its exchanges; 409 `CONFLICT`: no key for the journey's certificate.")
                .params(&[Param::query("from", "integer", "The journey's exchange to restart from.").required()])
                .operator()
                .answers::<Restart>(200, "The plan")
                .refusals(&[400, 401, 404, 409])
        })
        .post("/journeys/{id}/restart", restart, |op| {
            op.tag("Rewind")
                .summary("Restart a journey from one of its steps (presentation mode)")
                .description("Rewinds the sandbox to the state before the step (before the first page of the PSU's SCA when the step is one of its pages), then plays the journey again from there as the room saw it: the TPP's requests re-signed with the persona's key whose certificate signed them, ids from the new answers carried into later requests; the PSU's pages asked for and their forms sent as the PSU's browser did, and the PSU's way back to the workbench's callback; a batch run where one decided the journey's payments. `notReplayed` lists what is not played again as it happened (as `GET` of the same path answers before). 202: the rewind is done and the re-run has begun; its exchanges appear on the timeline.")
                .operator()
                .body::<RestartRequest>(true)
                .answers::<Restart>(202, "Rewound; the re-run has begun")
                .refusals(&[400, 401, 404, 409])
        })
}
