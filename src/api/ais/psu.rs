//! `GET /v1/users` (alias `/v1/user`): SCA to learn who the PSU is (a PISP that is not an AISP gets its
//! psu-id this way), and `GET /v1/agreements`: the PSU's corporate agreements, each with the
//! psu-corporate-id to send as PSU-Corporate-ID.

use super::access::identified_psu;
use crate::api::error::ApiResult;
use crate::sca::authorisation::Purpose;
use crate::sca::{flow, psu};
use crate::state::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/users", get(user))
        .route("/user", get(user))
        .route("/agreements", get(agreements))
}

/// 200 with the psu-id when the PSU completed SCA in this TPP session; otherwise 401 with scaRedirect.
async fn user(State(state): State<AppState>, parts: Parts) -> ApiResult<Json<Value>> {
    let psu = identified_psu(&parts, &state, Purpose::UserLookup)?;
    Ok(Json(json!({
        "psuId": psu.psu_id,
        "context": psu.session_context.map(|c| c.as_str()),
    })))
}

/// The PSU's corporate agreements (SCA in this TPP session required).
async fn agreements(State(state): State<AppState>, parts: Parts) -> ApiResult<Json<Value>> {
    let psu = identified_psu(&parts, &state, Purpose::Consent)?;
    let tpp_id = psu.tpp.tpp_id();
    let mut list = Vec::new();
    for choice in flow::agreement_choices(&state.store, &psu.customer_id)? {
        list.push(json!({
            "psuCorporateId": psu::corporate_id_for(&state.store, &tpp_id, &choice.id)?,
            "name": choice.name,
            "organisationNumber": choice.owner_number,
            "ownerName": choice.owner_name,
        }));
    }
    Ok(Json(json!({ "agreements": list })))
}
