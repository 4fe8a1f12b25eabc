//! The caller of a payment or basket call as the core reads it: the verified TPP and the request's headers,
//! read once into a [`Caller`]. The rules over it (the PSD2 role PSP_PI, the required headers, the PSU) are
//! the core's (`xs2a_core::bank::payment_initiation::caller`, docs/reference/payments.md#payments-signing-baskets-and-batch-runs).

use crate::api::error::{ApiError, ApiResult};
use crate::api::headers;
use crate::api::sca_trigger::presets;
use axum::http::request::Parts;
use xs2a_core::bank::payment_initiation::caller::{self, Caller};
use xs2a_core::signing::verifier::VerifiedTpp;

/// The TPP the signature gate identified.
fn verified_tpp(parts: &Parts) -> ApiResult<VerifiedTpp> {
    parts
        .extensions
        .get::<VerifiedTpp>()
        .cloned()
        .ok_or_else(|| ApiError::internal("payment route without the signature gate"))
}

/// The TPP of a request, if it may initiate payments (403 FORBIDDEN otherwise).
pub fn pisp(parts: &Parts) -> ApiResult<VerifiedTpp> {
    let tpp = verified_tpp(parts)?;
    caller::pisp(&tpp)?;
    Ok(tpp)
}

/// The caller of the request, its headers read once.
pub fn read(parts: &Parts) -> ApiResult<Caller> {
    let read = |name| headers::owned(&parts.headers, name);
    Ok(Caller {
        tpp: verified_tpp(parts)?,
        psu_id: read("psu-id"),
        psu_corporate_id: read("psu-corporate-id"),
        psu_context: read("psu-context"),
        psu_ip_address: read("psu-ip-address"),
        accept_fix: read("x-accept-fix"),
        sca: presets(parts),
    })
}
