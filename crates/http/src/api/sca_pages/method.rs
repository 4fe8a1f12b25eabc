//! The method page: one button per authentication method, or, when the TPP sent
//! `TPP-Redirect-Preferred: false`, the biometric-in-the-bank-app variant with a single button.

use super::i18n::method_label;
use super::layout::View;
use maud::{html, Markup};
use xs2a_core::bank::sca::authorisation::AuthMethod;

/// The page's title and content.
pub fn page(view: &View) -> (&'static str, Markup) {
    let t = view.texts();
    let action = view.action("method");
    if view.auth.biometric_in_app {
        let method = AuthMethod::EngangskodeappBiometri.as_str();
        let body = html! {
            p class="lead" { (view.with_tpp(t.biometric_lead)) }
            form method="post" action=(action) {
                div class="actions" {
                    button type="submit" name="method" value=(method) id={ "method-" (method) } {
                        (t.biometric_button)
                    }
                }
            }
        };
        return (t.biometric_title, body);
    }
    let body = html! {
        p class="lead" { (t.method_lead) }
        form method="post" action=(action) class="methods" {
            @for m in AuthMethod::ALL {
                button type="submit" class="secondary" name="method" value=(m.as_str())
                    id={ "method-" (m.as_str()) } {
                    (method_label(view.lang.lang, m))
                }
            }
        }
        p class="note" { (t.method_sandbox_note) }
    };
    (t.method_title, body)
}
