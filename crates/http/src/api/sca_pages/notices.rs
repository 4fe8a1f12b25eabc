//! Pages that are not a step: an unknown authorisation (404), an expired one (its only button cancels,
//! which sends the PSU back to the TPP with SCA_EXPIRED), and a finished one without a redirect.

use super::layout::{html, Frame, PageLang, View};
use axum::http::StatusCode;
use axum::response::Response;
use maud::html as markup;

/// 404: no authorisation has this id.
pub fn not_found(lang: PageLang) -> Response {
    let t = lang.texts();
    let frame = Frame {
        lang,
        id: None,
        headline: None,
        identity: None,
        title: t.not_found_title,
        error: None,
        body: markup! { p class="lead" { (t.not_found_lead) } },
        cancel: None,
    };
    html(StatusCode::NOT_FOUND, lang.lang, frame.render())
}

/// The authorisation can no longer be completed; `error` is set when a step was refused for it.
pub fn expired(view: &View, status: StatusCode, error: Option<String>) -> Response {
    let t = view.texts();
    let frame = Frame {
        lang: view.lang,
        id: Some(&view.auth.id),
        headline: None,
        identity: None,
        title: t.expired_title,
        error,
        body: markup! { p class="lead" { (view.with_tpp(t.expired_lead)) } },
        cancel: Some(t.back_to_tpp.replace("{tpp}", &view.auth.tpp_name)),
    };
    html(status, view.lang.lang, frame.render())
}

/// Finished, but with nowhere to send the PSU (not expected: every ending sets a redirect).
pub fn finished(view: &View) -> Response {
    let t = view.texts();
    let frame = Frame {
        lang: view.lang,
        id: Some(&view.auth.id),
        headline: None,
        identity: None,
        title: t.finished_title,
        error: None,
        body: markup! { p class="lead" { (t.finished_lead) } },
        cancel: None,
    };
    html(StatusCode::OK, view.lang.lang, frame.render())
}
