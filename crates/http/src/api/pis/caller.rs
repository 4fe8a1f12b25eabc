//! Who is initiating a payment: the TPP must hold PSP_PI, send the headers SPEC.md marks required for
//! payment and basket calls (x-accept-fix, TPP-Session-ID, TPP-Redirect-URI, PSU-IP-Address) and name
//! the PSU by PSU-ID (or, for payment creation, X-PSU-IDENTITY).

use crate::api::error::{ApiError, ApiResult};
use crate::api::sca_trigger::header;
use axum::http::request::Parts;
use xs2a_core::bank::sca::{engine, psu};
use xs2a_core::signing::qc_statements::Psd2Role;
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// A TPP allowed to initiate payments, and the PSU it acts for.
pub struct PisCaller {
    pub tpp: VerifiedTpp,
    pub tpp_id: String,
    pub customer_id: String,
}

/// The TPP of a request, if it may initiate payments (403 FORBIDDEN otherwise).
pub fn pisp(parts: &Parts) -> ApiResult<VerifiedTpp> {
    let tpp = parts
        .extensions
        .get::<VerifiedTpp>()
        .cloned()
        .ok_or_else(|| ApiError::internal("payment route without the signature gate"))?;
    if !tpp.has_role(Psd2Role::PspPi) {
        let roles: Vec<&str> = tpp.tpp().roles().iter().map(|r| r.as_str()).collect();
        return Err(ApiError::forbidden(format!(
            "Payment initiation needs a certificate with the PSD2 role PSP_PI (PISP); this certificate has {}.",
            roles.join(", ")
        )));
    }
    Ok(tpp)
}

/// Requires the headers SPEC.md's common header set marks required for these calls.
pub fn require_headers(parts: &Parts, names: &[&str]) -> ApiResult<()> {
    for name in names {
        if header(parts, name).is_none() {
            return Err(if name.eq_ignore_ascii_case("x-accept-fix") {
                accept_fix_required()
            } else {
                ApiError::header_required(name)
            });
        }
    }
    Ok(())
}

/// x-accept-fix missing: which values it may hold (docs/reference/payments.md, x-accept-fix), so that a
/// developer need not look them up.
fn accept_fix_required() -> ApiError {
    ApiError::new(
        xs2a_core::domain::refusal::Code::HttpHeaderRequired,
        Some("x-accept-fix"),
        format!(
            "The header x-accept-fix is required on payment creation and on every signing-basket call: send the \
             published fixes your client supports, comma-separated, e.g. 'x-accept-fix: amount-as-string'. \
             Published: {}. A fix is in force once named or once its day has passed.",
            xs2a_core::domain::fix::Fix::published()
        ),
    )
}

/// The headers required on payment creation and on every basket call (SPEC.md sets P and B).
pub const REQUIRED: [&str; 4] = [
    "x-accept-fix",
    "TPP-Session-ID",
    "TPP-Redirect-URI",
    "PSU-IP-Address",
];

/// The PSU of the request: PSU-ID (a psu-id this TPP obtained), or X-PSU-IDENTITY when allowed.
pub fn caller(state: &AppState, parts: &Parts, allow_identity: bool) -> ApiResult<PisCaller> {
    let tpp = pisp(parts)?;
    let tpp_id = tpp.tpp_id();
    let customer_id = match (header(parts, "psu-id"), header(parts, "x-psu-identity")) {
        (Some(psu_id), _) => psu::customer_of(&state.store, &tpp_id, psu_id)?.ok_or_else(|| psu::unknown_psu(psu_id))?,
        (None, Some(identity)) if allow_identity => engine::person_by_national_id(&state.store, identity)
            .map_err(|e| ApiError::format("X-PSU-IDENTITY", e.to_string()))?
            .id,
        _ => {
            return Err(ApiError::header_required("PSU-ID").with_messages([
                xs2a_core::domain::refusal::TppMessage::warning(
                    xs2a_core::domain::refusal::Code::HttpHeaderRequired,
                    Some("PSU-ID"),
                    "Obtain a psu-id with GET /v1/users (SCA), or name the PSU with X-PSU-IDENTITY when creating a payment.",
                ),
            ]))
        }
    };
    require_corporate_id(state, parts, &tpp_id, &customer_id)?;
    Ok(PisCaller {
        tpp,
        tpp_id,
        customer_id,
    })
}

/// SPEC.md: a corporate user must send PSU-Corporate-ID (400 otherwise). A PSU whose SCA in this
/// TPP-Session-ID was done in corporate context is a corporate user here.
fn require_corporate_id(
    state: &AppState,
    parts: &Parts,
    tpp_id: &str,
    customer_id: &str,
) -> ApiResult<()> {
    let (Some(session_id), None) = (
        header(parts, "tpp-session-id"),
        header(parts, "psu-corporate-id"),
    ) else {
        return Ok(());
    };
    let now = state.clock.now();
    if let xs2a_core::bank::sca::session::SessionState::Valid(session) =
        xs2a_core::bank::sca::session::state(&state.store, tpp_id, customer_id, session_id, now)?
    {
        if session.context == xs2a_core::bank::sca::Context::Corporate {
            return Err(ApiError::new(
                xs2a_core::domain::refusal::Code::HttpHeaderRequired,
                Some("PSU-Corporate-ID"),
                "This PSU acts in corporate context: after SCA both PSU-ID and PSU-Corporate-ID must be sent.",
            ));
        }
    }
    Ok(())
}

/// The creator of a payment. Without PSU-ID or X-PSU-IDENTITY, a request that sends PSU-Context starts a
/// single-SCA journey (SPEC.md 2.9.6): the payment's own SCA identifies the PSU and returns the psu-id.
pub struct Creator {
    pub tpp: VerifiedTpp,
    pub tpp_id: String,
    /// None until the payment's SCA identifies the PSU.
    pub customer_id: Option<String>,
}

/// The creator of a payment request.
pub fn creator(state: &AppState, parts: &Parts) -> ApiResult<Creator> {
    let single_sca = header(parts, "psu-id").is_none()
        && header(parts, "x-psu-identity").is_none()
        && header(parts, "psu-context").is_some();
    if single_sca {
        let tpp = pisp(parts)?;
        let tpp_id = tpp.tpp_id();
        return Ok(Creator {
            tpp,
            tpp_id,
            customer_id: None,
        });
    }
    let caller = caller(state, parts, true)?;
    Ok(Creator {
        tpp: caller.tpp,
        tpp_id: caller.tpp_id,
        customer_id: Some(caller.customer_id),
    })
}
