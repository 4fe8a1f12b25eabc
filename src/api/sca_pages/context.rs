//! The context page: act as a private person, or for a corporation under one of the person's agreements
//! (one radio each; a person without agreements sees only the private choice).

use super::layout::{escape, View};
use crate::sca::flow::AgreementChoice;

/// The radio value for an agreement: `CORPORATE:<agreement id>`, so one radio group holds every choice.
pub fn corporate_value(agreement_id: &str) -> String {
    format!("CORPORATE:{agreement_id}")
}

/// The page's title and content; `typed` is the radio value chosen before a refusal.
pub fn page(
    view: &View,
    agreements: &[AgreementChoice],
    typed: Option<&str>,
) -> (&'static str, String) {
    let t = view.texts();
    // What was sent before a refusal stays chosen, if it is still one of the choices.
    let offered = |value: &str| {
        value == "PRIVATE" || agreements.iter().any(|a| corporate_value(&a.id) == value)
    };
    let chosen = typed.filter(|t| offered(t)).unwrap_or("PRIVATE");
    let checked = |value: &str| if value == chosen { " checked" } else { "" };
    let mut choices = format!(
        "<li><label><input type=\"radio\" name=\"context\" value=\"PRIVATE\" id=\"context-PRIVATE\"{}>\
         <span>{}<small>{}</small></span></label></li>",
        checked("PRIVATE"),
        escape(t.private_label),
        escape(t.private_detail),
    );
    for agreement in agreements {
        let value = corporate_value(&agreement.id);
        choices.push_str(&format!(
            "<li><label><input type=\"radio\" name=\"context\" value=\"{value}\" id=\"context-{id}\"{checked}>\
             <span>{label} <strong>{owner}</strong><small>{name} · {org} {number}</small></span></label></li>",
            value = escape(&value),
            id = escape(&agreement.id),
            checked = checked(&value),
            label = escape(t.corporate_label),
            owner = escape(&agreement.owner_name),
            name = escape(&agreement.name),
            org = escape(t.org_number),
            number = escape(&agreement.owner_number),
        ));
    }
    let note = if agreements.is_empty() {
        format!("<p class=\"note\">{}</p>", escape(t.no_agreements))
    } else {
        String::new()
    };
    let body = format!(
        "<p class=\"lead\">{lead}</p>{note}\
         <form method=\"post\" action=\"{action}\"><ul class=\"choices\">{choices}</ul>\
         <div class=\"actions\"><button type=\"submit\" id=\"context-submit\">{continue_}</button></div></form>",
        lead = escape(t.context_lead),
        action = view.action("context"),
        continue_ = escape(t.continue_),
    );
    (t.context_title, body)
}
