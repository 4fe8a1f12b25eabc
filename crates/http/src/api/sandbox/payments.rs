//! `GET /v1/sandbox/payments`: every TPP's payments, newest first (`?status=ACTC`, `?limit=`, default 200,
//! at most 5000) — the batch monitor's list. A bank-side control (a read across TPPs).

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::State;
use serde::Deserialize;
use xs2a_core::bank::batch::monitor;
use xs2a_core::bank::pis::summary::PaymentSummary;
use xs2a_workbench::app_state::AppState;

#[derive(Deserialize)]
pub struct PaymentsQuery {
    status: Option<String>,
    limit: Option<String>,
}

/// 200: the payments.
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(asked): TextQuery<PaymentsQuery>,
) -> ApiResult<Json<Vec<PaymentSummary>>> {
    Ok(Json(monitor::payments(
        &state.store,
        asked.status.as_deref(),
        asked.limit.as_deref(),
    )?))
}
