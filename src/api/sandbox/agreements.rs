//! `GET` and `POST /v1/sandbox/agreements`: corporate agreements.

use super::changed;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::warnings::with_warnings;
use crate::sandbox::agreements::{self, AgreementView, CreateAgreement};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;

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
    changed(&state, "agreements");
    Ok(with_warnings(
        StatusCode::CREATED,
        &created.value,
        &created.warnings,
    ))
}
