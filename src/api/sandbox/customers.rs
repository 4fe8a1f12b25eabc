//! `GET` and `POST /v1/sandbox/customers`.

use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::sandbox::customers::{self, CreateCustomer, CustomerView};
use crate::sandbox::model::Customer;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

/// 200: every customer with the ids of their accounts and card accounts.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<CustomerView>>> {
    Ok(Json(customers::list(&state.store)?))
}

/// 201: the customer created from `{customerNumber, name, type}`.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateCustomer>,
) -> ApiResult<(StatusCode, Json<Customer>)> {
    Ok((
        StatusCode::CREATED,
        Json(customers::create(&state.store, &request)?),
    ))
}
