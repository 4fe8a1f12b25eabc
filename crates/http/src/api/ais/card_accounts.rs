//! `GET /v1/card-accounts`, `/{accountId}`, `/{accountId}/balances` and `/{accountId}/transactions`.
//!
//! Card accounts are answered as Berlin Group `cardAccountDetails` (with the Norwegian `relatedAccount`
//! that payments from the card name, docs/reference/payments.md#validation-duplicates-fees), balances including
//! `interimBooked` when the card has it (documentation 2.16.0), and `cardTransactions` with booked and pending
//! `cardTransaction` objects (which ones a page holds is the core's, `xs2a_core::bank::ais::card_transactions`).
//! While the x-accept-fix
//! `cardaccount-switch-originalamount-and-transactionamount` is not active, `transactionAmount` and
//! `originalAmount` are swapped, as the bank answered before the fix.

use super::access::AisAccess;
use super::fixes::{AcceptedFixes, RequestFixes};
use super::granted::{balance_views, detail_links, Served};
use super::paging;
use super::views::{AmountView, BalanceView, CardAccountReference};
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::links::Links;
use crate::api::openapi::routes::Routes;
use crate::api::query::{ApiQuery, TextQuery};
use axum::extract::{Path, State};
use serde::Serialize;
use xs2a_core::bank::ais::access::Endpoint as AisEndpoint;
use xs2a_core::bank::ais::card_transactions;
use xs2a_core::bank::ais::granted::{self, Holder};
use xs2a_core::bank::ais::listing::TransactionQuery;
use xs2a_core::bank::mock::model::{format_date, AccountStatus, CardAccount, CardTransaction};
use xs2a_core::domain::fix::Fix;
use xs2a_core::domain::refusal::TppMessage;
use xs2a_workbench::app_state::AppState;

/// Berlin Group `cardAccountDetails`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardAccountDetails {
    pub resource_id: String,
    pub masked_pan: String,
    pub currency: String,
    pub name: String,
    pub product: String,
    pub status: AccountStatus,
    pub usage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_limit: Option<AmountView>,
    /// The BBAN of the account the card settles against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub related_account: Option<String>,
    #[serde(rename = "_links")]
    pub links: Links,
}

impl CardAccountDetails {
    fn new(state: &AppState, card: CardAccount, fixes: AcceptedFixes) -> ApiResult<Self> {
        let holder = Holder::of(&state.store, &card)?;
        Ok(CardAccountDetails {
            links: detail_links(&card),
            resource_id: card.id,
            masked_pan: card.masked_pan,
            currency: card.currency.code().to_owned(),
            name: fixes.name(&card.name),
            product: card.product,
            status: card.status,
            usage: holder.usage,
            owner_name: holder.owner_name,
            credit_limit: card
                .credit_limit
                .as_ref()
                .map(|m| AmountView::new(m, fixes)),
            related_account: card.related_account,
        })
    }
}

fn reference(card: &CardAccount) -> CardAccountReference {
    CardAccountReference {
        masked_pan: card.masked_pan.clone(),
        currency: card.currency.code().to_owned(),
    }
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CardAccountList {
    card_accounts: Vec<CardAccountDetails>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{cardAccounts: [cardAccountDetails]}`: the granted card accounts of this context.
async fn list(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
) -> ApiResult<Json<CardAccountList>> {
    let card_accounts = granted::listed::<CardAccount>(&state.store, &state.clock, &access)?
        .into_iter()
        .map(|c| CardAccountDetails::new(&state, c, fixes))
        .collect::<ApiResult<_>>()?;
    Ok(Json(CardAccountList {
        card_accounts,
        tpp_messages: warnings,
    }))
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CardAccountBody {
    card_account: CardAccountDetails,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{cardAccount: cardAccountDetails}`.
async fn details(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
    Path(id): Path<String>,
) -> ApiResult<Json<CardAccountBody>> {
    let card = granted::consented::<CardAccount>(
        &state.store,
        &state.clock,
        &access,
        &id,
        AisEndpoint::Details,
    )?;
    Ok(Json(CardAccountBody {
        card_account: CardAccountDetails::new(&state, card, fixes)?,
        tpp_messages: warnings,
    }))
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CardBalancesBody {
    card_account: CardAccountReference,
    balances: Vec<BalanceView>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{cardAccount: {maskedPan, currency}, balances: [balance]}`, interimBooked included when present.
async fn balances(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes { fixes, warnings }: RequestFixes,
    Path(id): Path<String>,
) -> ApiResult<Json<CardBalancesBody>> {
    let card = granted::consented::<CardAccount>(
        &state.store,
        &state.clock,
        &access,
        &id,
        AisEndpoint::Balances,
    )?;
    Ok(Json(CardBalancesBody {
        card_account: reference(&card),
        balances: balance_views(&card, fixes),
        tpp_messages: warnings,
    }))
}

/// Berlin Group `cardTransaction`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardTransactionView {
    pub card_transaction_id: String,
    pub transaction_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub booking_date: Option<String>,
    pub transaction_amount: AmountView,
    pub original_amount: AmountView,
    pub merchant_category_code: String,
}

impl CardTransactionView {
    fn new(t: &CardTransaction, fixes: AcceptedFixes) -> Self {
        let (transaction, original) = if fixes.is_active(Fix::CardAccountSwitchAmounts) {
            (&t.transaction_amount, &t.original_amount)
        } else {
            (&t.original_amount, &t.transaction_amount)
        };
        CardTransactionView {
            card_transaction_id: t.id.clone(),
            transaction_date: format_date(t.transaction_date),
            booking_date: t.booking_date.map(format_date),
            transaction_amount: AmountView::new(transaction, fixes),
            original_amount: AmountView::new(original, fixes),
            merchant_category_code: t.merchant_category_code.clone(),
        }
    }
}

/// Berlin Group `cardAccountReport`.
#[derive(Serialize, utoipa::ToSchema)]
struct CardAccountReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    booked: Option<Vec<CardTransactionView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<Vec<CardTransactionView>>,
    #[serde(rename = "_links")]
    links: Links,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CardTransactionsBody {
    card_account: CardAccountReference,
    card_transactions: CardAccountReport,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<TppMessage>,
}

/// 200 `{cardAccount: {maskedPan, currency}, cardTransactions: {booked, pending, _links}}`.
async fn transactions(
    State(state): State<AppState>,
    access: AisAccess,
    RequestFixes {
        fixes,
        mut warnings,
    }: RequestFixes,
    Path(id): Path<String>,
    ApiQuery(query): TextQuery<TransactionQuery>,
) -> ApiResult<Json<CardTransactionsBody>> {
    let page = card_transactions::list(&state.store, &state.clock, &access, &id, &query)?;
    let card_path = CardAccount::path(&page.card.id);
    let links = paging::links(
        &page.listing,
        &format!("{card_path}/transactions"),
        page.selected,
        ("cardAccount", card_path),
    );
    let views = |group: Option<Vec<CardTransaction>>| -> Option<Vec<CardTransactionView>> {
        group.map(|ts| {
            ts.iter()
                .map(|t| CardTransactionView::new(t, fixes))
                .collect()
        })
    };
    warnings.extend(page.warnings);
    Ok(Json(CardTransactionsBody {
        card_account: reference(&page.card),
        card_transactions: CardAccountReport {
            booked: views(page.booked),
            pending: views(page.pending),
            links,
        },
        tpp_messages: warnings,
    }))
}

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    Routes::new()
        .get("/card-accounts", list, |op| {
            super::signed_read(op, "The card accounts the PSU granted this TPP")
                .answers::<CardAccountList>(200, "The granted card accounts")
                .refusals(&[400, 401, 403, 429])
        })
        .get("/card-accounts/{accountId}", details, |op| {
            super::signed_read(op, "One granted card account")
                .answers::<CardAccountBody>(200, "The card account")
                .refusals(&[400, 401, 403, 404, 429])
        })
        .get("/card-accounts/{accountId}/balances", balances, |op| {
            super::signed_read(op, "Balances of a granted card account")
                .answers::<CardBalancesBody>(200, "The balances")
                .refusals(&[400, 401, 403, 404, 429])
        })
        .get(
            "/card-accounts/{accountId}/transactions",
            transactions,
            |op| {
                super::signed_read(op, "Card transactions of a granted card account")
                    .params(super::accounts::LISTING)
                    .answers::<CardTransactionsBody>(200, "A page of card transactions")
                    .refusals(&[400, 401, 403, 404, 429])
            },
        )
}
