//! The TPP dialogue endpoints: `PUT|GET|DELETE /v1/tpp-dialogue/contact` for the calling TPP's
//! contact e-mail address (the TPP is whoever signed the request).

use super::json::JsonBody;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::openapi::routes::Routes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Extension;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::tpp_dialogue::{self, TppContact};
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ContactRequest {
    email: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactResponse {
    #[serde(flatten)]
    contact: TppContact,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<xs2a_core::domain::refusal::TppMessage>,
}

async fn register(
    State(state): State<AppState>,
    Extension(tpp): Extension<VerifiedTpp>,
    JsonBody(body): JsonBody<ContactRequest>,
) -> ApiResult<Json<ContactResponse>> {
    let (contact, tpp_messages) =
        tpp_dialogue::register(&state.store, &tpp.tpp_id(), &body.email, state.clock.now())?;
    Ok(Json(ContactResponse {
        contact,
        tpp_messages,
    }))
}

async fn read(
    State(state): State<AppState>,
    Extension(tpp): Extension<VerifiedTpp>,
) -> ApiResult<Json<TppContact>> {
    Ok(Json(tpp_dialogue::get(&state.store, &tpp.tpp_id())?))
}

async fn remove(
    State(state): State<AppState>,
    Extension(tpp): Extension<VerifiedTpp>,
) -> ApiResult<StatusCode> {
    tpp_dialogue::remove(&state.store, &tpp.tpp_id())?;
    Ok(StatusCode::NO_CONTENT)
}

/// These routes, each with its OpenAPI description.
pub fn routes() -> Routes {
    use crate::api::openapi::headers::SIGNED;
    Routes::new()
        .get("/tpp-dialogue/contact", read, |op| {
            op.tag("Control")
                .summary("The calling TPP's contact address")
                .params(SIGNED)
                .answers::<TppContact>(200, "The contact")
                .refusals(&[400, 404])
        })
        .put("/tpp-dialogue/contact", register, |op| {
            op.tag("Control")
                .summary("Register the calling TPP's contact e-mail address")
                .params(SIGNED)
                .body::<ContactRequest>(true)
                .answers::<ContactResponse>(200, "Registered")
                .refusals(&[400, 413, 415])
        })
        .delete("/tpp-dialogue/contact", remove, |op| {
            op.tag("Control")
                .summary("Remove the calling TPP's contact address")
                .params(SIGNED)
                .empty(204, "Removed")
                .refusals(&[400, 404])
        })
}
