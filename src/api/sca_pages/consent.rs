//! The consent page (bank-offered consent): the PSU's accounts in the chosen context, those already
//! granted to this TPP ticked; ticking grants, unticking revokes, and confirming ends the SCA.

use super::layout::{escape, View};
use crate::sca::flow::AccountChoice;

/// The page's title and content; `typed` holds the ticks sent before a refusal (else: what is granted).
pub fn page(
    view: &View,
    accounts: &[AccountChoice],
    typed: Option<&[String]>,
) -> (&'static str, String) {
    let t = view.texts();
    let ticked = |a: &AccountChoice| match typed {
        Some(ticks) => ticks.contains(&a.id),
        None => a.granted,
    };
    let items: String = accounts
        .iter()
        .map(|a| {
            let badge = if a.granted {
                format!(" <span class=\"badge\">{}</span>", escape(t.already_granted))
            } else {
                String::new()
            };
            let card = if a.is_card {
                format!(" · {}", escape(t.card))
            } else {
                String::new()
            };
            format!(
                "<li><label><input type=\"checkbox\" name=\"account\" value=\"{id}\" id=\"account-{id}\"{checked}>\
                 <span>{name}{badge}<small><code>{number}</code>{card}</small></span></label></li>",
                id = escape(&a.id),
                checked = if ticked(a) { " checked" } else { "" },
                name = escape(&a.name),
                number = escape(&a.number),
            )
        })
        .collect();
    let list = if accounts.is_empty() {
        format!("<p class=\"note\">{}</p>", escape(t.no_accounts))
    } else {
        format!("<ul class=\"choices\">{items}</ul>")
    };
    let body = format!(
        "<p class=\"lead\">{lead}</p><p class=\"note\">{note}</p>\
         <form method=\"post\" action=\"{action}\">{list}\
         <div class=\"actions\"><button type=\"submit\" id=\"consent-submit\">{confirm}</button></div></form>",
        lead = view.with_tpp(t.consent_lead),
        note = escape(t.consent_revoke_note),
        action = view.action("consent"),
        confirm = escape(t.confirm),
    );
    (t.consent_title, body)
}
