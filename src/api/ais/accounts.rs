//! GET /v1/accounts and the account endpoints under it.

use crate::state::AppState;
use axum::Router;

pub fn router() -> Router<AppState> {
    Router::new()
}
