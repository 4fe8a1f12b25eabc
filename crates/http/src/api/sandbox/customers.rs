//! `GET` and `POST /v1/sandbox/customers`, and `DELETE /v1/sandbox/customers/{customerId}`.

use super::{changed, changed_answer};
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use xs2a_core::bank::mock::customers::{self, CreateCustomer, CustomerAnswer, CustomerView};
use xs2a_workbench::app_state::AppState;

/// 200: every customer with the ids of their accounts and card accounts.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<CustomerView>>> {
    Ok(Json(customers::list(&state.store)?))
}

/// 201: the customer created from `{customerNumber, customerName | name, customerType | type}`, with
/// any warnings (an 8-digit organisation number).
pub async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateCustomer>,
) -> ApiResult<Response> {
    let created = customers::create_warned(&state.store, &request)?.map(CustomerAnswer::from);
    Ok(changed_answer(
        &state,
        "customers",
        StatusCode::CREATED,
        &created,
    ))
}

/// 204: the customer (named by `customerId`, or by its customer number) is gone, with everything that
/// hangs on it (see `xs2a_core::bank::customer_removal`).
pub async fn delete(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<StatusCode> {
    xs2a_core::bank::customer_removal::delete(&state.store, &id, state.clock.now())?;
    changed(&state, "customers");
    Ok(StatusCode::NO_CONTENT)
}
