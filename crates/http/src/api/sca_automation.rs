//! SCA without a browser, for testers' CI and the workbench: `POST /v1/sandbox/sca/{id}` takes every
//! remaining step of an authorisation the way the PSU would on the bank's pages (same engine, so the
//! result is the same: the core's `bank::sca_automation`), and `GET /v1/sandbox/sca/{id}` shows where an
//! authorisation stands. Sandbox only, signed like every /v1 request, and only for the TPP that started the
//! authorisation: to any other TPP it does not exist (404 SCA_NOT_FOUND).

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json;
use crate::api::openapi::routes::Routes;
use crate::api::sca_trigger::base_url;
use axum::extract::{Extension, Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use bytes::Bytes;
use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use xs2a_core::bank::sca::authorisation::{
    AuthMethod, Authorisation, Outcome, Purpose, Step, LIFETIME,
};
use xs2a_core::bank::sca::Context;
use xs2a_core::bank::sca_automation::{self, DriveRequest};
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// How the authorisation ended and where the PSU's browser would have been sent.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DriveResponse {
    pub authorisation_id: String,
    pub outcome: Outcome,
    pub redirect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub psu_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub psu_corporate_id: Option<String>,
    pub tpp_session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// On failure: the code and message the redirect carries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `POST /v1/sandbox/sca/{authorisationId}`: 200 with the outcome and the redirect.
pub async fn drive(
    State(state): State<AppState>,
    Extension(tpp): Extension<VerifiedTpp>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<DriveResponse>> {
    let request: DriveRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DriveRequest::default()
    } else {
        json::check_media_type(headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()))?;
        json::parse(&body)?
    };
    let auth = sca_automation::drive(&state, &tpp.tpp_id(), &id, &request)?;
    Ok(Json(response(&auth)?))
}

/// The redirect's query parameters, read back out of it.
fn redirect_query(redirect: &str) -> Vec<(String, String)> {
    let without_fragment = redirect.split('#').next().unwrap_or("");
    let query = without_fragment
        .split_once('?')
        .map(|(_, q)| q)
        .unwrap_or("");
    serde_urlencoded::from_str(query).unwrap_or_default()
}

fn response(auth: &Authorisation) -> ApiResult<DriveResponse> {
    let (Some(outcome), Some(redirect)) = (auth.outcome, auth.redirect.clone()) else {
        return Err(ApiError::internal(
            "a finished authorisation has no redirect",
        ));
    };
    let query = redirect_query(&redirect);
    // The TPP's own redirect URI may carry parameters too: the engine appends its own last.
    let param = |name: &str| {
        query
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let failed = outcome != Outcome::Succeeded;
    Ok(DriveResponse {
        authorisation_id: auth.id.clone(),
        outcome,
        psu_id: param("psu-id"),
        psu_corporate_id: param("psu-corporate-id"),
        tpp_session_id: auth.tpp_session_id.clone(),
        context: param("context").filter(|_| !failed),
        code: param("code").filter(|_| failed),
        message: param("message").filter(|_| failed),
        redirect,
    })
}

/// What the authorisation was started with (the TPP's headers).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Presets {
    national_id: Option<String>,
    customer_id: Option<String>,
    agreement_id: Option<String>,
    auth_method: Option<AuthMethod>,
    biometric_in_app: bool,
}

/// An authorisation as the workbench and scripts see it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorisationView {
    authorisation_id: String,
    step: Step,
    purpose: Purpose,
    tpp_id: String,
    tpp_name: String,
    tpp_session_id: String,
    redirect_uri: String,
    /// The bank's page for the PSU.
    sca_redirect: String,
    created_at: String,
    expires_at: String,
    expired: bool,
    presets: Presets,
    customer_id: Option<String>,
    method: Option<AuthMethod>,
    context: Option<Context>,
    agreement_id: Option<String>,
    outcome: Option<Outcome>,
    /// Where the PSU was sent back (the TPP-Redirect-URI with the result), once finished.
    redirect: Option<String>,
}

/// `GET /v1/sandbox/sca/{authorisationId}`: the authorisation as the workbench shows it.
pub async fn show(
    State(state): State<AppState>,
    Extension(tpp): Extension<VerifiedTpp>,
    Path(id): Path<String>,
    parts: Parts,
) -> ApiResult<Json<AuthorisationView>> {
    let auth = sca_automation::own(&state, &tpp.tpp_id(), &id)?;
    let time = |t: time::OffsetDateTime| t.format(&Rfc3339).unwrap_or_default();
    Ok(Json(AuthorisationView {
        step: auth.step(),
        sca_redirect: format!("{}{}", base_url(&parts), auth.page_path()),
        created_at: time(auth.created_at),
        expires_at: time(auth.created_at + LIFETIME),
        expired: auth.is_expired(state.clock.now()),
        presets: Presets {
            national_id: auth.preset_identity,
            customer_id: auth.preset_customer_id,
            agreement_id: auth.preset_agreement_id,
            auth_method: auth.preferred_method,
            biometric_in_app: auth.biometric_in_app,
        },
        authorisation_id: auth.id,
        purpose: auth.purpose,
        tpp_id: auth.tpp_id,
        tpp_name: auth.tpp_name,
        tpp_session_id: auth.tpp_session_id,
        redirect_uri: auth.redirect_uri,
        customer_id: auth.customer_id,
        method: auth.method,
        context: auth.context,
        agreement_id: auth.agreement_id,
        outcome: auth.outcome,
        redirect: auth.redirect,
    }))
}

/// These routes, each with its OpenAPI description.
pub fn routes() -> Routes {
    use crate::api::openapi::headers::SIGNED;
    Routes::new()
        .get("/sandbox/sca/{authorisationId}", show, |op| {
            op.tag("Control")
                .summary("An authorisation of the calling TPP")
                .params(SIGNED)
                .answers::<AuthorisationView>(200, "The authorisation, its step and presets")
                .refusals(&[400, 403, 404])
        })
        .post("/sandbox/sca/{authorisationId}", drive, |op| {
            op.tag("Control")
                .summary("Complete an SCA as the PSU would")
                .description("Takes the remaining steps of the bank's pages (identify, method, context, consent, confirm) with the given choices; an empty body takes the defaults.")
                .params(SIGNED)
                .body::<DriveRequest>(false)
                .answers::<DriveResponse>(200, "How it ended and where the PSU was sent")
                .refusals(&[400, 401, 403, 404, 409, 415])
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sca_automation_reads_the_parameters_back_out_of_the_redirect() {
        let query = redirect_query("https://tpp.example/cb?state=1&psu-id=abc&message=a%20b#frag");
        assert_eq!(
            query,
            vec![
                ("state".to_owned(), "1".to_owned()),
                ("psu-id".to_owned(), "abc".to_owned()),
                ("message".to_owned(), "a b".to_owned()),
            ]
        );
    }
}
