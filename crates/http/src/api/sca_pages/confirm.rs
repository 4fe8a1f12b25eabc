//! The confirm page of a user lookup (GET /v1/users): the PSU lets the TPP identify them, which ends the
//! SCA and gives the TPP a psu-id.

use super::layout::View;
use maud::{html, Markup};

/// The page's title and content.
pub fn page(view: &View) -> (&'static str, Markup) {
    let t = view.texts();
    let body = html! {
        p class="lead" { (view.with_tpp(t.confirm_lead)) }
        p class="note" { (view.with_tpp(t.confirm_detail)) }
        form method="post" action=(view.action("confirm")) {
            div class="actions" { button type="submit" id="confirm-submit" { (t.confirm) } }
        }
    };
    (t.confirm_title, body)
}
