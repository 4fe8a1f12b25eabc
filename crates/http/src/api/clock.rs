//! `GET|PUT /v1/sandbox/clock`: read, set, advance, freeze or release the sandbox's one clock.
//!
//! PUT takes exactly one of `{"now": "<RFC 3339>"}`, `{"advance": "<ISO 8601 duration, e.g. PT1H, P1DT2H>"}`
//! or `{"mode": "real" | "frozen"}` and answers with the new reading; which move that is, and what is
//! refused, is the core's (`clock_control::ClockChange::asked`).

use super::json::JsonBody;
use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::openapi::routes::Routes;
use axum::extract::State;
use serde::Deserialize;
use time::OffsetDateTime;
use xs2a_core::bank::clock_control::{self, ClockChange};
use xs2a_core::domain::clock::ClockReading;
use xs2a_workbench::app_state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ClockChangeBody {
    #[serde(default, with = "time::serde::rfc3339::option")]
    now: Option<OffsetDateTime>,
    advance: Option<String>,
    mode: Option<String>,
}

async fn read(State(state): State<AppState>) -> Json<ClockReading> {
    Json(state.clock.reading())
}

async fn change(
    State(state): State<AppState>,
    JsonBody(change): JsonBody<ClockChangeBody>,
) -> ApiResult<Json<ClockReading>> {
    let change = ClockChange::asked(
        change.now,
        change.advance.as_deref(),
        change.mode.as_deref(),
    )?;
    let change = move || clock_control::change(&state, change);
    let reading = tokio::task::spawn_blocking(xs2a_core::domain::cause::carry(change))
        .await
        .map_err(|e| ApiError::internal(format!("clock change panicked: {e}")))??;
    Ok(Json(reading))
}

/// These routes (relative to /v1, served with the controls), each with its OpenAPI description.
pub fn routes() -> Routes {
    use crate::api::openapi::headers::SIGNED;
    Routes::new()
        .get("/sandbox/clock", read, |op| {
            op.tag("Control")
                .summary("The sandbox clock")
                .params(SIGNED)
                .operator()
                .answers::<ClockReading>(200, "The reading")
                .refusals(&[400, 401])
        })
        .put("/sandbox/clock", change, |op| {
            op.tag("Control")
                .summary("Set, advance, freeze or release the clock")
                .description("Exactly one of `now` (RFC 3339), `advance` (ISO 8601 duration, e.g. PT1H) or `mode` (real, frozen).")
                .params(SIGNED)
                .operator()
                .body::<ClockChangeBody>(true)
                .answers::<ClockReading>(200, "The new reading")
                .refusals(&[400, 401, 413, 415])
        })
}
