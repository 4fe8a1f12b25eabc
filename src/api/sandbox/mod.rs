//! Sandbox-only endpoints under /v1/sandbox: mock customers, accounts, card accounts, transactions and
//! agreements, and initialisation to the known state.

use crate::state::AppState;
use axum::Router;

/// The sandbox routes (paths relative to /v1).
pub fn router() -> Router<AppState> {
    Router::new()
}
