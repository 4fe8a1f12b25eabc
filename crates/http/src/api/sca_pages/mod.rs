//! The bank's authorisation site: plain HTML pages (no JavaScript needed: forms and 303 redirects) that
//! walk the PSU through SCA in English or Norwegian bokmål — identify, method, context, consent or
//! confirm — and send them back to the TPP. The steps themselves are the SCA engine's
//! (`xs2a_core::bank::sca::engine`); these pages only show and submit them.

mod confirm;
mod consent;
mod context;
mod handlers;
mod handover;
mod i18n;
mod identify;
mod layout;
mod method;
mod notices;
mod payment;

pub(crate) use layout::see_other;

use crate::api::openapi::builder::Param;
use crate::api::openapi::routes::Routes;
use axum::handler::Handler;
use serde_json::json;
use xs2a_workbench::app_state::AppState;

const TAG: &str = "SCA pages";

/// The pages' routes (outside /v1: the PSU's browser does not sign requests), each with its OpenAPI
/// description (HTML for people, not for TPP code).
pub fn routes() -> Routes {
    Routes::new()
        .get("/sca/{id}", handlers::show, |op| {
            op.tag(TAG)
                .summary("The bank's SCA page at the authorisation's step")
                .params(&[
                    Param::query("lang", "enum:nb|en", "Page language."),
                    Param::query(
                        "workbench",
                        "enum:1",
                        "The workbench's PSU window: the end of the SCA shows where the PSU is sent (and the values sent) before sending them, carried on by every form and link.",
                    ),
                ])
                .answers_with(
                    200,
                    "The page; for a finished authorisation in the workbench's PSU window, where the PSU is sent",
                    "text/html",
                    html(),
                )
                .empty(303, "A finished authorisation: to the TPP-Redirect-URI")
                .answers_with(404, "No such authorisation", "text/html", html())
                .answers_with(410, "Expired or finished", "text/html", html())
        })
        .merge(step("identify", handlers::identify))
        .merge(step("method", handlers::method))
        .merge(step("context", handlers::context))
        .merge(step("consent", handlers::consent))
        .merge(step("confirm", handlers::confirm))
        .merge(step("cancel", handlers::cancel))
}

/// A page's body in the document.
fn html() -> serde_json::Value {
    json!({"type": "string"})
}

/// A step's form post, and a GET on the form's action (a reload, a typed URL) that goes back to the page.
fn step<H, T>(name: &str, submit: H) -> Routes
where
    H: Handler<T, AppState>,
    T: 'static,
{
    let path = format!("/sca/{{id}}/{name}");
    let summary = format!("The PSU's {name} step (form post)");
    Routes::new()
        .get(&path, handlers::back_to_page, |op| {
            op.tag(TAG)
                .summary("Back to the page (after a reload)")
                .empty(303, "To /sca/{id}")
        })
        .post(&path, submit, move |op| {
            op.tag(TAG)
                .summary(&summary)
                .raw_body(
                    "application/x-www-form-urlencoded",
                    json!({"type": "object"}),
                )
                .empty(
                    303,
                    "To the next page, or back to the TPP-Redirect-URI when finished",
                )
                .answers_with(
                    200,
                    "The page again with what to correct; or, in the workbench's PSU window (?workbench=1), where the PSU is sent at the end",
                    "text/html",
                    html(),
                )
                .answers_with(
                    400,
                    "The page again with what to correct",
                    "text/html",
                    html(),
                )
                .answers_with(404, "No such authorisation", "text/html", html())
                .answers_with(409, "Not at this step", "text/html", html())
                .answers_with(410, "Expired or finished", "text/html", html())
        })
}
