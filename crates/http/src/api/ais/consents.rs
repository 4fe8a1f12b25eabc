//! The consent endpoints. Consent is bank-offered: the PSU picks the accounts on the bank's consent screen
//! during SCA, so `POST /v1/bank-offered-consents` ignores any body and answers 401 with the scaRedirect
//! that leads there; `POST /v1/consents` is its deprecated predecessor and does the same, with a
//! `Deprecation` header. `GET /v1/bank-offered-consents` shows what the PSU granted in this context.

use super::access::{require_aisp, AisAccess};
use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::headers;
use crate::api::links::Links;
use crate::api::openapi::headers::{SCA, SIGNED};
use crate::api::openapi::routes::Routes;
use crate::api::sca_trigger::{sca_required, ScaNeed};
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use xs2a_core::bank::consent::SCA_RENEWAL;
use xs2a_core::bank::mock::holdings;
use xs2a_core::bank::mock::model::{Account, CardAccount};
use xs2a_core::bank::sca::authorisation::Purpose;
use xs2a_core::bank::sca::psu;
use xs2a_core::domain::currency::Currency;
use xs2a_core::domain::refusal::Code;
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// Starts the consent flow for the PSU named by PSU-ID (if any), in the context PSU-Corporate-ID names.
fn consent_flow(state: &AppState, parts: &Parts) -> ApiResult<ApiError> {
    let tpp = parts
        .extensions
        .get::<VerifiedTpp>()
        .cloned()
        .ok_or_else(|| ApiError::internal("consent route without the signature gate"))?;
    require_aisp(&tpp)?;
    let tpp_id = tpp.tpp_id();
    let customer_id = match headers::text(&parts.headers, "psu-id") {
        Some(psu_id) => psu::customer_of(&state.store, &tpp_id, psu_id)?,
        None => None,
    };
    let agreement_id = match headers::text(&parts.headers, "psu-corporate-id") {
        Some(id) => psu::agreement_of(&state.store, &tpp_id, id)?,
        None => None,
    };
    Ok(sca_required(
        state,
        parts,
        &tpp,
        ScaNeed {
            purpose: Purpose::Consent,
            code: Code::ConsentInvalid,
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

/// An account the consent grants.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct GrantedAccount {
    resource_id: String,
    iban: String,
    bban: String,
    currency: Currency,
}

/// A card account the consent grants.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct GrantedCardAccount {
    resource_id: String,
    masked_pan: String,
    currency: Currency,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ConsentAccess {
    accounts: Vec<GrantedAccount>,
    card_accounts: Vec<GrantedCardAccount>,
}

/// `GET /v1/bank-offered-consents`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ConsentBody {
    access: ConsentAccess,
    /// Always `valid`: an expired or missing consent is refused instead.
    consent_status: &'static str,
    /// PRIVATE or CORPORATE.
    context: &'static str,
    valid_until: String,
    last_action_date: String,
    #[serde(rename = "_links")]
    links: Links,
}

/// What the PSU granted this TPP in the request's context.
async fn current_consent(
    State(state): State<AppState>,
    access: AisAccess,
) -> ApiResult<Json<ConsentBody>> {
    let store = &state.store;
    let mut accounts = Vec::new();
    for id in &access.consent.accounts {
        if let Ok(account) = holdings::by_id::<Account>(store, "account", id) {
            accounts.push(GrantedAccount {
                resource_id: account.id,
                iban: account.iban,
                bban: account.bban,
                currency: account.currency,
            });
        }
    }
    let mut card_accounts = Vec::new();
    for id in &access.consent.card_accounts {
        if let Ok(card) = holdings::by_id::<CardAccount>(store, "cardAccount", id) {
            card_accounts.push(GrantedCardAccount {
                resource_id: card.id,
                masked_pan: card.masked_pan,
                currency: card.currency,
            });
        }
    }
    let valid_until = (access.consent.sca_at + SCA_RENEWAL).date();
    let links = Links::new()
        .get("accounts", "/v1/accounts")
        .get("cardAccounts", "/v1/card-accounts");
    Ok(Json(ConsentBody {
        access: ConsentAccess {
            accounts,
            card_accounts,
        },
        consent_status: "valid",
        context: access.context.as_str(),
        valid_until: xs2a_core::bank::mock::model::format_date(valid_until),
        last_action_date: xs2a_core::bank::mock::model::format_date(access.consent.sca_at.date()),
        links,
    }))
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    Routes::new()
        .post("/bank-offered-consents", start_consent, |op| {
            op.tag("AIS")
                .summary("Start consent: the PSU picks accounts at the bank")
                .description("Any body is ignored. Always 401 CONSENT_INVALID with `_links.scaRedirect` to the bank's consent screen.")
                .params(SIGNED)
                .params(SCA)
                .refusals(&[400, 401, 403])
        })
        .get("/bank-offered-consents", current_consent, |op| {
            super::signed_read(op, "What the PSU granted in this context")
                .answers::<ConsentBody>(200, "The consent")
                .refusals(&[400, 401, 403, 429])
        })
        .post("/consents", deprecated_consents, |op| {
            op.tag("AIS")
                .summary("Deprecated: as POST /v1/bank-offered-consents")
                .description(
                    "Answers as its successor, with `Deprecation` and `Link: rel=successor-version` headers.",
                )
                .params(SIGNED)
                .params(SCA)
                .refusals(&[400, 401, 403])
        })
}
