//! SCA without a browser, for testers' CI and the workbench: `POST /v1/sandbox/sca/{id}` takes every
//! remaining step of an authorisation the way the PSU would on the bank's pages (same engine, so the
//! result is the same), and `GET /v1/sandbox/sca/{id}` shows where an authorisation stands. Sandbox only,
//! signed like every /v1 request, and only for the TPP that started the authorisation: to any other TPP
//! it does not exist (404 SCA_NOT_FOUND).

use crate::api::error::{ApiError, ApiResult};
use crate::api::json;
use crate::api::openapi::routes::Routes;
use crate::api::sca_trigger::base_url;
use axum::extract::{Extension, Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::Json;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use xs2a_core::bank::sca::authorisation::{
    AuthMethod, Authorisation, Outcome, Purpose, Step, LIFETIME,
};
use xs2a_core::bank::sca::engine::{self, StepError};
use xs2a_core::bank::sca::Context;
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// What the PSU would do on the pages. Every field is optional: steps already taken or preset by the
/// triggering request are skipped.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DriveRequest {
    /// Needed at the identify step (else the X-PSU-IDENTITY preset is used).
    pub national_id: Option<String>,
    /// Default HA2, or ENGANGSKODEAPP_BIOMETRI when the TPP asked for the biometric variant.
    pub method: Option<String>,
    /// Default CORPORATE when agreementId is given, else PRIVATE.
    pub context: Option<String>,
    pub agreement_id: Option<String>,
    /// Account and card account ids to grant; default: every account offered.
    pub accounts: Option<Vec<String>>,
    /// success (default), cancel or failure.
    pub outcome: Option<String>,
}

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Success,
    Cancel,
    Failure,
}

/// The body's choices, checked before any step is taken so a typo changes nothing.
struct Plan {
    wanted: Wanted,
    method: Option<AuthMethod>,
    context: Option<Context>,
}

fn plan(request: &DriveRequest) -> ApiResult<Plan> {
    let wanted = match request
        .outcome
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("success") => Wanted::Success,
        Some("cancel") => Wanted::Cancel,
        Some("failure") => Wanted::Failure,
        Some(other) => {
            return Err(ApiError::format(
                "outcome",
                format!("outcome '{other}' is not one of success, cancel, failure"),
            ))
        }
    };
    let method = match &request.method {
        None => None,
        Some(text) => Some(AuthMethod::parse(text).ok_or_else(|| {
            let known: Vec<&str> = AuthMethod::ALL.iter().map(|m| m.as_str()).collect();
            ApiError::format(
                "method",
                format!("method '{text}' is not one of {}", known.join(", ")),
            )
        })?),
    };
    let context = match &request.context {
        None => None,
        Some(text) => Some(
            Context::parse(&text.trim().to_ascii_uppercase()).ok_or_else(|| {
                ApiError::format(
                    "context",
                    format!("context '{text}' is not PRIVATE or CORPORATE"),
                )
            })?,
        ),
    };
    if context == Some(Context::Private) && request.agreement_id.is_some() {
        return Err(ApiError::format(
            "agreementId",
            "agreementId goes with context CORPORATE; leave it out for PRIVATE",
        ));
    }
    Ok(Plan {
        wanted,
        method,
        context,
    })
}

/// A refused step, naming the body field at fault.
fn refused(error: StepError) -> ApiError {
    let path = match &error {
        StepError::InvalidNationalId(_) | StepError::UnknownPerson => Some("nationalId"),
        StepError::NoAgreements | StepError::UnknownAgreement => Some("agreementId"),
        StepError::UnknownAccount(_) => Some("accounts"),
        _ => None,
    };
    let mut refusal = error.to_refusal();
    refusal.path = path.map(str::to_owned);
    refusal.into()
}

/// The authorisation, if the calling TPP started it; another TPP's authorisation is not found.
fn own(state: &AppState, tpp: &VerifiedTpp, id: &str) -> ApiResult<Authorisation> {
    let auth = engine::load(&state.store, id).map_err(refused)?;
    if auth.tpp_id != tpp.tpp_id() {
        return Err(refused(StepError::NotFound));
    }
    Ok(auth)
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
    let plan = plan(&request)?;
    let store = &state.store;
    let now = state.clock.now();
    let mut auth = own(&state, &tpp, &id)?;
    if auth.outcome.is_some() {
        return Err(refused(StepError::AlreadyFinished));
    }
    auth = match plan.wanted {
        Wanted::Cancel => engine::cancel(store, &id, now).map_err(refused)?,
        Wanted::Failure => engine::fail(store, &id, now).map_err(refused)?,
        Wanted::Success => {
            while auth.outcome.is_none() {
                auth = step(&state, &auth, &request, &plan)?;
            }
            xs2a_core::bank::after_sca::after_sca(&state, &auth);
            auth
        }
    };
    Ok(Json(response(&auth)?))
}

/// Takes the one step the authorisation is at.
fn step(
    state: &AppState,
    auth: &Authorisation,
    request: &DriveRequest,
    plan: &Plan,
) -> ApiResult<Authorisation> {
    let store = &state.store;
    let now = state.clock.now();
    let id = auth.id.as_str();
    let result = match auth.step() {
        Step::Identify => {
            let national_id = request
                .national_id
                .as_deref()
                .or(auth.preset_identity.as_deref())
                .ok_or_else(|| {
                    ApiError::format(
                        "nationalId",
                        "the authorisation is at the identify step: give the PSU's nationalId (the request had no usable X-PSU-IDENTITY)",
                    )
                })?;
            engine::identify(store, id, national_id, now)
        }
        Step::Method => {
            let default = if auth.biometric_in_app {
                AuthMethod::EngangskodeappBiometri
            } else {
                AuthMethod::Ha2
            };
            engine::choose_method(store, id, plan.method.unwrap_or(default), now)
        }
        Step::Context => {
            let context = plan.context.unwrap_or(match request.agreement_id {
                Some(_) => Context::Corporate,
                None => Context::Private,
            });
            engine::choose_context(store, id, context, request.agreement_id.as_deref(), now)
        }
        Step::Consent => {
            let ticked = match &request.accounts {
                Some(accounts) => accounts.clone(),
                None => engine::consent_choices(store, auth)?
                    .into_iter()
                    .map(|c| c.id)
                    .collect(),
            };
            engine::grant(store, id, &ticked, now)
        }
        Step::Confirm => engine::confirm(store, id, now),
        Step::Finished => return Ok(auth.clone()),
    };
    result.map_err(refused)
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
    let auth = own(&state, &tpp, &id)?;
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
    fn sca_automation_checks_the_body_before_any_step() {
        let bad = DriveRequest {
            outcome: Some("maybe".into()),
            ..DriveRequest::default()
        };
        assert_eq!(
            plan(&bad).err().unwrap().refusal.path.as_deref(),
            Some("outcome")
        );
        let bad = DriveRequest {
            method: Some("PIGEON".into()),
            ..DriveRequest::default()
        };
        assert_eq!(
            plan(&bad).err().unwrap().refusal.path.as_deref(),
            Some("method")
        );
        let mixed = DriveRequest {
            context: Some("private".into()),
            agreement_id: Some("a".into()),
            ..DriveRequest::default()
        };
        assert_eq!(
            plan(&mixed).err().unwrap().refusal.path.as_deref(),
            Some("agreementId")
        );
    }

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
