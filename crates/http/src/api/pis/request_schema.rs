//! The payment request bodies as the OpenAPI document describes them. The service reads these bodies
//! with its own validation (`xs2a_core::bank::pis::validation`, which names the JSON path of every fault), so
//! these types exist for the document only; the API tests check every body the service accepted against
//! them (tests/api/openapi_check.rs), so they cannot drift from what is taken.
#![allow(dead_code, clippy::large_enum_variant)]

use super::views::{AddressBody, StructuredReferenceBody};
use serde::Serialize;
use xs2a_core::bank::pis::model::Frequency;

/// An amount: a decimal string with at most the currency's minor units, e.g. `125.50`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AmountRequest {
    amount: String,
    /// ISO 4217 code from the bank's list.
    currency: String,
}

/// The creditor's account: a BBAN (domestic) or an IBAN.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CreditorAccountRequest {
    bban: Option<String>,
    iban: Option<String>,
    currency: Option<String>,
}

/// A card account in `other` (credit card payments).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherAccountRequest {
    identification: String,
    scheme_name_proprietary: Option<String>,
}

/// The debtor's account: a BBAN, or a card account in `other`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DebtorAccountRequest {
    bban: Option<String>,
    other: Option<OtherAccountRequest>,
    currency: Option<String>,
}

/// One order: The bank's payment request, plus the schedule fields of a periodic payment.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderRequest {
    instructed_amount: AmountRequest,
    creditor_name: String,
    creditor_account: CreditorAccountRequest,
    creditor_address: Option<AddressBody>,
    /// Required for a single payment; given once beside `payments` in a bulk.
    debtor_account: Option<DebtorAccountRequest>,
    creditor_agent: Option<String>,
    ultimate_debtor: Option<String>,
    purpose_code: Option<String>,
    requested_execution_date: Option<String>,
    service_level: Option<String>,
    remittance_information_unstructured: Option<String>,
    remittance_information_structured: Option<StructuredReferenceBody>,
    remittance_information_structured_array: Option<Vec<StructuredReferenceBody>>,
    start_date: Option<String>,
    end_date: Option<String>,
    frequency: Option<Frequency>,
    day_of_execution: Option<String>,
}

/// A bulk payment: the debtor once, the orders in `payments`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkRequest {
    debtor_account: DebtorAccountRequest,
    batch_booking_preferred: Option<bool>,
    requested_execution_date: Option<String>,
    payments: Vec<OrderRequest>,
}

/// The body of `POST /v1/{service}/{product}`: one order, or a bulk.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum PaymentRequest {
    Single(OrderRequest),
    Bulk(BulkRequest),
}

/// The body of a fee-information request.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeeRequest {
    instructed_amount: AmountRequest,
    debtor_account: DebtorAccountRequest,
    creditor_account: CreditorAccountRequest,
}
