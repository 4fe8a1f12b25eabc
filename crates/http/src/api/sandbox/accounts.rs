//! Mock accounts and their transactions: `POST /v1/sandbox/accounts`, `GET .../{mockAccountId}`, and
//! `GET|POST .../{mockAccountId}/transactions` (docs/reference/mock-data.md#endpoints).

use super::changed_answer;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use xs2a_core::bank::mock::accounts::{self, AccountView, CreateAccount};
use xs2a_core::bank::mock::holdings;
use xs2a_core::bank::mock::listing::{Listing, ListingQuery};
use xs2a_core::bank::mock::model::Account;
use xs2a_core::bank::mock::transactions::{self, TransactionInput, TransactionView};
use xs2a_workbench::app_state::AppState;

/// 201: the mock account, its `id` (= `resourceId`) being the `mockAccountId`, with any warnings.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateAccount>,
) -> ApiResult<Response> {
    let created = accounts::create_view(&state.store, &request)?;
    Ok(changed_answer(
        &state,
        "accounts",
        StatusCode::CREATED,
        &created,
    ))
}

/// 200: one mock account.
pub async fn get(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<AccountView>> {
    Ok(Json(holdings::get_view::<Account>(
        &state.store,
        "mockAccountId",
        &id,
    )?))
}

/// 201: the stored transactions, with their ids, in the order given; warnings as `Sandbox-Warning`
/// headers (the body is a list).
pub async fn create_transactions(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(items): JsonBody<Vec<TransactionInput>>,
) -> ApiResult<Response> {
    let created = transactions::create_warned(&state.store, &id, &items)?;
    Ok(changed_answer(
        &state,
        "transactions",
        StatusCode::CREATED,
        &created,
    ))
}

/// 200: the account's transactions filtered by fromDate/toDate and paged by offset/limit.
pub async fn list_transactions(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): TextQuery<ListingQuery>,
) -> ApiResult<Json<Vec<TransactionView>>> {
    let listing = Listing::parse(&query)?;
    Ok(Json(transactions::list(&state.store, &id, &listing)?))
}

/// 200: one transaction (the target of each listed item's `_links.self`).
pub async fn get_transaction(
    State(state): State<AppState>,
    ApiPath((id, transaction_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<TransactionView>> {
    Ok(Json(transactions::get(&state.store, &id, &transaction_id)?))
}
