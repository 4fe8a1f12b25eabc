//! `GET /v1/accounts/{accountId}/transactions` and `GET /v1/accounts/{accountId}/transactions/{transactionId}`.
//!
//! The list is the slimmer one of documentation 2.11.0: each item holds transactionId (the stable
//! sandbox id, docs/reference/ais-sca.md#endpoints), dates, amount, the parties' names, the unstructured remittance
//! and `_links.transactionDetails`; the details endpoint answers the full Berlin Group `transactions`
//! record under `transactionsDetails`, with the counterparty accounts, codes, ultimate parties and
//! `additionalInformationProprietary1` (where the sandbox transaction came from).
//!
//! Pending transactions (made with `"status": "pending"` on the sandbox endpoint) are listed under
//! `pending`, without a bookingDate. The bank's known issue (docs/interface.md#known-issues-reproduced) is
//! reproduced by default: with bookingStatus
//! `both` or `pending` every pending transaction is returned, whatever dateFrom, dateTo, limit and offset
//! say (they page the booked ones alone), with a WARNING naming the issue; `PUT /v1/sandbox/settings
//! {"reproducePendingTransactionsIssue": false}` turns it off, and then pending ones are filtered and paged
//! together with the booked ones, as `all` always does. Groups follow Berlin Group: `booked` is present
//! for booked/both/all, `pending` for pending/both/all.
//!
//! Without the PSU present the history is limited to 90 days: `dateFrom` is raised and a WARNING says so.
//! The details of one transaction need the same as the list (the account read online with SCA in the
//! last 90 days, the transaction inside the 90 days) but do not count towards the 4 calls per 24 hours,
//! which the bank sets for the list (docs/interface.md#strong-customer-authentication-and-tpp-sessions).

use super::access::AisAccess;
use super::accounts::reference;
use super::fixes::{AcceptedFixes, RequestFixes};
use super::granted::{self, Granted};
use super::paging::{TransactionListing, TransactionQuery};
use super::views::{AccountReference, AmountView, BookingStatus};
use crate::api::error::{ApiError, ApiResult};
use crate::api::links::Links;
use crate::api::openapi::headers::{AIS, SIGNED};
use crate::api::openapi::routes::Routes;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use xs2a_core::bank::ais::access::Endpoint as AisEndpoint;
use xs2a_core::bank::consent::AccountAccessLog;
use xs2a_core::bank::consent::UNATTENDED_HISTORY;
use xs2a_core::bank::mock::model::{
    format_date, Account, AccountRef, Transaction, TransactionSource,
};
use xs2a_core::bank::mock::transactions::{of_account, pending_of_account};
use xs2a_core::bank::pis::settings;
use xs2a_core::domain::refusal::Code;
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
    // The query first: a malformed request must not use up one of the unattended calls.
    let mut listing = TransactionListing::parse(&query)?;
    let account = granted::consented::<Account>(&state, &access, &id, AisEndpoint::Transactions)?;
    warnings.extend(listing.limit_history(access.earliest_history(state.clock.now())));
    let store = &state.store;
    let booked: Vec<Transaction> = if listing.status.wants_booked() {
        of_account(store, &account.id)?
    } else {
        Vec::new()
    };
    let pending: Vec<Transaction> = if listing.status.wants_pending() {
        pending_of_account(store, &account.id)?
    } else {
        Vec::new()
    };
    let path = format!("{}/transactions", Account::path(&account.id));
    let owner = ("account", Account::path(&account.id));
    let reproduce_issue = matches!(listing.status, BookingStatus::Pending | BookingStatus::Both)
        && settings::in_effect(store)?.reproduce_pending_transactions_issue;
    let (links, booked_items, pending_items) = if reproduce_issue {
        // The known issue: the filters and paging apply to the booked transactions alone.
        let booked: Vec<Transaction> = booked
            .into_iter()
            .filter(|t| listing.includes(t.booking_date))
            .collect();
        let links = listing.links(&path, booked.len(), owner);
        if !pending.is_empty() {
            warnings.push(pending_issue_warning(pending.len()));
        }
        let booked_items = listing
            .page(booked)
            .iter()
            .map(|t| TransactionItem::new(t, false, fixes))
            .collect();
        let pending_items = pending
            .iter()
            .map(|t| TransactionItem::new(t, true, fixes))
            .collect();
        (links, booked_items, pending_items)
    } else {
        let mut selected: Vec<(Transaction, bool)> = booked
            .into_iter()
            .map(|t| (t, false))
            .chain(pending.into_iter().map(|t| (t, true)))
            .filter(|(t, _)| listing.includes(t.booking_date))
            .collect();
        // Stable: each group is in recording order already; booked first on the same date.
        selected.sort_by_key(|(t, pending)| (t.booking_date, *pending));
        let links = listing.links(&path, selected.len(), owner);
        let (mut booked_items, mut pending_items) = (Vec::new(), Vec::new());
        for (t, pending) in listing.page(selected) {
            let item = TransactionItem::new(&t, pending, fixes);
            if pending {
                pending_items.push(item);
            } else {
                booked_items.push(item);
            }
        }
        (links, booked_items, pending_items)
    };
    Ok(Json(TransactionsBody {
        account: reference(&account),
        transactions: AccountReport {
            booked: listing.status.wants_booked().then_some(booked_items),
            pending: listing.status.wants_pending().then_some(pending_items),
            links,
        },
        tpp_messages: warnings,
    }))
}

/// The WARNING that says the bank's known issue shaped the `pending` group.
fn pending_issue_warning(count: usize) -> TppMessage {
    TppMessage::warning(
        Code::BadRequest,
        Some("bookingStatus"),
        format!(
            "Reproducing a known issue of the bank (docs/interface.md): with bookingStatus both or pending all {count} pending \
             transactions are returned; dateFrom, dateTo, limit and offset do not filter them. Turn it off \
             with PUT /v1/sandbox/settings {{\"reproducePendingTransactionsIssue\": false}}."
        ),
    )
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

/// Without the PSU present: the account must have been read online with SCA in the last 90 days.
fn require_recent_online_access(
    state: &AppState,
    access: &AisAccess,
    account_id: &str,
) -> ApiResult<()> {
    let key = format!("{}/{account_id}", access.tpp.tpp_id());
    let log = state.store.table::<AccountAccessLog>()?.get(&key)?;
    let now = state.clock.now();
    if log
        .and_then(|l| l.last_online_access)
        .is_some_and(|at| now - at <= UNATTENDED_HISTORY)
    {
        return Ok(());
    }
    Err(ApiError::new(
        Code::ConsentExpired,
        Some("PSU-IP-Address"),
        "Without the PSU present (no PSU-IP-Address) transactions can be read only if the PSU accessed the \
         account online with SCA through this TPP in the last 90 days. Read it once with the PSU present.",
    )
    .with_status(axum::http::StatusCode::UNAUTHORIZED))
}

/// 200 `{transactionsDetails: transactions}`.
async fn details(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
    Path((id, transaction_id)): Path<(String, String)>,
) -> ApiResult<Json<DetailsBody>> {
    let account = granted::consented::<Account>(&state, &access, &id, AisEndpoint::Details)?;
    let floor = access.earliest_history(state.clock.now());
    if floor.is_some() {
        require_recent_online_access(&state, &access, &account.id)?;
    }
    let unknown = || ApiError::unknown("transactionId", "transaction", &transaction_id);
    let booked = of_account(&state.store, &account.id)?
        .into_iter()
        .map(|t| (t, false));
    let pending = pending_of_account(&state.store, &account.id)?
        .into_iter()
        .map(|t| (t, true));
    let (transaction, is_pending) = booked
        .chain(pending)
        .find(|(t, _)| t.id == transaction_id)
        .ok_or_else(unknown)?;
    if let Some(floor) = floor.filter(|f| transaction.booking_date < *f) {
        return Err(ApiError::new(
            Code::ResourceUnknown,
            Some("transactionId"),
            format!(
                "Transaction '{transaction_id}' was booked before {}: without the PSU present history is \
                 limited to 90 days.",
                format_date(floor)
            ),
        ));
    }
    Ok(Json(DetailsBody {
        transactions_details: TransactionDetails::new(transaction, is_pending, fixes),
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
