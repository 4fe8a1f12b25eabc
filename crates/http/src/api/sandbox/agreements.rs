//! `GET` and `POST /v1/sandbox/agreements`: corporate agreements.

use super::changed_answer;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use xs2a_core::bank::mock::agreements::{self, AgreementView, CreateAgreement};
use xs2a_workbench::app_state::AppState;

/// 200: every agreement.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<AgreementView>>> {
    Ok(Json(agreements::list(&state.store)?))
}

/// 201: the agreement created, with its id and any warnings.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateAgreement>,
) -> ApiResult<Response> {
    let created = agreements::create_warned(&state.store, &request)?;
    Ok(changed_answer(
        &state,
        "agreements",
        StatusCode::CREATED,
        &created,
    ))
}
