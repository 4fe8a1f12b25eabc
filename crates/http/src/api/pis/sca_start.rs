//! Starting the authorisation of payments (one, or a signing basket's): the authorisation the bank's pages
//! walk the PSU through, with what the request presets. Used by the creation of payments and baskets
//! (which start one implicitly) and by `POST …/authorisations` (authorisations.rs).

use super::caller::PisCaller;
use crate::api::error::ApiResult;
use crate::api::sca_trigger::{base_url, header};
use axum::http::request::Parts;
use xs2a_core::bank::payment_initiation::Approval;
use xs2a_core::bank::pis::model::Basket;
use xs2a_core::bank::sca::authorisation::{Authorisation, Purpose};
use xs2a_core::bank::sca::engine::StartSca;
use xs2a_core::bank::sca::payment_start;
use xs2a_workbench::app_state::AppState;

/// An authorisation just started: its id and where its PSU goes.
pub struct Started {
    pub authorisation_id: String,
    /// The bank's page, absolute.
    pub sca_redirect: String,
}

/// Starts an authorisation approving `payment_ids` (of `basket_id`, for a basket).
pub fn start_payment_sca(
    state: &AppState,
    parts: &Parts,
    tpp: &xs2a_core::signing::verifier::VerifiedTpp,
    customer_id: Option<&str>,
    payment_ids: Vec<String>,
    basket_id: Option<String>,
) -> ApiResult<Started> {
    let approval = approval(parts, tpp, customer_id)?;
    let auth = payment_start::start(
        &state.store,
        approval.start,
        payment_ids,
        basket_id,
        approval.tpp_brand,
        state.clock.now(),
    )?;
    Ok(started(parts, &auth))
}

/// What the request presets for the PSU's approval: its session, redirect, identity, method and brand.
pub fn approval(
    parts: &Parts,
    tpp: &xs2a_core::signing::verifier::VerifiedTpp,
    customer_id: Option<&str>,
) -> ApiResult<Approval> {
    super::caller::require_headers(parts, &["TPP-Session-ID", "TPP-Redirect-URI"])?;
    Ok(Approval {
        start: StartSca {
            tpp_id: tpp.tpp_id(),
            tpp_name: tpp.tpp_name(),
            tpp_session_id: header(parts, "tpp-session-id")
                .unwrap_or_default()
                .to_owned(),
            redirect_uri: header(parts, "tpp-redirect-uri")
                .unwrap_or_default()
                .to_owned(),
            purpose: Purpose::Payment,
            preset_identity: header(parts, "x-psu-identity").map(str::to_owned),
            preset_customer_id: customer_id.map(str::to_owned),
            preset_agreement_id: None,
            preferred_method: header(parts, "x-psu-authmethod-preferred")
                .and_then(xs2a_core::bank::sca::authorisation::AuthMethod::parse),
            biometric_in_app: header(parts, "tpp-redirect-preferred") == Some("false"),
        },
        tpp_brand: header(parts, "tpp-brand-logging-information").map(str::to_owned),
    })
}

/// The started authorisation as the answer names it: its id and the bank's page, absolute.
pub fn started(parts: &Parts, auth: &Authorisation) -> Started {
    Started {
        sca_redirect: format!("{}{}", base_url(parts), auth.page_path()),
        authorisation_id: auth.id.clone(),
    }
}

/// Starts an authorisation of every payment of `basket`, by the basket's PSU.
pub fn start_basket_sca(
    state: &AppState,
    parts: &Parts,
    caller: &PisCaller,
    basket: &Basket,
) -> ApiResult<Started> {
    start_payment_sca(
        state,
        parts,
        &caller.tpp,
        Some(caller.customer_id.as_str()),
        basket.payment_ids.clone(),
        Some(basket.id.clone()),
    )
}
