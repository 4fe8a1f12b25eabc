//! `POST /v1/sandbox/accounts/{mockAccountId}/transactions/generate` `{count, fromDate, toDate}`: books
//! made-up transactions in bulk (`xs2a_core::bank::mock::generate`); 201 `{"created": n}`.

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::mock::generate;
use xs2a_workbench::app_state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateRequest {
    count: usize,
    from_date: String,
    to_date: String,
}

/// How many transactions were made.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Generated {
    created: usize,
}

/// 201: how many were made.
pub async fn account_transactions(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(request): JsonBody<GenerateRequest>,
) -> ApiResult<(StatusCode, Json<Generated>)> {
    let (from, to) = generate::range(&request.from_date, &request.to_date)?;
    let made = generate::transactions(&state.store, &id, request.count, from, to)?;
    super::changed(&state, "transactions");
    Ok((
        StatusCode::CREATED,
        Json(Generated {
            created: made.len(),
        }),
    ))
}
