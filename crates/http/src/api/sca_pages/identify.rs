//! The identify page: the PSU types a (mocked) national identity number. Since this is a sandbox, its
//! persons are listed underneath — the seeded ones and those made through the mock-data API, so a tester
//! who created customers with a script finds them here — each a one-click form, so a trainer need not type.

use super::layout::View;
use maud::{html, Markup};
use xs2a_core::bank::mock::model::{Customer, CustomerType};
use xs2a_core::domain::refusal::Refusal;
use xs2a_core::store::Store;

/// Every private customer as (national identity number, name), in number order: only persons can
/// authenticate (corporations act through them).
pub fn persons(store: &Store) -> Result<Vec<(String, String)>, Refusal> {
    Ok(store
        .table::<Customer>()?
        .list_shared()?
        .iter()
        .filter(|c| c.customer_type == CustomerType::Private)
        .map(|c| (c.customer_number.clone(), c.name.clone()))
        .collect())
}

/// The page's title and content; `typed` is what the PSU entered before a refusal.
pub fn page(
    view: &View,
    typed: Option<&str>,
    test_customers: &[(String, String)],
) -> (&'static str, Markup) {
    let t = view.texts();
    let action = view.action("identify");
    let body = html! {
        p class="lead" { (t.identify_lead) }
        form method="post" action=(action) {
            label class="field" for="nationalId" { (t.national_id_label) }
            input type="text" id="nationalId" name="nationalId" inputmode="numeric" autocomplete="off"
                autofocus value=(typed.unwrap_or(""));
            div class="actions" { button type="submit" id="identify-submit" { (t.continue_) } }
        }
        section class="hint" {
            h2 { (t.test_customers) }
            p class="note" { (t.test_customers_hint) }
            ul {
                @for (number, name) in test_customers {
                    li { form method="post" action=(action) {
                        input type="hidden" name="nationalId" value=(number);
                        button type="submit" class="link" id={ "customer-" (number) } {
                            (name) " " code { (number) }
                        }
                    } }
                }
            }
        }
    };
    (t.identify_title, body)
}
