//! The end of an SCA in the workbench's PSU window (`?workbench=1`): instead of sending the browser
//! straight to the TPP-Redirect-URI — a TPP app that is not running, or not reachable from this window,
//! would leave the PSU on the browser's error page — the sandbox shows where it is sending the PSU, the
//! values the redirect carries (psu-id, psu-corporate-id, …) and a link onwards: `GET /sca/{id}`, which
//! for a finished authorisation answers the bank's 303 to the TPP-Redirect-URI, so the traffic log and
//! the flows see the PSU go back as they would without the window. Everywhere else (a TPP app's own
//! browser flow, a client following redirects) the last step answers that 303 itself, as the bank does.
//! The workbench's own callback is always redirected to: it is a page that records what came back.

use super::layout::{html, see_other, with_tpp, Frame, View};
use axum::http::StatusCode;
use axum::response::Response;
use maud::html as markup;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::own_state::sca_finished::added_parameters;

/// Where a finished authorisation sends the PSU: to `redirect` (303), or in the workbench's PSU window
/// to the handover page first.
pub fn onward(state: &AppState, view: &View, redirect: &str) -> Response {
    let own_callback = format!("{}/workbench/callback", state.base_url());
    if !view.lang.in_workbench || redirect.starts_with(&own_callback) {
        return see_other(redirect);
    }
    page(view, redirect)
}

/// The page's link onwards: the authorisation's page outside the window, which redirects as the bank does.
fn onward_link(view: &View) -> String {
    let outside = super::layout::PageLang {
        in_workbench: false,
        ..view.lang
    };
    format!("/sca/{}{}", view.auth.id, outside.suffix())
}

/// 200: where the PSU goes, with what, and the link onwards.
fn page(view: &View, redirect: &str) -> Response {
    let t = view.texts();
    let tpp = &view.auth.tpp_name;
    let parameters = added_parameters(redirect, &view.auth.redirect_uri);
    let body = markup! {
        p class="lead" { (t.handover_lead) }
        dl class="payment" id="handover-values" {
            @for (name, value) in &parameters {
                dt { (name) }
                dd { code { (value) } }
            }
        }
        p { (t.handover_address) ": " code class="address" id="handover-address" { (redirect) } }
        p class="actions" {
            a class="button" id="onward" href=(onward_link(view)) { (with_tpp(t.handover_continue, tpp)) }
        }
        p class="note" { (t.handover_unreachable) }
    };
    let title = t.handover_title.replace("{tpp}", tpp);
    let frame = Frame {
        lang: view.lang,
        id: Some(&view.auth.id),
        headline: None,
        identity: None,
        title: &title,
        error: None,
        body,
        cancel: None,
    };
    html(StatusCode::OK, view.lang.lang, frame.render())
}
