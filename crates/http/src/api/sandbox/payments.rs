//! `GET /v1/sandbox/payments`: every TPP's payments, newest first (`?status=ACTC`, `?limit=`, default 200,
//! at most 5000) — the batch monitor's list. A bank-side control (a read across TPPs).

use super::query;
use crate::api::error::{ApiError, ApiResult};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;
use xs2a_core::bank::pis::status::PaymentStatus;
use xs2a_core::bank::pis::summary::{self, PaymentSummary};
use xs2a_workbench::app_state::AppState;

const DEFAULT_LIMIT: usize = 200;
const MAX_LIMIT: usize = 5000;

#[derive(Deserialize)]
pub struct PaymentsQuery {
    status: Option<String>,
    limit: Option<String>,
}

/// 200: the payments.
pub async fn list(
    State(state): State<AppState>,
    raw: Result<Query<PaymentsQuery>, QueryRejection>,
) -> ApiResult<Json<Vec<PaymentSummary>>> {
    let asked = query(raw)?;
    let status = match asked.status.as_deref() {
        None | Some("") => None,
        Some(text) => Some(
            serde_json::from_value::<PaymentStatus>(serde_json::json!(text)).map_err(|_| {
                ApiError::format("status", format!("status '{text}' is not a payment status"))
            })?,
        ),
    };
    let limit = match asked.limit.as_deref() {
        None => DEFAULT_LIMIT,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
            _ => {
                return Err(ApiError::format(
                    "limit",
                    format!("limit '{text}' must be a whole number from 1 to {MAX_LIMIT}"),
                ))
            }
        },
    };
    Ok(Json(summary::list(&state.store, status, limit)?))
}
