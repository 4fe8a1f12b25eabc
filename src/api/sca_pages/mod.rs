//! The bank's authorisation site: plain HTML pages (no JavaScript needed) that walk the PSU through SCA.

use crate::state::AppState;
use axum::Router;

/// The pages' routes (outside /v1: the PSU's browser does not sign requests).
pub fn router() -> Router<AppState> {
    Router::new()
}
