//! The confirm page of a user lookup (GET /v1/users): the PSU lets the TPP identify them, which ends the
//! SCA and gives the TPP a psu-id.

use super::layout::{escape, View};

/// The page's title and content.
pub fn page(view: &View) -> (&'static str, String) {
    let t = view.texts();
    let body = format!(
        "<p class=\"lead\">{lead}</p><p class=\"note\">{detail}</p>\
         <form method=\"post\" action=\"{action}\">\
         <div class=\"actions\"><button type=\"submit\" id=\"confirm-submit\">{confirm}</button></div></form>",
        lead = view.with_tpp(t.confirm_lead),
        detail = view.with_tpp(t.confirm_detail),
        action = view.action("confirm"),
        confirm = escape(t.confirm),
    );
    (t.confirm_title, body)
}
