//! The account information gate as HTTP sees it: the [`AisAccess`] extractor reads the headers that decide
//! access, asks the core ([`xs2a_core::bank::ais::access`]) and answers its verdict: a refusal as is, or a 401
//! that starts SCA and carries the scaRedirect.

use crate::api::error::{ApiError, ApiResult};
use crate::api::headers;
use crate::api::sca_trigger::{sca_required, ScaNeed};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use std::ops::Deref;
use xs2a_core::bank::ais::access::{self as access, Ask, Denied};
use xs2a_core::bank::sca::authorisation::Purpose;
use xs2a_core::bank::sca::psu;
use xs2a_core::domain::refusal::Code;
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

use xs2a_core::bank::ais::access::IdentifiedPsu;

/// A request allowed to read account information, and on whose behalf (the core's [`access::Access`]).
#[derive(Debug, Clone)]
pub struct AisAccess(pub access::Access);

impl Deref for AisAccess {
    type Target = access::Access;

    fn deref(&self) -> &access::Access {
        &self.0
    }
}

impl FromRequestParts<AppState> for AisAccess {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let tpp = verified_tpp(parts)?;
        access::decide(&state.store, &tpp, ask(parts), state.clock.now())
            .map(AisAccess)
            .map_err(|denied| answer(denied, state, parts, &tpp, Purpose::Consent))
    }
}

/// Resolves PSU-ID and requires a valid SCA in the request's TPP-Session-ID; otherwise 401 with a
/// scaRedirect for `purpose`.
pub fn identified_psu(
    parts: &Parts,
    state: &AppState,
    purpose: Purpose,
) -> ApiResult<IdentifiedPsu> {
    let tpp = verified_tpp(parts)?;
    access::identify(&state.store, &tpp, ask(parts), state.clock.now())
        .map_err(|denied| answer(denied, state, parts, &tpp, purpose))
}

/// 403 unless the certificate has PSP_AI.
pub fn require_aisp(tpp: &VerifiedTpp) -> ApiResult<()> {
    Ok(access::require_aisp(tpp)?)
}

fn ask(parts: &Parts) -> Ask<'_> {
    Ask {
        psu_id: headers::text(&parts.headers, "psu-id"),
        session_id: headers::text(&parts.headers, "tpp-session-id"),
        corporate_id: headers::text(&parts.headers, "psu-corporate-id"),
        psu_present: headers::text(&parts.headers, "psu-ip-address").is_some(),
    }
}

/// The answer to a denied request: SCA needed starts an authorisation for `purpose` (401 with scaRedirect).
fn answer(
    denied: Denied,
    state: &AppState,
    parts: &Parts,
    tpp: &VerifiedTpp,
    purpose: Purpose,
) -> ApiError {
    match denied {
        Denied::Refused(refusal) => refusal.into(),
        Denied::Sca(cause) => sca_required(
            state,
            parts,
            tpp,
            ScaNeed {
                purpose,
                code: cause.code,
                reason: cause.reason,
                customer_id: cause.customer_id,
                agreement_id: cause.agreement_id,
            },
        ),
        Denied::UnknownPsu { psu_id } => {
            let need = ScaNeed {
                purpose,
                code: Code::PsuCredentialsInvalid,
                reason: String::new(),
                customer_id: None,
                agreement_id: None,
            };
            unknown_psu_error(sca_required(state, parts, tpp, need), &psu_id)
        }
    }
}

/// The 401 that restarts SCA for a PSU-ID this TPP does not know, worded as such and naming the header;
/// any other refusal from starting SCA (say 400 for a missing TPP-Redirect-URI) is returned unchanged.
fn unknown_psu_error(mut error: ApiError, psu_id: &str) -> ApiError {
    if error.status == StatusCode::UNAUTHORIZED && error.refusal.code == Code::PsuCredentialsInvalid
    {
        let unknown = psu::unknown_psu(psu_id);
        error.refusal.text = unknown.text;
        error.refusal.path = unknown.path;
    }
    error
}

fn verified_tpp(parts: &Parts) -> ApiResult<VerifiedTpp> {
    parts
        .extensions
        .get::<VerifiedTpp>()
        .cloned()
        .ok_or_else(|| ApiError::internal("account information route without the signature gate"))
}
