//! `GET /v1/accounts/{accountId}/transactions` and `GET /v1/accounts/{accountId}/transactions/{transactionId}`.
//!
//! The list is the slimmer one of documentation 2.11.0: each item holds transactionId (the stable
//! sandbox id, docs/reference/ais-sca.md#endpoints), dates, amount, the parties' names, the unstructured remittance
//! and `_links.transactionDetails`; the details endpoint answers the full Berlin Group `transactions`
//! record under `transactionsDetails`, with the counterparty accounts, codes, ultimate parties and
//! `additionalInformationProprietary1` (where the sandbox transaction came from).
//!
//! Pending transactions are listed under `pending`, without a bookingDate. Which transactions a page
//! holds (the filters, the paging, the 90-day history floor without the PSU present, the bank's known
//! issue about pending transactions) and which one the details read are the core's
//! (`xs2a_core::bank::ais::transactions`); here the request is read and the answer written.

use super::access::AisAccess;
use super::accounts::reference;
use super::fixes::{AcceptedFixes, RequestFixes};
use super::granted::Served;
use super::paging;
use super::views::{AccountReference, AmountView};
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::links::Links;
use crate::api::openapi::headers::{AIS, SIGNED};
use crate::api::openapi::routes::Routes;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::{Path, State};
use serde::Serialize;
use xs2a_core::bank::ais::listing::TransactionQuery;
use xs2a_core::bank::ais::transactions::{self, FoundTransaction};
use xs2a_core::bank::mock::model::{
    format_date, Account, AccountRef, Transaction, TransactionSource,
};
use xs2a_core::domain::refusal::TppMessage;
use xs2a_workbench::app_state::AppState;

/// One item of the slim list.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransactionItem {
    pub transaction_id: String,
    /// Absent for pending transactions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub booking_date: Option<String>,
    pub value_date: String,
    pub transaction_amount: AmountView,
    pub creditor_name: String,
    pub debtor_name: String,
    pub remittance_information_unstructured: String,
    #[serde(rename = "_links")]
    pub links: Links,
}

fn details_path(account_id: &str, transaction_id: &str) -> String {
    format!(
        "{}/transactions/{transaction_id}",
        Account::path(account_id)
    )
}

impl TransactionItem {
    fn new(t: &Transaction, pending: bool, fixes: AcceptedFixes) -> Self {
        TransactionItem {
            transaction_id: t.id.clone(),
            booking_date: (!pending).then(|| format_date(t.booking_date)),
            value_date: format_date(t.value_date),
            transaction_amount: AmountView::new(&t.amount, fixes),
            creditor_name: t.creditor_name.clone(),
            debtor_name: t.debtor_name.clone(),
            remittance_information_unstructured: t.remittance_information_unstructured.clone(),
            links: Links::new().get("transactionDetails", details_path(&t.account_id, &t.id)),
        }
    }
}

/// Berlin Group `accountReport`.
#[derive(Serialize, utoipa::ToSchema)]
struct AccountReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    booked: Option<Vec<TransactionItem>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<Vec<TransactionItem>>,
    #[serde(rename = "_links")]
    links: Links,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TransactionsBody {
    account: AccountReference,
    transactions: AccountReport,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// The items of one group, `None` when bookingStatus did not ask for it.
fn items(
    group: Option<Vec<Transaction>>,
    pending: bool,
    fixes: AcceptedFixes,
) -> Option<Vec<TransactionItem>> {
    group.map(|ts| {
        ts.iter()
            .map(|t| TransactionItem::new(t, pending, fixes))
            .collect()
    })
}

/// 200 `{account, transactions: {booked, pending, _links}}`.
async fn list(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes {
        fixes,
        mut warnings,
    }: RequestFixes,
    Path(id): Path<String>,
    ApiQuery(query): TextQuery<TransactionQuery>,
) -> ApiResult<Json<TransactionsBody>> {
    let page = transactions::list(&state.store, &state.clock, &access, &id, &query)?;
    let account_path = Account::path(&page.account.id);
    let links = paging::links(
        &page.listing,
        &format!("{account_path}/transactions"),
        page.selected,
        ("account", account_path),
    );
    warnings.extend(page.warnings);
    Ok(Json(TransactionsBody {
        account: reference(&page.account),
        transactions: AccountReport {
            booked: items(page.booked, false, fixes),
            pending: items(page.pending, true, fixes),
            links,
        },
        tpp_messages: warnings,
    }))
}

/// Berlin Group `transactions`, the full record.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransactionDetails {
    pub transaction_id: String,
    /// Absent for pending transactions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub booking_date: Option<String>,
    pub value_date: String,
    pub transaction_amount: AmountView,
    pub creditor_name: String,
    pub creditor_account: AccountRef,
    pub ultimate_creditor: String,
    pub debtor_name: String,
    pub debtor_account: AccountRef,
    pub ultimate_debtor: String,
    pub remittance_information_unstructured: String,
    pub purpose_code: String,
    pub bank_transaction_code: String,
    pub additional_information_proprietary1: String,
    #[serde(rename = "_links")]
    pub links: Links,
}

/// What `additionalInformationProprietary1` says about a transaction's origin.
fn origin(source: TransactionSource) -> &'static str {
    match source {
        TransactionSource::Seed => "SANDBOX_SEED",
        TransactionSource::Sandbox => "SANDBOX_API",
        TransactionSource::Payment => "PAYMENT",
    }
}

impl TransactionDetails {
    fn new(t: Transaction, pending: bool, fixes: AcceptedFixes) -> Self {
        TransactionDetails {
            links: Links::new()
                .get("self", details_path(&t.account_id, &t.id))
                .get("account", Account::path(&t.account_id)),
            transaction_amount: AmountView::new(&t.amount, fixes),
            booking_date: (!pending).then(|| format_date(t.booking_date)),
            value_date: format_date(t.value_date),
            additional_information_proprietary1: origin(t.source).to_owned(),
            transaction_id: t.id,
            creditor_name: t.creditor_name,
            creditor_account: t.creditor_account,
            ultimate_creditor: t.ultimate_creditor,
            debtor_name: t.debtor_name,
            debtor_account: t.debtor_account,
            ultimate_debtor: t.ultimate_debtor,
            remittance_information_unstructured: t.remittance_information_unstructured,
            purpose_code: t.purpose_code,
            bank_transaction_code: t.bank_transaction_code,
        }
    }
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DetailsBody {
    transactions_details: TransactionDetails,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{transactionsDetails: transactions}`.
async fn details(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
    Path((id, transaction_id)): Path<(String, String)>,
) -> ApiResult<Json<DetailsBody>> {
    let FoundTransaction {
        transaction,
        pending,
    } = transactions::details(&state.store, &state.clock, &access, &id, &transaction_id)?;
    Ok(Json(DetailsBody {
        transactions_details: TransactionDetails::new(transaction, pending, fixes),
        tpp_messages: warnings,
    }))
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    Routes::new()
        .get("/accounts/{accountId}/transactions", list, |op| {
            op.tag("AIS")
                .summary("Transactions of a granted account")
                .description(
                    "Paged: `_links` carry first/next/previous/last with the page size stated explicitly.",
                )
                .params(SIGNED)
                .params(AIS)
                .params(super::accounts::LISTING)
                .answers::<TransactionsBody>(200, "A page of transactions")
                .refusals(&[400, 401, 403, 404, 429])
        })
        .get("/accounts/{accountId}/transactions/{transactionId}", details, |op| {
            super::signed_read(op, "One transaction with its details")
                .answers::<DetailsBody>(200, "The transaction")
                .refusals(&[400, 401, 403, 404, 429])
        })
}
