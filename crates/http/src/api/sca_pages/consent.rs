//! The consent page (bank-offered consent): the PSU's accounts in the chosen context, those already
//! granted to this TPP ticked; ticking grants, unticking revokes, and confirming ends the SCA.

use super::layout::View;
use maud::{html, Markup};
use xs2a_core::bank::sca::engine::AccountChoice;

/// The page's title and content; `typed` holds the ticks sent before a refusal (else: what is granted).
pub fn page(
    view: &View,
    accounts: &[AccountChoice],
    typed: Option<&[String]>,
) -> (&'static str, Markup) {
    let t = view.texts();
    let ticked = |a: &AccountChoice| match typed {
        Some(ticks) => ticks.contains(&a.id),
        None => a.granted,
    };
    let body = html! {
        p class="lead" { (view.with_tpp(t.consent_lead)) }
        p class="note" { (t.consent_revoke_note) }
        form method="post" action=(view.action("consent")) {
            @if accounts.is_empty() {
                p class="note" { (t.no_accounts) }
            } @else {
                ul class="choices" {
                    @for a in accounts {
                        li { label {
                            input type="checkbox" name="account" value=(a.id) id={ "account-" (a.id) }
                                checked[ticked(a)];
                            span {
                                (a.name)
                                @if a.granted { " " span class="badge" { (t.already_granted) } }
                                small {
                                    code { (a.number) }
                                    @if a.is_card { " · " (t.card) }
                                }
                            }
                        } }
                    }
                }
            }
            div class="actions" { button type="submit" id="consent-submit" { (t.confirm) } }
        }
    };
    (t.consent_title, body)
}
