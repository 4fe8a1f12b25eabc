//! Editing mock data from the workbench (`PUT /workbench/api/sandbox/customers/{customerId}`,
//! `.../accounts/{mockAccountId}`, `.../card-accounts/{mockCardAccountId}`): the core is
//! `xs2a_core::bank::mock::edits`. Workbench-only: the bank's platform has no such operation, so `/v1/sandbox`
//! does not offer it. Each edit tells the live views (`sandbox.changed`).

use super::{changed, changed_answer};
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use xs2a_core::bank::mock::customers::CustomerView;
use xs2a_core::bank::mock::edits::{self, UpdateAccount, UpdateCardAccount, UpdateCustomer};
use xs2a_workbench::app_state::AppState;

/// 200: the customer as `GET /sandbox/customers` lists it, renamed.
pub async fn customer(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(request): JsonBody<UpdateCustomer>,
) -> ApiResult<Json<CustomerView>> {
    let view = edits::update_customer(&state.store, &id, &request)?;
    changed(&state, "customers");
    Ok(Json(view))
}

/// 200: the account as changed, with warnings about what was accepted.
pub async fn account(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(request): JsonBody<UpdateAccount>,
) -> ApiResult<Response> {
    let edited = edits::update_account(&state.store, &id, &request)?;
    Ok(changed_answer(&state, "accounts", StatusCode::OK, &edited))
}

/// 200: the card account as changed, with warnings about what was accepted.
pub async fn card_account(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(request): JsonBody<UpdateCardAccount>,
) -> ApiResult<Response> {
    let edited = edits::update_card_account(&state.store, &id, &request)?;
    Ok(changed_answer(
        &state,
        "cardAccounts",
        StatusCode::OK,
        &edited,
    ))
}
