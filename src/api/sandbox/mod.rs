//! Sandbox-only endpoints under /v1/sandbox: mock customers, accounts, card accounts, transactions and
//! agreements, and initialisation to the known state.
//!
//! Handlers are thin: they extract the path, query and JSON body, call `crate::sandbox`, and map the
//! result to a status. Creations answer 201, reads and initialisation 200. Query parameters are taken
//! as text so that a malformed value is reported by the service layer as FORMAT_ERROR naming it.

mod accounts;
mod agreements;
mod batch;
mod card_accounts;
mod consents;
mod customers;
mod edits;
mod events;
mod generate;
mod identifiers;
mod initialize;
pub mod openapi;
mod payment_controls;
mod payments;
#[cfg(test)]
mod tests;

use crate::api::error::ApiError;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::routing::{get, post};
use axum::Router;

/// The sandbox routes as the workbench serves them (under `/workbench/api`): the mock data and the
/// bank-side controls of `/v1/sandbox`, and the edits only the workbench offers.
pub fn router() -> Router<AppState> {
    mock_data()
        .merge(controls())
        // Workbench-only: the bank's platform cannot edit mock data in place, so /v1/sandbox does not either.
        .route(
            "/sandbox/customers/{customerId}",
            axum::routing::put(edits::customer),
        )
        .route(
            "/sandbox/accounts/{mockAccountId}",
            axum::routing::put(edits::account),
        )
        .route(
            "/sandbox/card-accounts/{mockCardAccountId}",
            axum::routing::put(edits::card_account),
        )
}

/// Tells the workbench's live views that mock data changed (`sandbox.changed`, docs/workbench-api.md):
/// `what` is customers, accounts, cardAccounts, transactions, agreements or all.
pub(crate) fn changed(state: &AppState, what: &'static str) {
    state.events.publish(
        crate::events::EventKind::SandboxChanged,
        state.clock.now(),
        serde_json::json!({ "what": what }),
    );
}

/// The answer to a write of mock data, `status` with the written value and its warnings (headers, see
/// `api::warnings`), after telling the live views that `what` changed ([`changed`]).
pub(crate) fn changed_answer<T: serde::Serialize>(
    state: &AppState,
    what: &'static str,
    status: axum::http::StatusCode,
    written: &crate::sandbox::Warned<T>,
) -> axum::response::Response {
    changed(state, what);
    crate::api::warnings::with_warnings(status, &written.value, &written.warnings)
}

/// The mock-data API: open to every signed TPP, as the bank's platform offers it.
pub fn mock_data() -> Router<AppState> {
    Router::new()
        .route(
            "/sandbox/customers",
            get(customers::list).post(customers::create),
        )
        .route(
            "/sandbox/customers/{customerId}",
            axum::routing::delete(customers::delete),
        )
        .route("/sandbox/accounts", post(accounts::create))
        .route("/sandbox/accounts/{mockAccountId}", get(accounts::get))
        .route(
            "/sandbox/accounts/{mockAccountId}/transactions",
            get(accounts::list_transactions).post(accounts::create_transactions),
        )
        .route(
            "/sandbox/accounts/{mockAccountId}/transactions/generate",
            post(generate::account_transactions),
        )
        .route(
            "/sandbox/accounts/{mockAccountId}/transactions/{transactionId}",
            get(accounts::get_transaction),
        )
        .route("/sandbox/card-accounts", post(card_accounts::create))
        .route(
            "/sandbox/card-accounts/{mockCardAccountId}",
            get(card_accounts::get),
        )
        .route(
            "/sandbox/card-accounts/{mockCardAccountId}/transactions",
            get(card_accounts::list_transactions).post(card_accounts::create_transactions),
        )
        .route(
            "/sandbox/agreements",
            get(agreements::list).post(agreements::create),
        )
        .route(
            "/sandbox/generate/national-id",
            get(identifiers::national_id),
        )
        .route("/sandbox/generate/org-number", get(identifiers::org_number))
        .route("/sandbox/generate/bban", get(identifiers::bban))
}

/// The bank-side controls: the clock, resets, batch runs, forced outcomes, settings, consents at the bank,
/// payment permission, and reads across TPPs (payments, consents, the event stream). In shared mode they
/// need the operator credential (`api::operator`).
pub fn controls() -> Router<AppState> {
    Router::new()
        .route("/sandbox/initialize", post(initialize::initialize))
        .route("/sandbox/batch-runs", get(batch::list).post(batch::run_now))
        .route("/sandbox/events", get(events::stream))
        .route("/sandbox/payments", get(payments::list))
        .route("/sandbox/consents", get(consents::list))
        .route(
            "/sandbox/settings",
            get(payment_controls::get_settings).put(payment_controls::put_settings),
        )
        .route(
            "/sandbox/payments/{paymentId}/forced-outcome",
            axum::routing::put(payment_controls::force_outcome),
        )
        .route("/sandbox/consents/revoke", post(consents::revoke))
        .route(
            "/sandbox/accounts/{mockAccountId}/payment-permission",
            axum::routing::put(consents::set_payment_permission),
        )
        .merge(crate::api::clock::router())
}

/// A query string that cannot even be split into parameters (bad percent-encoding) is a FORMAT_ERROR.
fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query.map(|Query(q)| q).map_err(|e| {
        ApiError::format(
            "(query)",
            format!("the query string could not be read: {e}"),
        )
    })
}
