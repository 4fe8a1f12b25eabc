//! `GET /sandbox/generate/national-id`, `.../org-number` and `.../bban`: a valid number, unused in this
//! sandbox, for a new customer or account (`xs2a_core::bank::mock::identifiers`); 200 `{value}`.

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::mock::identifiers::{self, NationalIdRequest};
use xs2a_workbench::app_state::AppState;

/// A generated number.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct GeneratedValue {
    /// The number, digits only.
    pub value: String,
}

/// The BBAN generator's query.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BbanQuery {
    bank_code: Option<String>,
}

/// 200: a national identity number of the kind, birth date and sex asked for.
pub async fn national_id(
    State(state): State<AppState>,
    ApiQuery(request): TextQuery<NationalIdRequest>,
) -> ApiResult<Json<GeneratedValue>> {
    let today = state.clock.now().date();
    Ok(Json(GeneratedValue {
        value: identifiers::national_id(&state.store, today, &request)?,
    }))
}

/// 200: an organisation number.
pub async fn org_number(State(state): State<AppState>) -> ApiResult<Json<GeneratedValue>> {
    Ok(Json(GeneratedValue {
        value: identifiers::org_number(&state.store)?,
    }))
}

/// 200: a BBAN at the bank asked for (1205 by default).
pub async fn bban(
    State(state): State<AppState>,
    ApiQuery(q): TextQuery<BbanQuery>,
) -> ApiResult<Json<GeneratedValue>> {
    Ok(Json(GeneratedValue {
        value: identifiers::bban(&state.store, q.bank_code.as_deref())?,
    }))
}
