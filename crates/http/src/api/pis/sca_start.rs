//! Starting the authorisation of a signing basket's payments, and the started authorisation as answers name
//! it. What the request presets is the caller's (`Caller::approval`, in the core); a payment's creation and
//! `POST …/authorisations` on a payment start theirs in the core (`payment_initiation`).

use crate::api::error::ApiResult;
use crate::api::sca_trigger::base_url;
use axum::http::request::Parts;
use xs2a_core::bank::payment_initiation::caller::{Caller, Payer};
use xs2a_core::bank::pis::model::Basket;
use xs2a_core::bank::sca::authorisation::Authorisation;
use xs2a_core::bank::sca::payment_start;
use xs2a_workbench::app_state::AppState;

/// An authorisation just started: its id and where its PSU goes.
pub struct Started {
    pub authorisation_id: String,
    /// The bank's page, absolute.
    pub sca_redirect: String,
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
    caller: &Caller,
    payer: &Payer,
    basket: &Basket,
) -> ApiResult<Started> {
    let approval = caller.approval(Some(payer.customer_id.as_str()))?;
    let auth = payment_start::start(
        &state.store,
        approval.start,
        basket.payment_ids.clone(),
        Some(basket.id.clone()),
        approval.tpp_brand,
        state.clock.now(),
    )?;
    Ok(started(parts, &auth))
}
