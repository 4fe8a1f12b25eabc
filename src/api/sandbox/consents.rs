//! The bank's side of consent, for testers and trainers: every consent in the sandbox, the PSU revoking
//! at the bank (the TPP is not told, SPEC.md), and the bank removing payment permission on an account that
//! stays visible to account information.

use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use crate::consent::{self, Consent};
use crate::sandbox::model::Account;
use crate::sandbox::{accounts, customers};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

/// `GET /v1/sandbox/consents`: every consent, with the customer number it belongs to.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let mut out = Vec::new();
    for c in consent::all(&state.store)? {
        let number = customers::by_id(&state.store, &c.customer_id)?.map(|c| c.customer_number);
        out.push(json!({"customerNumber": number, "consent": c}));
    }
    Ok(Json(Value::Array(out)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Revocation {
    /// The PSU's national identity number.
    customer_number: String,
    /// Only this TPP's consent (its organizationIdentifier); all TPPs when absent.
    tpp_id: Option<String>,
    /// Only these account or card account ids; every account when absent.
    accounts: Option<Vec<String>>,
}

/// `POST /v1/sandbox/consents/revoke`: the PSU revokes at the bank.
pub async fn revoke(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<Revocation>,
) -> ApiResult<Json<Value>> {
    let customer = customers::by_number(&state.store, "customerNumber", &body.customer_number)?;
    let changed = consent::revoke(
        &state.store,
        body.tpp_id.as_deref(),
        &customer.id,
        body.accounts.as_deref(),
    )?;
    let remaining: Vec<Consent> = consent::of_customer(&state.store, &customer.id)?;
    Ok(Json(
        json!({"changedConsents": changed, "remainingConsents": remaining}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentPermission {
    allowed: bool,
}

/// `PUT /v1/sandbox/accounts/{mockAccountId}/payment-permission`: the bank allows or removes payments
/// from the account; account information is unaffected.
pub async fn set_payment_permission(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(body): JsonBody<PaymentPermission>,
) -> ApiResult<Json<Value>> {
    let mut account = accounts::by_id(&state.store, "mockAccountId", &id)?;
    account.payments_allowed = body.allowed;
    state
        .store
        .table::<Account>()?
        .insert(&account)
        .map_err(ApiError::from)?;
    Ok(Json(
        json!({"resourceId": account.id, "bban": account.bban, "paymentsAllowed": account.payments_allowed}),
    ))
}
