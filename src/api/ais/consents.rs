//! The consent endpoints. Consent is bank-offered: the PSU picks the accounts on the bank's consent screen
//! during SCA, so `POST /v1/bank-offered-consents` ignores any body and answers 401 with the scaRedirect
//! that leads there; `POST /v1/consents` is its deprecated predecessor and does the same, with a
//! `Deprecation` header. `GET /v1/bank-offered-consents` shows what the PSU granted in this context.

use super::access::{require_aisp, AisAccess};
use crate::api::error::{ApiError, ApiResult, Code};
use crate::api::links::Links;
use crate::api::sca_trigger::{header, sca_required, ScaNeed};
use crate::consent::SCA_RENEWAL;
use crate::sandbox::{accounts, card_accounts};
use crate::sca::authorisation::Purpose;
use crate::sca::psu;
use crate::signing::verifier::VerifiedTpp;
use crate::state::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/consents", post(deprecated_consents))
        .route(
            "/bank-offered-consents",
            post(start_consent).get(current_consent),
        )
}

/// Starts the consent flow for the PSU named by PSU-ID (if any), in the context PSU-Corporate-ID names.
fn consent_flow(state: &AppState, parts: &Parts) -> ApiResult<ApiError> {
    let tpp = parts
        .extensions
        .get::<VerifiedTpp>()
        .cloned()
        .ok_or_else(|| ApiError::internal("consent route without the signature gate"))?;
    require_aisp(&tpp)?;
    let tpp_id = tpp.tpp_id();
    let customer_id = match header(parts, "psu-id") {
        Some(psu_id) => psu::customer_of(&state.store, &tpp_id, psu_id)?,
        None => None,
    };
    let agreement_id = match header(parts, "psu-corporate-id") {
        Some(id) => psu::agreement_of(&state.store, &tpp_id, id)?,
        None => None,
    };
    Ok(sca_required(
        state,
        parts,
        &tpp,
        ScaNeed {
            purpose: Purpose::Consent,
            code: Code::ConsentUnknown,
            reason: "Consent is given on the bank's consent screen, where the PSU ticks the accounts to grant.".into(),
            customer_id,
            agreement_id,
        },
    ))
}

async fn start_consent(State(state): State<AppState>, parts: Parts) -> Response {
    match consent_flow(&state, &parts) {
        Ok(error) | Err(error) => error.into_response(),
    }
}

/// `Deprecation` of POST /v1/consents: 2024-01-01T00:00:00Z (RFC 9745 `@<unix seconds>`).
pub const DEPRECATED_SINCE: &str = "@1704067200";

async fn deprecated_consents(State(state): State<AppState>, parts: Parts) -> Response {
    let mut response = start_consent(State(state), parts).await;
    let headers = response.headers_mut();
    // RFC 9745: the date the endpoint was deprecated, as a structured-field date (unix seconds).
    headers.insert("deprecation", HeaderValue::from_static(DEPRECATED_SINCE));
    headers.insert(
        "link",
        HeaderValue::from_static("</v1/bank-offered-consents>; rel=\"successor-version\""),
    );
    response
}

/// What the PSU granted this TPP in the request's context.
async fn current_consent(
    State(state): State<AppState>,
    access: AisAccess,
) -> ApiResult<Json<Value>> {
    let store = &state.store;
    let mut granted_accounts = Vec::new();
    for id in &access.consent.accounts {
        if let Ok(account) = accounts::by_id(store, "account", id) {
            granted_accounts.push(json!({"resourceId": account.id, "iban": account.iban, "bban": account.bban, "currency": account.currency}));
        }
    }
    let mut granted_cards = Vec::new();
    for id in &access.consent.card_accounts {
        if let Ok(card) = card_accounts::by_id(store, "cardAccount", id) {
            granted_cards.push(json!({"resourceId": card.id, "maskedPan": card.masked_pan, "currency": card.currency}));
        }
    }
    let valid_until = (access.consent.sca_at + SCA_RENEWAL).date();
    let links = Links::new()
        .get("accounts", "/v1/accounts")
        .get("cardAccounts", "/v1/card-accounts");
    Ok(Json(json!({
        "access": {"accounts": granted_accounts, "cardAccounts": granted_cards},
        "consentStatus": "valid",
        "context": access.context.as_str(),
        "validUntil": crate::sandbox::model::format_date(valid_until),
        "lastActionDate": crate::sandbox::model::format_date(access.consent.sca_at.date()),
        "_links": links,
    })))
}
