//! How payments look on the wire: the creation response, the details and the status (Berlin Group 1.3
//! shapes where the bank leaves them open; amounts as strings; `_links` entries `{href, verbs}`).

use super::sca_start::Started;
use crate::api::links::Links;
use serde::Serialize;
use xs2a_core::bank::pis::model::Frequency;
use xs2a_core::bank::pis::model::{
    Address, CreditorAccount, DebtorAccount, Money, Payment, PaymentOrder, Remittance, Schedule,
};
use xs2a_core::domain::currency::Currency;

/// `/v1/{service}/{product}/{id}`.
pub fn payment_path(payment: &Payment) -> String {
    format!(
        "/v1/{}/{}/{}",
        payment.payment.service.path(),
        payment.payment.product.path(),
        payment.id
    )
}

/// The links of a payment: see [`resource_links`].
pub fn links(payment: &Payment, started: Option<&Started>) -> Links {
    resource_links(&payment_path(payment), started)
}

/// The links of an authorisable resource at `path` (a payment or a signing basket): itself and its
/// status, then either the authorisation just started (`scaRedirect`, `scaStatus`) or, when none was,
/// how to start one (`startAuthorisation`) — the bank's "scaRedirect or startAuthorisation"
/// (docs/reference/payments.md#endpoints-and-products), as Berlin Group 1.3 answers an implicit start (scaRedirect,
/// scaStatus) and an explicit one (startAuthorisation).
pub fn resource_links(path: &str, started: Option<&Started>) -> Links {
    let links = Links::new()
        .get("self", path.to_owned())
        .get("status", format!("{path}/status"));
    match started {
        Some(started) => links.merge(sca_links(path, started)),
        None => links.with(
            "startAuthorisation",
            format!("{path}/authorisations"),
            &["POST"],
        ),
    }
}

/// The links of an authorisation started on the resource at `path`: where its PSU goes and where its
/// status is read.
pub fn sca_links(path: &str, started: &Started) -> Links {
    Links::new()
        .get("scaRedirect", started.sca_redirect.clone())
        .get(
            "scaStatus",
            format!("{path}/authorisations/{}", started.authorisation_id),
        )
}

/// Berlin Group `amount`: the value as a string with exactly the currency's minor units.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct AmountBody {
    /// E.g. `125.50` (NOK has two minor units, JPY none).
    pub amount: String,
    pub currency: Currency,
}

pub fn money(money: &Money) -> AmountBody {
    let mut amount = money.amount.round_dp(money.currency.minor_units());
    amount.rescale(money.currency.minor_units());
    AmountBody {
        amount: amount.to_string(),
        currency: money.currency,
    }
}

/// The creditor's account: a BBAN (domestic) or an IBAN, and its currency.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CreditorAccountBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bban: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iban: Option<String>,
    pub currency: Currency,
}

fn creditor_account(account: &CreditorAccount) -> CreditorAccountBody {
    CreditorAccountBody {
        bban: account.bban.clone(),
        iban: account.iban.clone(),
        currency: account.currency,
    }
}

/// A card account named by `other.identification` (credit card payments).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherAccountId {
    pub identification: String,
    /// Always `creditCardAccount`.
    pub scheme_name_proprietary: &'static str,
}

/// The debtor's account: a BBAN, or a card account in `other`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DebtorAccountBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bban: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<OtherAccountId>,
    pub currency: Currency,
}

fn debtor_account(account: &DebtorAccount) -> DebtorAccountBody {
    match account {
        DebtorAccount::Bban { bban, currency } => DebtorAccountBody {
            bban: Some(bban.clone()),
            other: None,
            currency: *currency,
        },
        DebtorAccount::Card {
            identification,
            currency,
        } => DebtorAccountBody {
            bban: None,
            other: Some(OtherAccountId {
                identification: identification.clone(),
                scheme_name_proprietary: "creditCardAccount",
            }),
            currency: *currency,
        },
    }
}

/// The creditor's postal address.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddressBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub street: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub building_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub postal_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub town_name: Option<String>,
    /// ISO 3166 alpha-2 country code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

fn address(address: &Address) -> AddressBody {
    AddressBody {
        street: address.street.clone(),
        building_number: address.building_number.clone(),
        postal_code: address.postal_code.clone(),
        town_name: address.town_name.clone(),
        country: address.country.as_ref().map(|c| c.code().to_owned()),
    }
}

/// A structured remittance reference (KID, invoice number).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StructuredReferenceBody {
    pub reference: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_issuer: Option<String>,
}

/// One payment order in the request's own shape (also the request body of a single payment).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentOrderBody {
    pub instructed_amount: AmountBody,
    pub creditor_name: String,
    pub creditor_account: CreditorAccountBody,
    pub creditor_address: AddressBody,
    /// In a bulk payment the debtor account is given once, beside `payments`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debtor_account: Option<DebtorAccountBody>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creditor_agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ultimate_debtor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purpose_code: Option<String>,
    /// ISO 8601 date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_execution_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remittance_information_unstructured: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remittance_information_structured: Option<StructuredReferenceBody>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remittance_information_structured_array: Option<Vec<StructuredReferenceBody>>,
}

/// One order in the request's own shape.
pub fn order(order: &PaymentOrder, with_debtor: bool) -> PaymentOrderBody {
    let mut body = PaymentOrderBody {
        instructed_amount: money(&order.instructed_amount),
        creditor_name: order.creditor_name.clone(),
        creditor_account: creditor_account(&order.creditor_account),
        creditor_address: address(&order.creditor_address),
        debtor_account: with_debtor.then(|| debtor_account(&order.debtor_account)),
        creditor_agent: order.creditor_agent.clone(),
        ultimate_debtor: order.ultimate_debtor.clone(),
        purpose_code: order.purpose_code.clone(),
        requested_execution_date: order.requested_execution_date.map(|d| d.to_string()),
        service_level: order.service_level.clone(),
        remittance_information_unstructured: None,
        remittance_information_structured: None,
        remittance_information_structured_array: None,
    };
    match &order.remittance {
        Some(Remittance::Unstructured { text }) => {
            body.remittance_information_unstructured = Some(text.clone());
        }
        Some(Remittance::Structured {
            references,
            as_array,
        }) => {
            let items: Vec<StructuredReferenceBody> = references
                .iter()
                .map(|r| StructuredReferenceBody {
                    reference: r.reference.clone(),
                    reference_type: r.reference_type.clone(),
                    reference_issuer: r.reference_issuer.clone(),
                })
                .collect();
            if *as_array {
                body.remittance_information_structured_array = Some(items);
            } else {
                body.remittance_information_structured = items.into_iter().next();
            }
        }
        None => {}
    }
    body
}

/// The orders of a bulk payment (or a single one with several orders): the debtor once, then `payments`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkOrders {
    pub debtor_account: DebtorAccountBody,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch_booking_preferred: Option<bool>,
    pub payments: Vec<PaymentOrderBody>,
}

/// The orders of a payment: one order's fields, or a bulk's. (Built once per answer, so not boxed.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum Orders {
    Single(PaymentOrderBody),
    Bulk(BulkOrders),
}

/// The standing order of a periodic payment; every field is absent for other payments.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frequency: Option<Frequency>,
    /// 1..31, as a string (Berlin Group's `dayOfExecution`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day_of_execution: Option<String>,
}

fn schedule(schedule: &Schedule) -> ScheduleBody {
    ScheduleBody {
        start_date: Some(schedule.start_date.to_string()),
        end_date: schedule.end_date.map(|d| d.to_string()),
        frequency: Some(schedule.frequency),
        day_of_execution: schedule.day_of_execution.map(|d| d.to_string()),
    }
}

/// `GET /v1/{service}/{product}/{id}`: the orders as requested, the schedule, the status and links.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentDetails {
    #[serde(flatten)]
    pub orders: Orders,
    /// The standing order of a periodic payment (its fields are absent for other payments).
    #[serde(flatten)]
    pub schedule: ScheduleBody,
    pub transaction_status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub funds_available: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_execution_date: Option<String>,
    #[serde(rename = "_links")]
    pub links: Links,
}

pub fn details(payment: &Payment) -> PaymentDetails {
    let orders = &payment.payment.orders;
    let bulk = orders.len() > 1
        || payment.payment.service == xs2a_core::bank::pis::model::PaymentService::BulkPayments;
    let orders = if bulk {
        Orders::Bulk(BulkOrders {
            debtor_account: debtor_account(&orders[0].debtor_account),
            batch_booking_preferred: payment.payment.batch_booking_preferred,
            payments: orders.iter().map(|o| order(o, false)).collect(),
        })
    } else {
        Orders::Single(order(&orders[0], true))
    };
    PaymentDetails {
        orders,
        schedule: payment
            .payment
            .schedule
            .as_ref()
            .map(schedule)
            .unwrap_or_default(),
        transaction_status: payment.status.as_str(),
        funds_available: payment.funds_available,
        next_execution_date: payment.next_execution_date.map(|d| d.to_string()),
        links: links(payment, None),
    }
}

/// `GET /v1/{service}/{product}/{id}/status`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentStatusBody {
    /// ISO 20022 status: RCVD, ACTC, ACCP, ACSC, RJCT, CANC, PATC, ...
    pub transaction_status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub funds_available: Option<bool>,
    /// Why the payment last changed status (e.g. the reason it was rejected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub psu_message: Option<String>,
}

pub fn status(payment: &Payment) -> PaymentStatusBody {
    PaymentStatusBody {
        transaction_status: payment.status.as_str(),
        funds_available: payment.funds_available,
        psu_message: payment.history.last().and_then(|c| c.reason.clone()),
    }
}
