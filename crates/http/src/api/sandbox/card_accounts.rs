//! Mock card accounts and their transactions: `POST /v1/sandbox/card-accounts`,
//! `GET .../{mockCardAccountId}`, and `GET|POST .../{mockCardAccountId}/transactions`
//! (docs/reference/mock-data.md#endpoints).

use super::changed_answer;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use xs2a_core::bank::mock::card_accounts::{self, CardAccountView, CreateCardAccount};
use xs2a_core::bank::mock::card_transactions::{
    self, BookingStatus, CardTransactionInput, CardTransactionList,
};
use xs2a_core::bank::mock::holdings;
use xs2a_core::bank::mock::listing::{Listing, ListingQuery};
use xs2a_core::bank::mock::model::CardAccount;
use xs2a_workbench::app_state::AppState;

/// 201: the mock card account, its `id` (= `resourceId`) being the `mockCardAccountId`, with any warnings.
pub async fn create(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CreateCardAccount>,
) -> ApiResult<Response> {
    let created = card_accounts::create_view(&state.store, &request)?;
    Ok(changed_answer(
        &state,
        "cardAccounts",
        StatusCode::CREATED,
        &created,
    ))
}

/// 200: one mock card account.
pub async fn get(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<CardAccountView>> {
    Ok(Json(holdings::get_view::<CardAccount>(
        &state.store,
        "mockCardAccountId",
        &id,
    )?))
}

/// 201: the stored card transactions, with their `cardTransactionId`s, in the order given; warnings as
/// `Sandbox-Warning` headers (the body is a list).
pub async fn create_transactions(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(items): JsonBody<Vec<CardTransactionInput>>,
) -> ApiResult<Response> {
    let created = card_transactions::create_warned(&state.store, &id, &items)?;
    Ok(changed_answer(
        &state,
        "transactions",
        StatusCode::CREATED,
        &created,
    ))
}

/// The card listing's query: the required bookingStatus and the shared listing parameters.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardListingQuery {
    booking_status: Option<String>,
    #[serde(flatten)]
    listing: ListingQuery,
}

/// 200: `{cardAccount: {maskedPan}, cardTransactions: {booked: [...], pending: [ids]}}`.
pub async fn list_transactions(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): TextQuery<CardListingQuery>,
) -> ApiResult<Json<CardTransactionList>> {
    let status = BookingStatus::parse(q.booking_status.as_deref())?;
    let listing = Listing::parse(&q.listing)?;
    Ok(Json(card_transactions::list(
        &state.store,
        &id,
        status,
        &listing,
    )?))
}
