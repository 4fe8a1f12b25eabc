//! The method page: one button per authentication method, or, when the TPP sent
//! `TPP-Redirect-Preferred: false`, the biometric-in-the-bank-app variant with a single button.

use super::i18n::method_label;
use super::layout::{escape, View};
use crate::sca::authorisation::AuthMethod;

/// The page's title and content.
pub fn page(view: &View) -> (&'static str, String) {
    let t = view.texts();
    let action = view.action("method");
    if view.auth.biometric_in_app {
        let method = AuthMethod::EngangskodeappBiometri.as_str();
        let body = format!(
            "<p class=\"lead\">{lead}</p>\
             <form method=\"post\" action=\"{action}\">\
             <div class=\"actions\"><button type=\"submit\" name=\"method\" value=\"{method}\" id=\"method-{method}\">{button}</button></div>\
             </form>",
            lead = view.with_tpp(t.biometric_lead),
            button = escape(t.biometric_button),
        );
        return (t.biometric_title, body);
    }
    let buttons: String = AuthMethod::ALL
        .iter()
        .map(|m| {
            format!(
                "<button type=\"submit\" class=\"secondary\" name=\"method\" value=\"{code}\" id=\"method-{code}\">{label}</button>",
                code = m.as_str(),
                label = escape(method_label(view.lang.lang, *m)),
            )
        })
        .collect();
    let body = format!(
        "<p class=\"lead\">{lead}</p>\
         <form method=\"post\" action=\"{action}\" class=\"methods\">{buttons}</form>\
         <p class=\"note\">{note}</p>",
        lead = escape(t.method_lead),
        note = escape(t.method_sandbox_note),
    );
    (t.method_title, body)
}
