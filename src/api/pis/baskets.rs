//! The signing basket endpoints (SPEC.md operations 1 and 2): `POST /v1/signing-baskets`,
//! `GET /v1/signing-baskets/{basketId}` and `…/status`, `DELETE`, and `POST …/authorisations`, where one
//! SCA approves every payment in the basket.

use super::caller::{caller, require_headers, REQUIRED};
use super::payments::start_payment_sca;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::links::Links;
use crate::api::path::ApiPath;
use crate::payments::model::Basket;
use crate::payments::{baskets, service};
use crate::state::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/signing-baskets", post(create))
        .route("/signing-baskets/{basketId}", get(details).delete(delete))
        .route("/signing-baskets/{basketId}/status", get(status))
        .route(
            "/signing-baskets/{basketId}/authorisations",
            post(start_authorisation),
        )
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateBasket {
    payment_ids: Vec<String>,
}

fn links(basket: &Basket, sca_redirect: Option<String>) -> Links {
    super::views::resource_links(&format!("/v1/signing-baskets/{}", basket.id), sca_redirect)
}

async fn create(
    State(state): State<AppState>,
    parts: Parts,
    JsonBody(body): JsonBody<CreateBasket>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    require_headers(&parts, &REQUIRED)?;
    let caller = caller(&state, &parts, false)?;
    let now = state.clock.now();
    let basket = baskets::create(
        &state.store,
        &caller.tpp_id,
        &caller.customer_id,
        &body.payment_ids,
        now,
    )?;
    let (_, href) = start_payment_sca(
        &state,
        &parts,
        &caller.tpp,
        Some(caller.customer_id.as_str()),
        basket.payment_ids.clone(),
        Some(basket.id.clone()),
    )?;
    let status = baskets::status(&state.store, &basket)?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "basketId": basket.id,
            "transactionStatus": status.as_str(),
            "_links": links(&basket, Some(href)),
        })),
    ))
}

fn load(
    state: &AppState,
    parts: &Parts,
    id: &str,
) -> ApiResult<(super::caller::PisCaller, Basket)> {
    require_headers(parts, &REQUIRED)?;
    let caller = caller(state, parts, false)?;
    let basket = service::basket(&state.store, &caller.tpp_id, id)?;
    Ok((caller, basket))
}

async fn details(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<Json<Value>> {
    let (_, basket) = load(&state, &parts, &id)?;
    let status = baskets::status(&state.store, &basket)?;
    Ok(Json(json!({
        "payments": basket.payment_ids,
        "transactionStatus": status.as_str(),
        "_links": links(&basket, None),
    })))
}

async fn status(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<Json<Value>> {
    let (_, basket) = load(&state, &parts, &id)?;
    Ok(Json(
        json!({"transactionStatus": baskets::status(&state.store, &basket)?.as_str()}),
    ))
}

async fn delete(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<StatusCode> {
    let (_, basket) = load(&state, &parts, &id)?;
    baskets::delete(&state.store, basket)?;
    Ok(StatusCode::NO_CONTENT)
}

async fn start_authorisation(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (caller, basket) = load(&state, &parts, &id)?;
    let (authorisation_id, href) = start_payment_sca(
        &state,
        &parts,
        &caller.tpp,
        Some(caller.customer_id.as_str()),
        basket.payment_ids.clone(),
        Some(basket.id.clone()),
    )?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "scaStatus": "received",
            "authorisationId": authorisation_id,
            "_links": Links::new().get("scaRedirect", href),
        })),
    ))
}
