//! How payments look on the wire: the creation response, the details and the status (Berlin Group 1.3
//! shapes where SPEC.md leaves them open; amounts as strings; `_links` entries `{href, verbs}`).

use crate::api::links::Links;
use crate::payments::model::{
    Address, CreditorAccount, DebtorAccount, Money, Payment, PaymentOrder, Remittance, Schedule,
};
use serde_json::{json, Map, Value};

/// `/v1/{service}/{product}/{id}`.
pub fn payment_path(payment: &Payment) -> String {
    format!(
        "/v1/{}/{}/{}",
        payment.payment.service.path(),
        payment.payment.product.path(),
        payment.id
    )
}

/// The links of a payment, with `scaRedirect` when an authorisation was started.
pub fn links(payment: &Payment, sca_redirect: Option<String>) -> Links {
    resource_links(&payment_path(payment), sca_redirect)
}

/// The links of an authorisable resource at `path` (a payment or a signing basket): itself, its status,
/// how to start its authorisation, and the scaRedirect of one already started.
pub fn resource_links(path: &str, sca_redirect: Option<String>) -> Links {
    let mut links = Links::new()
        .get("self", path.to_owned())
        .get("status", format!("{path}/status"))
        .with(
            "startAuthorisation",
            format!("{path}/authorisations"),
            &["POST"],
        );
    if let Some(href) = sca_redirect {
        links = links.get("scaRedirect", href);
    }
    links
}

pub fn money(money: &Money) -> Value {
    let mut amount = money.amount.round_dp(money.currency.minor_units());
    amount.rescale(money.currency.minor_units());
    json!({"amount": amount.to_string(), "currency": money.currency.code()})
}

fn creditor_account(account: &CreditorAccount) -> Value {
    let mut out = Map::new();
    if let Some(bban) = &account.bban {
        out.insert("bban".into(), json!(bban));
    }
    if let Some(iban) = &account.iban {
        out.insert("iban".into(), json!(iban));
    }
    out.insert("currency".into(), json!(account.currency.code()));
    Value::Object(out)
}

fn debtor_account(account: &DebtorAccount) -> Value {
    match account {
        DebtorAccount::Bban { bban, currency } => {
            json!({"bban": bban, "currency": currency.code()})
        }
        DebtorAccount::Card {
            identification,
            currency,
        } => json!({
            "other": {"identification": identification, "schemeNameProprietary": "creditCardAccount"},
            "currency": currency.code()
        }),
    }
}

fn address(address: &Address) -> Value {
    let mut out = Map::new();
    for (name, value) in [
        ("street", &address.street),
        ("buildingNumber", &address.building_number),
        ("postalCode", &address.postal_code),
        ("townName", &address.town_name),
    ] {
        if let Some(value) = value {
            out.insert(name.into(), json!(value));
        }
    }
    if let Some(country) = &address.country {
        out.insert("country".into(), json!(country.code()));
    }
    Value::Object(out)
}

/// One order in the request's own shape.
pub fn order(order: &PaymentOrder, with_debtor: bool) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("instructedAmount".into(), money(&order.instructed_amount));
    out.insert("creditorName".into(), json!(order.creditor_name));
    out.insert(
        "creditorAccount".into(),
        creditor_account(&order.creditor_account),
    );
    out.insert("creditorAddress".into(), address(&order.creditor_address));
    if with_debtor {
        out.insert(
            "debtorAccount".into(),
            debtor_account(&order.debtor_account),
        );
    }
    if let Some(agent) = &order.creditor_agent {
        out.insert("creditorAgent".into(), json!(agent));
    }
    if let Some(value) = &order.ultimate_debtor {
        out.insert("ultimateDebtor".into(), json!(value));
    }
    if let Some(value) = &order.purpose_code {
        out.insert("purposeCode".into(), json!(value));
    }
    if let Some(date) = order.requested_execution_date {
        out.insert("requestedExecutionDate".into(), json!(date.to_string()));
    }
    if let Some(level) = &order.service_level {
        out.insert("serviceLevel".into(), json!(level));
    }
    match &order.remittance {
        Some(Remittance::Unstructured { text }) => {
            out.insert("remittanceInformationUnstructured".into(), json!(text));
        }
        Some(Remittance::Structured {
            references,
            as_array,
        }) => {
            let items: Vec<Value> = references
                .iter()
                .map(|r| {
                    let mut item = Map::new();
                    item.insert("reference".into(), json!(r.reference));
                    if let Some(kind) = &r.reference_type {
                        item.insert("referenceType".into(), json!(kind));
                    }
                    if let Some(issuer) = &r.reference_issuer {
                        item.insert("referenceIssuer".into(), json!(issuer));
                    }
                    Value::Object(item)
                })
                .collect();
            if *as_array {
                out.insert(
                    "remittanceInformationStructuredArray".into(),
                    Value::Array(items),
                );
            } else if let Some(first) = items.into_iter().next() {
                out.insert("remittanceInformationStructured".into(), first);
            }
        }
        None => {}
    }
    out
}

fn schedule(schedule: &Schedule, out: &mut Map<String, Value>) {
    out.insert("startDate".into(), json!(schedule.start_date.to_string()));
    if let Some(end) = schedule.end_date {
        out.insert("endDate".into(), json!(end.to_string()));
    }
    out.insert(
        "frequency".into(),
        serde_json::to_value(schedule.frequency).unwrap_or(Value::Null),
    );
    if let Some(day) = schedule.day_of_execution {
        out.insert("dayOfExecution".into(), json!(day.to_string()));
    }
}

/// `GET /v1/{service}/{product}/{id}`.
pub fn details(payment: &Payment) -> Value {
    let mut out = if payment.payment.orders.len() > 1
        || payment.payment.service == crate::payments::model::PaymentService::BulkPayments
    {
        let mut out = Map::new();
        out.insert(
            "debtorAccount".into(),
            debtor_account(&payment.payment.orders[0].debtor_account),
        );
        if let Some(preferred) = payment.payment.batch_booking_preferred {
            out.insert("batchBookingPreferred".into(), json!(preferred));
        }
        let orders: Vec<Value> = payment
            .payment
            .orders
            .iter()
            .map(|o| Value::Object(self::order(o, false)))
            .collect();
        out.insert("payments".into(), Value::Array(orders));
        out
    } else {
        order(&payment.payment.orders[0], true)
    };
    if let Some(s) = &payment.payment.schedule {
        schedule(s, &mut out);
    }
    out.insert("transactionStatus".into(), json!(payment.status.as_str()));
    if let Some(funds) = payment.funds_available {
        out.insert("fundsAvailable".into(), json!(funds));
    }
    if let Some(next) = payment.next_execution_date {
        out.insert("nextExecutionDate".into(), json!(next.to_string()));
    }
    out.insert(
        "_links".into(),
        serde_json::to_value(links(payment, None)).expect("links serialise"),
    );
    Value::Object(out)
}

/// `GET /v1/{service}/{product}/{id}/status`.
pub fn status(payment: &Payment) -> Value {
    let mut out = Map::new();
    out.insert("transactionStatus".into(), json!(payment.status.as_str()));
    if let Some(funds) = payment.funds_available {
        out.insert("fundsAvailable".into(), json!(funds));
    }
    if let Some(change) = payment.history.last().filter(|c| c.reason.is_some()) {
        out.insert("psuMessage".into(), json!(change.reason));
    }
    Value::Object(out)
}
