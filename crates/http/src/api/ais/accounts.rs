//! `GET /v1/accounts`, `GET /v1/accounts/{accountId}` and `GET /v1/accounts/{accountId}/balances`.
//!
//! The list holds the accounts the PSU granted this TPP in the request's context (private, or the
//! corporate agreement named by PSU-Corporate-ID), as Berlin Group `accountDetails` with `resourceId` =
//! the sandbox account id. Every account-specific read goes through the core's access rules
//! (`xs2a_core::bank::ais::granted::consented`): an account outside the consent is 404 RESOURCE_UNKNOWN, and without the PSU present the 24-hour limits
//! apply. Names and cashAccountType follow the request's x-accept-fix (see `fixes`).

use super::access::AisAccess;
use super::fixes::{AcceptedFixes, RequestFixes};
use super::granted::{balance_views, detail_links};
use super::views::{AccountReference, BalanceView};
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::links::Links;
use crate::api::openapi::builder::Param;
use crate::api::openapi::headers::{AIS, SIGNED};
use crate::api::openapi::routes::Routes;
use axum::extract::{Path, State};
use serde::Serialize;
use xs2a_core::bank::ais::access::Endpoint as AisEndpoint;
use xs2a_core::bank::ais::granted::{self, Holder};
use xs2a_core::bank::mock::model::{Account, AccountStatus};
use xs2a_core::domain::refusal::TppMessage;
use xs2a_workbench::app_state::AppState;

/// Berlin Group `accountDetails`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountDetails {
    pub resource_id: String,
    pub iban: String,
    pub bban: String,
    pub currency: String,
    pub name: String,
    pub product: String,
    pub cash_account_type: String,
    pub status: AccountStatus,
    pub usage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_name: Option<String>,
    #[serde(rename = "_links")]
    pub links: Links,
}

impl AccountDetails {
    fn new(state: &AppState, account: Account, fixes: AcceptedFixes) -> ApiResult<Self> {
        let holder = Holder::of(&state.store, &account)?;
        Ok(AccountDetails {
            links: detail_links(&account),
            resource_id: account.id,
            iban: account.iban,
            bban: account.bban,
            currency: account.currency.code().to_owned(),
            name: fixes.name(&account.name),
            product: account.product,
            cash_account_type: fixes.cash_account_type(&account.cash_account_type),
            status: account.status,
            usage: holder.usage,
            owner_name: holder.owner_name,
        })
    }
}

/// The reference of an account in balance and transaction answers.
pub(super) fn reference(account: &Account) -> AccountReference {
    AccountReference {
        iban: account.iban.clone(),
        bban: account.bban.clone(),
        currency: account.currency.code().to_owned(),
    }
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AccountList {
    accounts: Vec<AccountDetails>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{accounts: [accountDetails]}`: the granted accounts of this context, in BBAN order.
async fn list(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
) -> ApiResult<Json<AccountList>> {
    let accounts = granted::listed::<Account>(&state.store, &state.clock, &access)?
        .into_iter()
        .map(|a| AccountDetails::new(&state, a, fixes))
        .collect::<ApiResult<_>>()?;
    Ok(Json(AccountList {
        accounts,
        tpp_messages: warnings,
    }))
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AccountBody {
    account: AccountDetails,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{account: accountDetails}`.
async fn details(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
    Path(id): Path<String>,
) -> ApiResult<Json<AccountBody>> {
    let account = granted::consented::<Account>(
        &state.store,
        &state.clock,
        &access,
        &id,
        AisEndpoint::Details,
    )?;
    Ok(Json(AccountBody {
        account: AccountDetails::new(&state, account, fixes)?,
        tpp_messages: warnings,
    }))
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BalancesBody {
    account: AccountReference,
    balances: Vec<BalanceView>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{account: {iban, bban, currency}, balances: [balance]}`; every balance is in the account's
/// currency (docs/interface.md#mock-data-v1sandbox), which the sandbox enforces when the account is created.
async fn balances(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
    Path(id): Path<String>,
) -> ApiResult<Json<BalancesBody>> {
    let account = granted::consented::<Account>(
        &state.store,
        &state.clock,
        &access,
        &id,
        AisEndpoint::Balances,
    )?;
    Ok(Json(BalancesBody {
        account: reference(&account),
        balances: balance_views(&account, fixes),
        tpp_messages: warnings,
    }))
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    Routes::new()
        .get("/accounts", list, |op| {
            op.tag("AIS")
                .summary("The accounts the PSU granted this TPP")
                .description(
                    "In the request's context: private, or the corporate agreement PSU-Corporate-ID names.",
                )
                .params(SIGNED)
                .params(AIS)
                .answers::<AccountList>(200, "The granted accounts")
                .refusals(&[400, 401, 403, 429])
        })
        .get("/accounts/{accountId}", details, |op| {
            super::signed_read(op, "One granted account")
                .answers::<AccountBody>(200, "The account")
                .refusals(&[400, 401, 403, 404, 429])
        })
        .get("/accounts/{accountId}/balances", balances, |op| {
            super::signed_read(op, "Balances of a granted account")
                .answers::<BalancesBody>(200, "The balances")
                .refusals(&[400, 401, 403, 404, 429])
        })
}

/// The listing parameters shared by account and card account transactions.
pub(super) const LISTING: &[Param] = &[
    Param::query(
        "bookingStatus",
        "enum:booked|pending|both|all",
        "Which transactions; required.",
    ),
    Param::query("dateFrom", "date", "First booking date (ISO 8601)."),
    Param::query("dateTo", "date", "Last booking date (ISO 8601)."),
    Param::query("limit", "integer", "Page size (default 200, at least 1)."),
    Param::query("offset", "integer", "Transactions to skip before the page."),
];
