//! Sandbox-only endpoints under /v1/sandbox: mock customers, accounts, card accounts, transactions and
//! agreements, and initialisation to the known state.
//!
//! Handlers are thin: they extract the path, query and JSON body, call `xs2a_core::bank::mock`, and map the
//! result to a status. Creations answer 201, reads and initialisation 200. Query parameters are taken
//! as text (`api::query::TextQuery`), so that the core reports a malformed value as FORMAT_ERROR naming
//! it. The routes, each with its OpenAPI description, are declared in `openapi`.

mod accounts;
mod agreements;
mod batch;
mod card_accounts;
mod consents;
mod customers;
mod edits;
pub(crate) mod events;
mod generate;
mod identifiers;
mod initialize;
pub mod openapi;
mod payment_controls;
mod payments;
#[cfg(test)]
mod tests;

pub use openapi::{controls, mock_data, workbench};

use xs2a_workbench::app_state::AppState;

/// Tells the workbench's live views that mock data changed (`sandbox.changed`, docs/workbench-api.md):
/// `what` is customers, accounts, cardAccounts, transactions, agreements or all.
pub(crate) fn changed(state: &AppState, what: &'static str) {
    state.events.publish(
        xs2a_core::bank::events::EventKind::SandboxChanged,
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
    written: &xs2a_core::bank::mock::Warned<T>,
) -> axum::response::Response {
    changed(state, what);
    crate::api::warnings::with_warnings(status, &written.value, &written.warnings)
}
