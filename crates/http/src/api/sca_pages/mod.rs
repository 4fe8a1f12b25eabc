//! The bank's authorisation site: plain HTML pages (no JavaScript needed: forms and 303 redirects) that
//! walk the PSU through SCA in English or Norwegian bokmål — identify, method, context, consent or
//! confirm — and send them back to the TPP. The steps themselves are the SCA engine's
//! (`crate::sca::flow`); these pages only show and submit them.

mod confirm;
mod consent;
mod context;
mod handlers;
mod i18n;
mod identify;
mod layout;
mod method;
mod notices;
mod payment;

pub(crate) use layout::see_other;

use crate::app_state::AppState;
use axum::routing::get;
use axum::Router;

/// The pages' routes (outside /v1: the PSU's browser does not sign requests).
pub fn router() -> Router<AppState> {
    // A GET on a form's action (a reload, a typed URL) goes back to the page.
    let back = || get(handlers::back_to_page);
    Router::new()
        .route("/sca/{id}", get(handlers::show))
        .route("/sca/{id}/identify", back().post(handlers::identify))
        .route("/sca/{id}/method", back().post(handlers::method))
        .route("/sca/{id}/context", back().post(handlers::context))
        .route("/sca/{id}/consent", back().post(handlers::consent))
        .route("/sca/{id}/confirm", back().post(handlers::confirm))
        .route("/sca/{id}/cancel", back().post(handlers::cancel))
}
