//! The identify page: the PSU types a (mocked) national identity number. Since this is a sandbox, its
//! persons are listed underneath — the seeded ones and those made through the mock-data API, so a tester
//! who created customers with a script finds them here — each a one-click form, so a trainer need not type.

use super::layout::{escape, View};
use crate::refusal::Refusal;
use crate::sandbox::model::{Customer, CustomerType};
use crate::store::Store;

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
) -> (&'static str, String) {
    let t = view.texts();
    let action = view.action("identify");
    let hints: String = test_customers
        .iter()
        .map(|(number, name)| {
            format!(
                "<li><form method=\"post\" action=\"{action}\">\
                 <input type=\"hidden\" name=\"nationalId\" value=\"{number}\">\
                 <button type=\"submit\" class=\"link\" id=\"customer-{number}\">{name} <code>{number}</code></button>\
                 </form></li>",
                number = escape(number),
                name = escape(name),
            )
        })
        .collect();
    let body = format!(
        "<p class=\"lead\">{lead}</p>\
         <form method=\"post\" action=\"{action}\">\
         <label class=\"field\" for=\"nationalId\">{label}</label>\
         <input type=\"text\" id=\"nationalId\" name=\"nationalId\" inputmode=\"numeric\" autocomplete=\"off\" \
         autofocus value=\"{typed}\">\
         <div class=\"actions\"><button type=\"submit\" id=\"identify-submit\">{continue_}</button></div>\
         </form>\
         <section class=\"hint\"><h2>{hint_title}</h2><p class=\"note\">{hint}</p><ul>{hints}</ul></section>",
        lead = escape(t.identify_lead),
        label = escape(t.national_id_label),
        typed = escape(typed.unwrap_or("")),
        continue_ = escape(t.continue_),
        hint_title = escape(t.test_customers),
        hint = escape(t.test_customers_hint),
    );
    (t.identify_title, body)
}
