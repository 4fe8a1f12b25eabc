//! The authorisation sub-resources of payments and signing baskets (Berlin Group 1.3, where the bank names
//! only the startAuthorisation link): `POST …/authorisations` starts one and answers with its scaRedirect
//! and scaStatus links, `GET …/authorisations` lists those started on the resource, `GET
//! …/authorisations/{authorisationId}` reads one's scaStatus. The same three for `/v1/{service}/{product}
//! /{paymentId}` (single, periodic and bulk payments) and `/v1/signing-baskets/{basketId}`.

use super::baskets;
use super::caller::{self, pisp};
use super::payments::{service_and_product, PRODUCT, SERVICE};
use super::sca_start::{start_basket_sca, started, Started};
use super::views;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::links::Links;
use crate::api::openapi::headers::{SCA, SET_B_P, SIGNED};
use crate::api::openapi::routes::Routes;
use crate::api::path::ApiPath;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::Serialize;
use xs2a_core::bank::payment_initiation;
use xs2a_core::bank::pis::service;
use xs2a_core::bank::sca::authorisation::Authorisation;
use xs2a_core::bank::sca::sub_resources::{self, no_such_authorisation, Resource};
use xs2a_core::domain::refusal::Code;
use xs2a_workbench::app_state::AppState;

/// An authorisation started: where the PSU goes (`scaRedirect`) and where to follow its status
/// (`scaStatus`).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartedAuthorisation {
    /// `received` when started.
    pub sca_status: &'static str,
    pub authorisation_id: String,
    /// `scaRedirect` and `scaStatus`.
    #[serde(rename = "_links")]
    pub links: Links,
}

impl StartedAuthorisation {
    fn of(resource_path: &str, started: Started) -> Self {
        StartedAuthorisation {
            sca_status: "received",
            links: views::sca_links(resource_path, &started),
            authorisation_id: started.authorisation_id,
        }
    }
}

/// The status of an authorisation.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AuthorisationStatus {
    /// received, psuIdentified, finalised or failed.
    sca_status: &'static str,
}

/// The authorisations started on a resource, oldest first.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AuthorisationList {
    authorisation_ids: Vec<String>,
}

/// Berlin Group's scaStatus for an authorisation.
pub fn sca_status(auth: &Authorisation, now: time::OffsetDateTime) -> &'static str {
    use xs2a_core::bank::sca::authorisation::Outcome;
    match auth.outcome {
        Some(Outcome::Succeeded) => "finalised",
        Some(_) => "failed",
        None if auth.is_expired(now) => "failed",
        None if auth.customer_id.is_some() => "psuIdentified",
        None => "received",
    }
}

fn listed(authorisations: Vec<Authorisation>) -> Json<AuthorisationList> {
    Json(AuthorisationList {
        authorisation_ids: authorisations.into_iter().map(|a| a.id).collect(),
    })
}

async fn start_on_payment(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<(StatusCode, Json<StartedAuthorisation>)> {
    let found = service_and_product(&service, &product, &parts)?;
    let caller = caller::read(&parts)?;
    let (payment, auth) =
        payment_initiation::authorise_again(&state.store, &caller, found, &id, state.clock.now())?;
    let started = started(&parts, &auth);
    let path = views::payment_path(&payment);
    Ok((
        StatusCode::CREATED,
        Json(StartedAuthorisation::of(&path, started)),
    ))
}

async fn list_of_payment(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<Json<AuthorisationList>> {
    let (service, product) = service_and_product(&service, &product, &parts)?;
    let tpp = pisp(&parts)?;
    let payment = service::get(&state.store, &tpp.tpp_id(), service, product, &id)?;
    let started =
        sub_resources::started_on(&state.store, &tpp.tpp_id(), Resource::Payment(&payment.id))?;
    Ok(listed(started))
}

async fn status_on_payment(
    State(state): State<AppState>,
    ApiPath((service, product, id, authorisation_id)): ApiPath<(String, String, String, String)>,
    parts: Parts,
) -> ApiResult<Json<AuthorisationStatus>> {
    let found = service_and_product(&service, &product, &parts);
    if let Err(error) = &found {
        if error.code() == Code::NotFound {
            return Err(error.clone());
        }
    }
    let tpp = pisp(&parts)?;
    // A payment's status answers for its own authorisations and for those of a basket holding it.
    let auth = xs2a_core::bank::sca::engine::load(&state.store, &authorisation_id)
        .ok()
        .filter(|a| a.tpp_id == tpp.tpp_id() && a.payment_ids.contains(&id))
        .filter(|_| {
            found.as_ref().is_ok_and(|(service, product)| {
                service::get(&state.store, &tpp.tpp_id(), *service, *product, &id).is_ok()
            })
        })
        .ok_or_else(|| no_such_authorisation("payment"))?;
    Ok(Json(AuthorisationStatus {
        sca_status: sca_status(&auth, state.clock.now()),
    }))
}

async fn start_on_basket(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<(StatusCode, Json<StartedAuthorisation>)> {
    let (caller, payer, basket) = baskets::load(&state, &parts, &id)?;
    let started = start_basket_sca(&state, &parts, &caller, &payer, &basket)?;
    Ok((
        StatusCode::CREATED,
        Json(StartedAuthorisation::of(
            &baskets::basket_path(&basket),
            started,
        )),
    ))
}

async fn list_of_basket(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    parts: Parts,
) -> ApiResult<Json<AuthorisationList>> {
    let (_, payer, basket) = baskets::load(&state, &parts, &id)?;
    let started =
        sub_resources::started_on(&state.store, &payer.tpp_id, Resource::Basket(&basket.id))?;
    Ok(listed(started))
}

async fn status_on_basket(
    State(state): State<AppState>,
    ApiPath((id, authorisation_id)): ApiPath<(String, String)>,
    parts: Parts,
) -> ApiResult<Json<AuthorisationStatus>> {
    let (_, payer, basket) = baskets::load(&state, &parts, &id)?;
    let auth = xs2a_core::bank::sca::engine::load(&state.store, &authorisation_id)
        .ok()
        .filter(|a| a.tpp_id == payer.tpp_id && Resource::Basket(&basket.id).owns(a))
        .ok_or_else(|| no_such_authorisation("basket"))?;
    Ok(Json(AuthorisationStatus {
        sca_status: sca_status(&auth, state.clock.now()),
    }))
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    Routes::new()
        .get("/{service}/{product}/{paymentId}/authorisations", list_of_payment, |op| {
            op.tag("PIS")
                .summary("The authorisations started on a payment")
                .description("Its own, oldest first (creating a payment starts the first); a basket's authorisations are listed on the basket.")
                .params(&[SERVICE, PRODUCT])
                .params(SIGNED)
                .answers::<AuthorisationList>(200, "Their ids")
                .refusals(&[400, 403, 404])
        })
        .post("/{service}/{product}/{paymentId}/authorisations", start_on_payment, |op| {
            op.tag("PIS")
                .summary("Start an authorisation of a payment")
                .params(&[SERVICE, PRODUCT])
                .params(SIGNED)
                .params(SCA)
                .answers::<StartedAuthorisation>(201, "Started: send the PSU to scaRedirect")
                .refusals(&[400, 403, 404, 409])
        })
        .get(
            "/{service}/{product}/{paymentId}/authorisations/{authorisationId}",
            status_on_payment,
            |op| {
                op.tag("PIS")
                    .summary("The status of an authorisation")
                    .params(&[SERVICE, PRODUCT])
                    .params(SIGNED)
                    .answers::<AuthorisationStatus>(200, "The SCA status")
                    .refusals(&[400, 403, 404])
            },
        )
        .get("/signing-baskets/{basketId}/authorisations", list_of_basket, |op| {
            op.tag("Signing baskets")
                .summary("The authorisations started on a basket")
                .description("Oldest first (creating a basket starts the first).")
                .params(SIGNED)
                .params(SET_B_P)
                .answers::<AuthorisationList>(200, "Their ids")
                .refusals(&[400, 403, 404])
        })
        .post("/signing-baskets/{basketId}/authorisations", start_on_basket, |op| {
            op.tag("Signing baskets")
                .summary("Start an authorisation of a basket")
                .params(SIGNED)
                .params(SET_B_P)
                .answers::<StartedAuthorisation>(201, "Started: send the PSU to scaRedirect")
                .refusals(&[400, 403, 404, 409])
        })
        .get(
            "/signing-baskets/{basketId}/authorisations/{authorisationId}",
            status_on_basket,
            |op| {
                op.tag("Signing baskets")
                    .summary("The status of a basket's authorisation")
                    .params(SIGNED)
                    .params(SET_B_P)
                    .answers::<AuthorisationStatus>(200, "The SCA status")
                    .refusals(&[400, 403, 404])
            },
        )
}
