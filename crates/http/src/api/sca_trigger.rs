//! Asking for SCA (docs/interface.md#strong-customer-authentication-and-tpp-sessions): a request that needs it gets
//! 401 with `_links.scaRedirect` to the bank's pages and a tppMessage saying why. The authorisation is started here
//! with what the request presets (X-PSU-IDENTITY, PSU-ID, PSU-Corporate-ID, X-PSU-AuthMethod-Preferred,
//! TPP-Redirect-Preferred).

use super::links::Links;
use crate::api::error::{ApiError, ApiResult};
use axum::http::request::Parts;
use axum::http::StatusCode;
use xs2a_core::bank::sca::authorisation::{AuthMethod, Purpose};
use xs2a_core::bank::sca::engine::{self, StartSca};
use xs2a_core::domain::refusal::Code;
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// The scheme a request came in on; the TLS listener marks its requests.
#[derive(Debug, Clone, Copy)]
pub struct Https;

/// The service's own base URL as the client reached it (for absolute links).
pub fn base_url(parts: &Parts) -> String {
    let scheme = if parts.extensions.get::<Https>().is_some() {
        "https"
    } else {
        "http"
    };
    let host = parts
        .headers
        .get("host")
        .and_then(|h| h.to_str().ok())
        .or_else(|| parts.uri.authority().map(|a| a.as_str()))
        .unwrap_or("127.0.0.1");
    format!("{scheme}://{host}")
}

/// A header's text value, if present and readable.
pub fn header<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// What to start and why.
pub struct ScaNeed {
    pub purpose: Purpose,
    pub code: Code,
    pub reason: String,
    pub customer_id: Option<String>,
    pub agreement_id: Option<String>,
}

/// Starts an authorisation and returns the 401 that carries its scaRedirect.
pub fn sca_required(state: &AppState, parts: &Parts, tpp: &VerifiedTpp, need: ScaNeed) -> ApiError {
    match start(state, parts, tpp, need) {
        Ok(error) | Err(error) => error,
    }
}

fn start(state: &AppState, parts: &Parts, tpp: &VerifiedTpp, need: ScaNeed) -> ApiResult<ApiError> {
    // Without these the bank cannot send the PSU back (send TPP-Redirect-URI on every request:
    // docs/interface.md#strong-customer-authentication-and-tpp-sessions).
    let redirect_uri = header(parts, "tpp-redirect-uri").ok_or_else(|| {
        ApiError::new(
            Code::HttpHeaderRequired,
            Some("TPP-Redirect-URI"),
            format!(
                "{} To start SCA the request needs TPP-Redirect-URI (send it on every request).",
                need.reason
            ),
        )
    })?;
    let session_id = header(parts, "tpp-session-id").ok_or_else(|| {
        ApiError::new(
            Code::HttpHeaderRequired,
            Some("TPP-Session-ID"),
            format!("{} To start SCA the request needs TPP-Session-ID: an SCA is valid for one hour inside it.", need.reason),
        )
    })?;
    let auth = engine::start(
        &state.store,
        StartSca {
            tpp_id: tpp.tpp_id(),
            tpp_name: tpp.tpp_name(),
            tpp_session_id: session_id.to_owned(),
            redirect_uri: redirect_uri.to_owned(),
            purpose: need.purpose,
            preset_identity: header(parts, "x-psu-identity").map(str::to_owned),
            preset_customer_id: need.customer_id,
            preset_agreement_id: need.agreement_id,
            preferred_method: header(parts, "x-psu-authmethod-preferred")
                .and_then(AuthMethod::parse),
            biometric_in_app: header(parts, "tpp-redirect-preferred") == Some("false"),
        },
        state.clock.now(),
    )?;
    let href = format!("{}{}", base_url(parts), auth.page_path());
    let exemption = match auth.session_sca_at {
        Some(at) => format!(
            " The PSU completed SCA in this TPP-Session-ID at {at}, less than an hour ago, so no new SCA is \
             asked (docs/interface.md#strong-customer-authentication-and-tpp-sessions): the bank's pages \
             skip authentication and only ask for the choices this flow needs."
        ),
        None => String::new(),
    };
    Ok(ApiError::new(
        need.code,
        None,
        format!(
            "{}{exemption} Send the PSU to the scaRedirect link.",
            need.reason
        ),
    )
    .with_status(StatusCode::UNAUTHORIZED)
    .with_links(Links::new().get("scaRedirect", href)))
}
