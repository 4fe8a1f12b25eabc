//! `GET` and `POST /v1/sandbox/agreements`: corporate agreements.

use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::sandbox::agreements::{self, AgreementView, CreateAgreement};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

/// 200: every agreement.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<AgreementView>>> {
    Ok(Json(agreements::list(&state.store)?))
}

/// 201: the agreement created, with its id.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateAgreement>,
) -> ApiResult<(StatusCode, Json<AgreementView>)> {
    Ok((
        StatusCode::CREATED,
        Json(agreements::create(&state.store, &request)?),
    ))
}
