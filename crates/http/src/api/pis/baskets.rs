//! The signing basket endpoints (docs/reference/payments.md#endpoints-and-products): `POST /v1/signing-baskets`,
//! `GET /v1/signing-baskets/{basketId}` and `…/status`, and `DELETE`; one SCA approves every payment in
//! the basket (its authorisation sub-resources: `authorisations.rs`).

use super::caller;
use super::sca_start::{start_basket_sca, Started};
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::links::Links;
use crate::api::openapi::headers::{SET_B_P, SIGNED};
use crate::api::openapi::routes::Routes;
use crate::api::path::ApiPath;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::payment_initiation::caller::{Caller, Payer};
use xs2a_core::bank::pis::model::Basket;
use xs2a_core::bank::pis::{baskets, service};
use xs2a_workbench::app_state::AppState;

/// The bank's basket request: the payments to approve with one SCA.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreateBasket {
    /// At most 10 payment ids, none bulk or periodic.
    payment_ids: Vec<String>,
}

/// The basket created (docs/reference/payments.md#endpoints-and-products).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreatedBasket {
    basket_id: String,
    /// RCVD, ACTC, PATC or RJCT.
    transaction_status: &'static str,
    #[serde(rename = "_links")]
    links: Links,
}

/// A basket (docs/reference/payments.md#endpoints-and-products).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BasketDetails {
    /// The payment ids.
    payments: Vec<String>,
    /// RCVD, ACTC, PATC or RJCT.
    transaction_status: &'static str,
    #[serde(rename = "_links")]
    links: Links,
}

/// The status of a basket.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BasketStatusBody {
    transaction_status: &'static str,
}

/// `/v1/signing-baskets/{basketId}`.
pub(super) fn basket_path(basket: &Basket) -> String {
    format!("/v1/signing-baskets/{}", basket.id)
}

fn links(basket: &Basket, started: Option<&Started>) -> Links {
    super::views::resource_links(&basket_path(basket), started)
}

async fn create(
    State(state): State<AppState>,
    parts: Parts,
    JsonBody(body): JsonBody<CreateBasket>,
) -> ApiResult<(StatusCode, Json<CreatedBasket>)> {
    let caller = caller::read(&parts)?;
    caller.require_headers()?;
    let now = state.clock.now();
    let payer = caller.payer(&state.store, false, now)?;
    let basket = baskets::create(
        &state.store,
        &payer.tpp_id,
        &payer.customer_id,
        &body.payment_ids,
        now,
    )?;
    let started = start_basket_sca(&state, &parts, &caller, &payer, &basket)?;
    let status = baskets::status(&state.store, &basket)?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedBasket {
            links: links(&basket, Some(&started)),
            basket_id: basket.id,
            transaction_status: status.as_str(),
        }),
    ))
}

/// The caller, its PSU and the basket of the path (the headers every basket call needs checked first).
pub(super) fn load(
    state: &AppState,
    parts: &Parts,
    id: &str,
) -> ApiResult<(Caller, Payer, Basket)> {
    let caller = caller::read(parts)?;
    caller.require_headers()?;
    let payer = caller.payer(&state.store, false, state.clock.now())?;
    let basket = service::basket(&state.store, &payer.tpp_id, id)?;
    Ok((caller, payer, basket))
}

async fn details(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<Json<BasketDetails>> {
    let (_, _, basket) = load(&state, &parts, &id)?;
    let status = baskets::status(&state.store, &basket)?;
    Ok(Json(BasketDetails {
        links: links(&basket, None),
        payments: basket.payment_ids,
        transaction_status: status.as_str(),
    }))
}

async fn status(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<Json<BasketStatusBody>> {
    let (_, _, basket) = load(&state, &parts, &id)?;
    Ok(Json(BasketStatusBody {
        transaction_status: baskets::status(&state.store, &basket)?.as_str(),
    }))
}

async fn delete(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<StatusCode> {
    let (_, _, basket) = load(&state, &parts, &id)?;
    baskets::delete(&state.store, basket)?;
    Ok(StatusCode::NO_CONTENT)
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    Routes::new()
        .post("/signing-baskets", create, |op| {
            op.tag("Signing baskets")
                .summary("Create a signing basket")
                .description("Bulk or periodic payments in paymentIds are 400 REFERENCE_MIX_INVALID. Answers with `scaRedirect`: one SCA approves every payment.")
                .params(SIGNED)
                .params(SET_B_P)
                .body::<CreateBasket>(true)
                .answers::<CreatedBasket>(201, "The basket was created")
                .refusals(&[400, 401, 403, 404, 409, 413, 415])
        })
        .get("/signing-baskets/{basketId}", details, |op| {
            op.tag("Signing baskets")
                .summary("A basket")
                .params(SIGNED)
                .params(SET_B_P)
                .answers::<BasketDetails>(200, "The basket")
                .refusals(&[400, 403, 404])
        })
        .delete("/signing-baskets/{basketId}", delete, |op| {
            op.tag("Signing baskets")
                .summary("Delete a basket not yet authorised")
                .params(SIGNED)
                .params(SET_B_P)
                .empty(204, "Deleted")
                .refusals(&[400, 403, 404, 409])
        })
        .get("/signing-baskets/{basketId}/status", status, |op| {
            op.tag("Signing baskets")
                .summary("The status of a basket")
                .params(SIGNED)
                .params(SET_B_P)
                .answers::<BasketStatusBody>(200, "The status")
                .refusals(&[400, 403, 404])
        })
}
