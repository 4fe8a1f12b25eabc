//! Asking for SCA (docs/interface.md#strong-customer-authentication-and-tpp-sessions): a request that needs it gets
//! 401 with `_links.scaRedirect` to the bank's pages and a tppMessage saying why. The core starts the
//! authorisation (`bank::sca::asking`) with what the request presets, read here once (TPP-Session-ID,
//! TPP-Redirect-URI, X-PSU-IDENTITY, X-PSU-AuthMethod-Preferred, TPP-Redirect-Preferred).

use super::headers;
use super::links::Links;
use crate::api::error::ApiError;
use axum::http::request::Parts;
use axum::http::StatusCode;
use xs2a_core::bank::sca::asking;
use xs2a_core::bank::sca::authorisation::Purpose;
use xs2a_core::bank::sca::presets::ScaPresets;
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

/// What the request presets for an SCA it may start, its headers read once.
pub fn presets(parts: &Parts) -> ScaPresets {
    let read = |name| headers::owned(&parts.headers, name);
    ScaPresets {
        tpp_session_id: read("tpp-session-id"),
        redirect_uri: read("tpp-redirect-uri"),
        psu_identity: read("x-psu-identity"),
        preferred_method: read("x-psu-authmethod-preferred"),
        redirect_preferred: read("tpp-redirect-preferred"),
        tpp_brand: read("tpp-brand-logging-information"),
    }
}

/// What to start and why.
pub struct ScaNeed {
    pub purpose: Purpose,
    pub code: Code,
    pub reason: String,
    pub customer_id: Option<String>,
    pub agreement_id: Option<String>,
}

/// Starts an authorisation and returns the 401 that carries its scaRedirect (or the refusal that
/// prevented it: the core's [`asking::ask`]).
pub fn sca_required(state: &AppState, parts: &Parts, tpp: &VerifiedTpp, need: ScaNeed) -> ApiError {
    let need = asking::ScaNeed {
        purpose: need.purpose,
        code: need.code,
        reason: need.reason,
        customer_id: need.customer_id,
        agreement_id: need.agreement_id,
    };
    match asking::ask(&state.store, tpp, &presets(parts), need, state.clock.now()) {
        Ok(asked) => {
            let href = format!("{}{}", base_url(parts), asked.authorisation.page_path());
            ApiError::from(asked.refusal)
                .with_status(StatusCode::UNAUTHORIZED)
                .with_links(Links::new().get("scaRedirect", href))
        }
        Err(refusal) => refusal.into(),
    }
}
