//! `GET /v1/users` (alias `/v1/user`): SCA to learn who the PSU is (a PISP that is not an AISP gets its
//! psu-id this way), and `GET /v1/agreements`: the PSU's corporate agreements, each with the
//! psu-corporate-id to send as PSU-Corporate-ID.

use super::access::identified_psu;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::openapi::builder::Operation;
use crate::api::openapi::headers::{SCA, SIGNED};
use crate::api::openapi::routes::Routes;
use axum::extract::State;
use axum::http::request::Parts;
use serde::Serialize;
use xs2a_core::bank::sca::authorisation::Purpose;
use xs2a_core::bank::sca::{engine, psu};
use xs2a_workbench::app_state::AppState;

/// Who the PSU is, for this TPP.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UserBody {
    /// The PSU-ID to send on later requests.
    psu_id: String,
    /// PRIVATE or CORPORATE: the context the PSU chose at SCA, when one was chosen.
    context: Option<&'static str>,
}

/// 200 with the psu-id when the PSU completed SCA in this TPP session; otherwise 401 with scaRedirect.
async fn user(State(state): State<AppState>, parts: Parts) -> ApiResult<Json<UserBody>> {
    let psu = identified_psu(&parts, &state, Purpose::UserLookup)?;
    Ok(Json(UserBody {
        psu_id: psu.psu_id,
        context: psu.session_context.map(|c| c.as_str()),
    }))
}

/// One corporate agreement of the PSU.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AgreementItem {
    /// The value to send as PSU-Corporate-ID.
    psu_corporate_id: String,
    name: String,
    organisation_number: String,
    owner_name: String,
}

#[derive(Serialize, utoipa::ToSchema)]
struct AgreementsBody {
    agreements: Vec<AgreementItem>,
}

/// The PSU's corporate agreements (SCA in this TPP session required).
async fn agreements(
    State(state): State<AppState>,
    parts: Parts,
) -> ApiResult<Json<AgreementsBody>> {
    let psu = identified_psu(&parts, &state, Purpose::Consent)?;
    let tpp_id = psu.tpp.tpp_id();
    let mut list = Vec::new();
    for choice in engine::agreement_choices(&state.store, &psu.customer_id)? {
        list.push(AgreementItem {
            psu_corporate_id: psu::corporate_id_for(&state.store, &tpp_id, &choice.id)?,
            name: choice.name,
            organisation_number: choice.owner_number,
            owner_name: choice.owner_name,
        });
    }
    Ok(Json(AgreementsBody { agreements: list }))
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    fn user_route(op: Operation<'_>) -> Operation<'_> {
        op.tag("AIS")
            .summary("Who the PSU is (SCA to learn the PSU-ID)")
            .description("200 once the PSU completed SCA in this TPP session; before that 401 with `_links.scaRedirect`.")
            .params(SIGNED)
            .params(SCA)
            .answers::<UserBody>(200, "The PSU-ID")
            .refusals(&[400, 401, 403])
    }
    Routes::new()
        .get("/users", user, user_route)
        .get("/user", user, user_route)
        .get("/agreements", agreements, |op| {
            op.tag("AIS")
                .summary("The PSU's corporate agreements")
                .description("Each with the psu-corporate-id to send as PSU-Corporate-ID. SCA in this TPP session required (401 with scaRedirect before).")
                .params(SIGNED)
                .params(SCA)
                .answers::<AgreementsBody>(200, "The agreements")
                .refusals(&[400, 401, 403])
        })
}
