//! The bank's side of consent, for testers and trainers: every consent in the sandbox, the PSU revoking
//! at the bank (the TPP is not told, docs/interface.md#consent), and the bank removing payment permission on an
//! account that stays visible to account information.

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use xs2a_core::bank::consent::{self, Consent};
use xs2a_core::bank::mock::model::Account;
use xs2a_core::bank::mock::{customers, holdings};
use xs2a_workbench::app_state::AppState;

/// One consent with the customer number it belongs to.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentEntry {
    /// The PSU's national identity number (absent if the customer was removed).
    customer_number: Option<String>,
    consent: Consent,
}

/// `GET /v1/sandbox/consents`: every consent, with the customer number it belongs to.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<ConsentEntry>>> {
    let mut out = Vec::new();
    for c in consent::all(&state.store)? {
        let number = customers::by_id(&state.store, &c.customer_id)?.map(|c| c.customer_number);
        out.push(ConsentEntry {
            customer_number: number,
            consent: c,
        });
    }
    Ok(Json(out))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Revocation {
    /// The PSU's national identity number.
    customer_number: String,
    /// Only this TPP's consent (its organizationIdentifier); all TPPs when absent.
    tpp_id: Option<String>,
    /// Only these account or card account ids; every account when absent.
    accounts: Option<Vec<String>>,
}

/// What a revocation changed, and the customer's consents after it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevocationResult {
    changed_consents: usize,
    remaining_consents: Vec<Consent>,
}

/// `POST /v1/sandbox/consents/revoke`: the PSU revokes at the bank.
pub async fn revoke(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<Revocation>,
) -> ApiResult<Json<RevocationResult>> {
    let customer = customers::by_number(&state.store, "customerNumber", &body.customer_number)?;
    let changed = consent::revoke(
        &state.store,
        body.tpp_id.as_deref(),
        &customer.id,
        body.accounts.as_deref(),
    )?;
    let remaining: Vec<Consent> = consent::of_customer(&state.store, &customer.id)?;
    Ok(Json(RevocationResult {
        changed_consents: changed,
        remaining_consents: remaining,
    }))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentPermission {
    allowed: bool,
}

/// The account's payment permission after the change.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionResult {
    resource_id: String,
    bban: String,
    payments_allowed: bool,
}

/// `PUT /v1/sandbox/accounts/{mockAccountId}/payment-permission`: the bank allows or removes payments
/// from the account; account information is unaffected.
pub async fn set_payment_permission(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(body): JsonBody<PaymentPermission>,
) -> ApiResult<Json<PermissionResult>> {
    let mut account = holdings::by_id::<Account>(&state.store, "mockAccountId", &id)?;
    account.payments_allowed = body.allowed;
    state
        .store
        .table::<Account>()?
        .insert(&account)
        .map_err(ApiError::from)?;
    Ok(Json(PermissionResult {
        resource_id: account.id,
        bban: account.bban,
        payments_allowed: account.payments_allowed,
    }))
}
