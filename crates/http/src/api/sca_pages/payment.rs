//! The approval page of a payment authorisation (dynamic linking): the PSU sees exactly what they approve
//! — amount, creditor, the account debited, the reference — and the TPP's brand when it sent one
//! (TPP-Brand-Logging-Information), then confirms.

use super::layout::View;
use crate::api::layers::Language;
use maud::{html, Markup};
use xs2a_core::bank::pis::model::{CreditorAccount, DebtorAccount, Payment, Remittance};

struct Words {
    title: &'static str,
    lead: &'static str,
    brand: &'static str,
    amount: &'static str,
    to: &'static str,
    from: &'static str,
    reference: &'static str,
    date: &'static str,
    asap: &'static str,
    approve: &'static str,
    orders: &'static str,
}

const EN: Words = Words {
    title: "Approve payment",
    lead: "Check the details. By approving, you authorise exactly this:",
    brand: "Shown on behalf of",
    amount: "Amount",
    to: "To",
    from: "From account",
    reference: "Reference",
    date: "Execution date",
    asap: "as soon as possible",
    approve: "Approve",
    orders: "payments",
};

const NB: Words = Words {
    title: "Godkjenn betaling",
    lead: "Sjekk opplysningene. Når du godkjenner, gir du fullmakt til akkurat dette:",
    brand: "Vises på vegne av",
    amount: "Beløp",
    to: "Til",
    from: "Fra konto",
    reference: "Referanse",
    date: "Utføres",
    asap: "snarest",
    approve: "Godkjenn",
    orders: "betalinger",
};

/// The page's title and content.
pub fn page(view: &View, payments: &[Payment]) -> (&'static str, Markup) {
    let w = if view.lang.lang == Language::Norwegian {
        &NB
    } else {
        &EN
    };
    let body = html! {
        p class="lead" { (w.lead) }
        @if let Some(brand) = &view.auth.tpp_brand {
            p class="note" { (w.brand) ": " strong { (brand) } }
        }
        @for payment in payments {
            dl class="payment" {
                @for (label, value) in rows(w, payment) {
                    dt { (label) }
                    dd { (value) }
                }
            }
        }
        form method="post" action=(view.action("confirm")) {
            div class="actions" { button type="submit" id="confirm-submit" { (w.approve) } }
        }
    };
    (w.title, body)
}

/// What the PSU approves of one payment, as (label, value) rows: the total of a bulk, then each order's
/// amount, creditor, reference and date, then the account debited.
fn rows(w: &Words, payment: &Payment) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    let orders = &payment.payment.orders;
    if orders.len() > 1 {
        let total: rust_decimal::Decimal = payment.total();
        let currency = orders[0].instructed_amount.currency;
        rows.push((
            w.amount,
            format!(
                "{} {} ({} {})",
                money(total, currency),
                currency.code(),
                orders.len(),
                w.orders
            ),
        ));
    }
    for order in orders {
        let amount = &order.instructed_amount;
        rows.push((
            w.amount,
            format!(
                "{} {}",
                money(amount.amount, amount.currency),
                amount.currency.code()
            ),
        ));
        rows.push((
            w.to,
            format!(
                "{} ({})",
                order.creditor_name,
                creditor_account(&order.creditor_account)
            ),
        ));
        if let Some(reference) = reference(&order.remittance) {
            rows.push((w.reference, reference));
        }
        let date = order
            .requested_execution_date
            .map(|d| d.to_string())
            .unwrap_or_else(|| w.asap.to_owned());
        rows.push((w.date, date));
    }
    rows.push((w.from, debtor_account(&orders[0].debtor_account)));
    rows
}

/// An amount with the currency's minor units (`1 250.00` is shown as `1250.00`).
fn money(amount: rust_decimal::Decimal, currency: xs2a_core::domain::Currency) -> String {
    let mut rounded = amount.round_dp(currency.minor_units());
    rounded.rescale(currency.minor_units());
    rounded.to_string()
}

fn creditor_account(account: &CreditorAccount) -> String {
    account
        .bban
        .clone()
        .or_else(|| account.iban.clone())
        .unwrap_or_default()
}

fn debtor_account(account: &DebtorAccount) -> String {
    match account {
        DebtorAccount::Bban { bban, .. } => bban.clone(),
        DebtorAccount::Card { identification, .. } => format!("card account {identification}"),
    }
}

fn reference(remittance: &Option<Remittance>) -> Option<String> {
    match remittance.as_ref()? {
        Remittance::Unstructured { text } => Some(text.clone()),
        Remittance::Structured { references, .. } => Some(
            references
                .iter()
                .map(|r| match &r.reference_type {
                    Some(kind) => format!("{kind} {}", r.reference),
                    None => r.reference.clone(),
                })
                .collect::<Vec<_>>()
                .join(", "),
        ),
    }
}
