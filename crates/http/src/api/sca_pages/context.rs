//! The context page: act as a private person, or for a corporation under one of the person's agreements
//! (one radio each; a person without agreements sees only the private choice).

use super::layout::View;
use maud::{html, Markup};
use xs2a_core::bank::sca::engine::AgreementChoice;

/// The radio value for an agreement: `CORPORATE:<agreement id>`, so one radio group holds every choice.
pub fn corporate_value(agreement_id: &str) -> String {
    format!("CORPORATE:{agreement_id}")
}

/// The page's title and content; `typed` is the radio value chosen before a refusal.
pub fn page(
    view: &View,
    agreements: &[AgreementChoice],
    typed: Option<&str>,
) -> (&'static str, Markup) {
    let t = view.texts();
    // What was sent before a refusal stays chosen, if it is still one of the choices.
    let offered = |value: &str| {
        value == "PRIVATE" || agreements.iter().any(|a| corporate_value(&a.id) == value)
    };
    let chosen = typed.filter(|t| offered(t)).unwrap_or("PRIVATE");
    let body = html! {
        p class="lead" { (t.context_lead) }
        @if agreements.is_empty() { p class="note" { (t.no_agreements) } }
        form method="post" action=(view.action("context")) {
            ul class="choices" {
                li { label {
                    input type="radio" name="context" value="PRIVATE" id="context-PRIVATE"
                        checked[chosen == "PRIVATE"];
                    span { (t.private_label) small { (t.private_detail) } }
                } }
                @for agreement in agreements {
                    @let value = corporate_value(&agreement.id);
                    li { label {
                        input type="radio" name="context" value=(value) id={ "context-" (agreement.id) }
                            checked[chosen == value];
                        span {
                            (t.corporate_label) " " strong { (agreement.owner_name) }
                            small { (agreement.name) " · " (t.org_number) " " (agreement.owner_number) }
                        }
                    } }
                }
            }
            div class="actions" { button type="submit" id="context-submit" { (t.continue_) } }
        }
    };
    (t.context_title, body)
}
