//! `/workbench/api/faults`: the fault plan (docs/rehearsal.md) — read it with its counters, replace or
//! clear it, add a rule (a preset, say), switch one on or off, remove one.

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use xs2a_core::bank::rehearsal::plan::{Plan, Rule};
use xs2a_core::bank::rehearsal::presets::{self, Preset};
use xs2a_workbench::app_state::AppState;

/// 200: the plan with each rule's counters.
pub async fn get(State(state): State<AppState>) -> Json<Plan> {
    Json(state.rehearsal.plan())
}

/// 200: the plan replaced (validated and stored first).
pub async fn put(
    State(state): State<AppState>,
    JsonBody(plan): JsonBody<Plan>,
) -> ApiResult<Json<Plan>> {
    let (plan, ()) = state.rehearsal.update_plan(&state.store, |held| {
        *held = plan;
        Ok(())
    })?;
    Ok(Json(plan))
}

/// 200: no rules left (the seed is kept).
pub async fn clear(State(state): State<AppState>) -> ApiResult<Json<Plan>> {
    let (plan, ()) = state.rehearsal.update_plan(&state.store, |held| {
        held.rules.clear();
        Ok(())
    })?;
    Ok(Json(plan))
}

/// 201: the rule added at the end of the plan; 409 when its id is taken.
pub async fn add_rule(
    State(state): State<AppState>,
    JsonBody(rule): JsonBody<Rule>,
) -> ApiResult<(StatusCode, Json<Plan>)> {
    let (plan, ()) = state
        .rehearsal
        .update_plan(&state.store, |held| held.add_rule(rule))?;
    Ok((StatusCode::CREATED, Json(plan)))
}

/// A rule switched on or off.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RulePatch {
    pub enabled: bool,
}

/// 200: the rule switched; 404 when the plan has no such rule.
pub async fn patch_rule(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(patch): JsonBody<RulePatch>,
) -> ApiResult<Json<Plan>> {
    let (plan, ()) = state
        .rehearsal
        .update_plan(&state.store, |held| held.switch_rule(&id, patch.enabled))?;
    Ok(Json(plan))
}

/// 200: the rule removed; 404 when the plan has no such rule.
pub async fn delete_rule(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Plan>> {
    let (plan, ()) = state
        .rehearsal
        .update_plan(&state.store, |held| held.remove_rule(&id))?;
    Ok(Json(plan))
}

/// 200: the ready-made rules, as of the sandbox clock.
pub async fn presets(State(state): State<AppState>) -> Json<Vec<Preset>> {
    Json(presets::presets(state.clock.now()))
}
