//! Sandbox controls over payments: the known-issue switch (`GET|PUT /v1/sandbox/settings`) and forcing
//! a payment's outcome (`PUT /v1/sandbox/payments/{paymentId}/forced-outcome`), the alternative to the
//! `SANDBOX:RJCT`-style magic remittance texts for payments that carry a KID.

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::batch::monitor;
use xs2a_core::bank::pis::settings::{self, PaymentSettings};
use xs2a_workbench::app_state::AppState;

/// `GET /v1/sandbox/settings`.
pub async fn get_settings(State(state): State<AppState>) -> ApiResult<Json<PaymentSettings>> {
    Ok(Json(settings::get(&state.store)?))
}

/// `PUT /v1/sandbox/settings`.
pub async fn put_settings(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<PaymentSettings>,
) -> ApiResult<Json<PaymentSettings>> {
    Ok(Json(settings::put(&state.store, body)?))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Forcing {
    /// RJCT, ACCP, PDNG, PART, or null to clear.
    outcome: Option<String>,
}

/// The outcome the next batch run will give the payment.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForcedResult {
    payment_id: String,
    /// RJCT, ACCP, PDNG, PART, or null when cleared.
    forced_outcome: Option<String>,
    transaction_status: &'static str,
}

/// `PUT /v1/sandbox/payments/{paymentId}/forced-outcome` (any TPP's payment: this is the bank's side).
pub async fn force_outcome(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(body): JsonBody<Forcing>,
) -> ApiResult<Json<ForcedResult>> {
    let payment = monitor::force_outcome(&state.store, &id, body.outcome.as_deref())?;
    Ok(Json(ForcedResult {
        payment_id: payment.id,
        forced_outcome: body.outcome,
        transaction_status: payment.status.as_str(),
    }))
}
