//! The sandbox's mock-data and control routes in the OpenAPI document. Creations answer 201 with the
//! stored resource; warnings about what production might refuse come as `Sandbox-Warning` headers when
//! the body is a list.

use super::{batch, consents, generate, identifiers, payment_controls};
use crate::api::openapi::builder::{Document, Param};
use crate::api::openapi::headers::SIGNED;
use crate::batch::model::BatchRun;
use crate::payments::settings::PaymentSettings;
use crate::payments::summary::PaymentSummary;
use crate::sandbox::accounts::{AccountView, CreateAccount};
use crate::sandbox::agreements::{AgreementView, CreateAgreement};
use crate::sandbox::card_accounts::{CardAccountView, CreateCardAccount};
use crate::sandbox::card_transactions::{
    CardTransactionInput, CardTransactionList, CardTransactionView,
};
use crate::sandbox::customers::{CreateCustomer, CustomerAnswer, CustomerView};
use crate::sandbox::edits::{UpdateAccount, UpdateCardAccount, UpdateCustomer};
use crate::sandbox::seed::InitSummary;
use crate::sandbox::transactions::{TransactionInput, TransactionView};
use serde_json::json;

/// SPEC.md operation 4's listing parameters.
const LISTING: &[Param] = &[
    Param::query("fromDate", "date", "First booking date (ISO 8601)."),
    Param::query("toDate", "date", "Last booking date (ISO 8601)."),
    Param::query(
        "offset",
        "integer",
        "Transactions to skip before counting the limit.",
    ),
    Param::query("limit", "integer", "At most this many (at least 1)."),
];

const CARD_BOOKING_STATUS: Param = Param::query(
    "bookingStatus",
    "enum:booked|pending|both",
    "Which card transactions; required.",
)
.required();

/// Mock data: customers, accounts, card accounts, their transactions, agreements.
pub fn describe_mock_data(doc: &mut Document) {
    const TAG: &str = "Mock data";
    doc.op(
        "GET",
        "/v1/sandbox/customers",
        TAG,
        "Every sandbox customer with their accounts",
    )
    .params(SIGNED)
    .answers_list::<CustomerView>(200, "The customers")
    .refusals(&[400])
    .finish();
    doc.op("POST", "/v1/sandbox/customers", TAG, "Create a customer")
        .params(SIGNED)
        .body::<CreateCustomer>(true)
        .answers::<CustomerAnswer>(201, "Created")
        .refusals(&[400, 409, 413, 415])
        .finish();
    doc.op("DELETE", "/v1/sandbox/customers/{customerId}", TAG, "Remove a customer and all that hangs on it")
        .description("Named by its id or its customer number: accounts, card accounts, transactions, consents, agreements' engagements.")
        .params(SIGNED)
        .empty(204, "Removed")
        .refusals(&[400, 404])
        .finish();
    doc.op("POST", "/v1/sandbox/accounts", TAG, "Create a mock account")
        .params(SIGNED)
        .body::<CreateAccount>(true)
        .answers::<AccountView>(201, "Created; its id is the mockAccountId")
        .refusals(&[400, 404, 409, 413, 415])
        .finish();
    doc.op(
        "GET",
        "/v1/sandbox/accounts/{mockAccountId}",
        TAG,
        "A mock account",
    )
    .params(SIGNED)
    .answers::<AccountView>(200, "The account")
    .refusals(&[400, 404])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/accounts/{mockAccountId}/transactions",
        TAG,
        "An account's transactions (SPEC.md operation 4)",
    )
    .params(SIGNED)
    .params(LISTING)
    .answers_list::<TransactionView>(200, "The transactions")
    .refusals(&[400, 404])
    .finish();
    doc.op(
        "POST",
        "/v1/sandbox/accounts/{mockAccountId}/transactions",
        TAG,
        "Book transactions on an account",
    )
    .params(SIGNED)
    .body_list::<TransactionInput>()
    .answers_list::<TransactionView>(201, "The stored transactions, in the order given")
    .refusals(&[400, 404, 409, 413, 415])
    .finish();
    doc.op(
        "POST",
        "/v1/sandbox/accounts/{mockAccountId}/transactions/generate",
        TAG,
        "Book made-up transactions in bulk",
    )
    .params(SIGNED)
    .body::<generate::GenerateRequest>(true)
    .answers::<generate::Generated>(201, "How many were made")
    .refusals(&[400, 404, 413, 415])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/accounts/{mockAccountId}/transactions/{transactionId}",
        TAG,
        "One transaction of an account",
    )
    .params(SIGNED)
    .answers::<TransactionView>(200, "The transaction")
    .refusals(&[400, 404])
    .finish();
    doc.op(
        "POST",
        "/v1/sandbox/card-accounts",
        TAG,
        "Create a mock card account",
    )
    .params(SIGNED)
    .body::<CreateCardAccount>(true)
    .answers::<CardAccountView>(201, "Created; its id is the mockCardAccountId")
    .refusals(&[400, 404, 409, 413, 415])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/card-accounts/{mockCardAccountId}",
        TAG,
        "A mock card account",
    )
    .params(SIGNED)
    .answers::<CardAccountView>(200, "The card account")
    .refusals(&[400, 404])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/card-accounts/{mockCardAccountId}/transactions",
        TAG,
        "A card account's transactions (SPEC.md operation 5)",
    )
    .params(SIGNED)
    .params(&[CARD_BOOKING_STATUS])
    .params(LISTING)
    .answers::<CardTransactionList>(200, "The card transactions")
    .refusals(&[400, 404])
    .finish();
    doc.op(
        "POST",
        "/v1/sandbox/card-accounts/{mockCardAccountId}/transactions",
        TAG,
        "Book card transactions",
    )
    .params(SIGNED)
    .body_list::<CardTransactionInput>()
    .answers_list::<CardTransactionView>(201, "The stored card transactions, in the order given")
    .refusals(&[400, 404, 409, 413, 415])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/agreements",
        TAG,
        "Every corporate agreement",
    )
    .params(SIGNED)
    .answers_list::<AgreementView>(200, "The agreements")
    .refusals(&[400])
    .finish();
    doc.op(
        "POST",
        "/v1/sandbox/agreements",
        TAG,
        "Create a corporate agreement",
    )
    .params(SIGNED)
    .body::<CreateAgreement>(true)
    .answers::<AgreementView>(201, "Created")
    .refusals(&[400, 404, 409, 413, 415])
    .finish();
    describe_generators(doc);
}

/// The number generators (sandbox helpers the bank's platform does not have).
fn describe_generators(doc: &mut Document) {
    const TAG: &str = "Mock data";
    const UNUSED: &str =
        "Random, with valid check digits, and not used by any customer or account of this sandbox.";
    doc.op(
        "GET",
        "/v1/sandbox/generate/national-id",
        TAG,
        "A valid national identity number for a new private customer",
    )
    .description(UNUSED)
    .params(SIGNED)
    .params(&[
        Param::query(
            "kind",
            "enum:fodselsnummer|d-number|synthetic",
            "synthetic (the default: month + 80, numbers no real person has), fodselsnummer, or d-number (day + 40).",
        ),
        Param::query("birthDate", "date", "The birth date (default: a random adult's)."),
        Param::query("sex", "enum:female|male", "Encoded in the individual number (default: either)."),
    ])
    .answers::<identifiers::GeneratedValue>(200, "The number")
    .refusals(&[400, 409])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/generate/org-number",
        TAG,
        "A valid organisation number for a new corporate customer",
    )
    .description(UNUSED)
    .params(SIGNED)
    .answers::<identifiers::GeneratedValue>(200, "The number")
    .refusals(&[400, 409])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/generate/bban",
        TAG,
        "A valid account number (BBAN) for a new account",
    )
    .description(UNUSED)
    .params(SIGNED)
    .params(&[Param::query(
        "bankCode",
        "string",
        "The 4-digit bank register number the BBAN starts with (default 1205, the sandbox's own).",
    )])
    .answers::<identifiers::GeneratedValue>(200, "The number")
    .refusals(&[400, 409])
    .finish();
}

/// The edits only the workbench offers (`PUT /workbench/api/sandbox/...`; not on /v1: the bank's platform
/// has no such operation).
pub fn describe_workbench_edits(doc: &mut Document) {
    const TAG: &str = "Mock data";
    const KEPT: &str = "Fields left out keep their value; `null` removes an optional amount or link; a list \
        replaces the whole list. Identifying fields may be sent back unchanged; a change is 400 FORMAT_ERROR \
        at the field. Emits `sandbox.changed` on the event stream.";
    doc.op(
        "PUT",
        "/workbench/api/sandbox/customers/{customerId}",
        TAG,
        "Rename a customer",
    )
    .description(KEPT)
    .operator()
    .body::<UpdateCustomer>(true)
    .answers::<CustomerView>(200, "The customer as the list shows it")
    .refusals(&[401, 404])
    .finish();
    doc.op(
        "PUT",
        "/workbench/api/sandbox/accounts/{mockAccountId}",
        TAG,
        "Edit a mock account",
    )
    .description(KEPT)
    .operator()
    .body::<UpdateAccount>(true)
    .answers::<AccountView>(200, "The account as changed")
    .refusals(&[401, 404])
    .finish();
    doc.op(
        "PUT",
        "/workbench/api/sandbox/card-accounts/{mockCardAccountId}",
        TAG,
        "Edit a mock card account",
    )
    .description(KEPT)
    .operator()
    .body::<UpdateCardAccount>(true)
    .answers::<CardAccountView>(200, "The card account as changed")
    .refusals(&[401, 404])
    .finish();
}

/// The signing headers of `/v1`: the workbench's copies of the sandbox endpoints take the operator
/// credential instead.
const SIGNING_HEADERS: [&str; 5] = [
    "X-Request-ID",
    "Date",
    "Digest",
    "Signature",
    "TPP-Signature-Certificate",
];

/// Copies every `/v1/sandbox` operation the workbench serves under `/workbench/api/sandbox` (all but the
/// SCA automation), with the operator credential in place of the signature, so that a client generated
/// from the document finds every path the workbench UI calls.
pub fn mirror_for_workbench(paths: &mut serde_json::Map<String, serde_json::Value>) {
    let copies: Vec<(String, serde_json::Value)> = paths
        .iter()
        .filter(|(path, _)| {
            path.starts_with("/v1/sandbox/") && !path.starts_with("/v1/sandbox/sca/")
        })
        .map(|(path, item)| {
            let mut item = item.clone();
            for (method, operation) in item.as_object_mut().into_iter().flatten() {
                if let Some(list) = operation["parameters"].as_array_mut() {
                    list.retain(|p| {
                        p["in"] != "header" || !SIGNING_HEADERS.iter().any(|h| p["name"] == *h)
                    });
                }
                let id = operation["operationId"].as_str().unwrap_or_default();
                let id = id.replacen(
                    &format!("{method}_v1_"),
                    &format!("{method}_workbench_api_"),
                    1,
                );
                operation["operationId"] = json!(id);
                operation["security"] = json!([{"operator": []}]);
                operation["responses"]["401"] =
                    json!({"$ref": "#/components/responses/Refused401"});
            }
            (path.replacen("/v1/", "/workbench/api/", 1), item)
        })
        .collect();
    for (path, item) in copies {
        let entry = paths.entry(path).or_insert_with(|| json!({}));
        for (method, operation) in item.as_object().into_iter().flatten() {
            entry[method] = operation.clone();
        }
    }
}

/// The bank-side controls (operator credential in shared mode).
pub fn describe_controls(doc: &mut Document) {
    const TAG: &str = "Control";
    doc.op(
        "POST",
        "/v1/sandbox/initialize",
        TAG,
        "Reset to the known initial state",
    )
    .params(SIGNED)
    .operator()
    .answers::<InitSummary>(200, "What the sandbox now holds")
    .refusals(&[400, 401])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/batch-runs",
        TAG,
        "Past batch runs and the next scheduled ones",
    )
    .params(SIGNED)
    .params(&[Param::query(
        "limit",
        "integer",
        "Runs to list (default 20, at most 500).",
    )])
    .operator()
    .answers::<batch::RunsView>(200, "Runs, newest first")
    .refusals(&[400, 401])
    .finish();
    doc.op("POST", "/v1/sandbox/batch-runs", TAG, "Run the batch now")
        .params(SIGNED)
        .operator()
        .answers::<BatchRun>(201, "The run and what it did to each payment")
        .refusals(&[400, 401])
        .finish();
    doc.op(
        "GET",
        "/v1/sandbox/events",
        TAG,
        "The sandbox's events as Server-Sent Events",
    )
    .description("Resumable with Last-Event-ID (or ?lastEventId=).")
    .params(SIGNED)
    .operator()
    .answers_with(
        200,
        "An event stream",
        "text/event-stream",
        crate::api::openapi::builder::sse_event("The event's payload as JSON"),
    )
    .refusals(&[400, 401])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/payments",
        TAG,
        "Every payment, of every TPP",
    )
    .params(SIGNED)
    .params(&[
        Param::query(
            "status",
            "string",
            "Only payments with this transactionStatus.",
        ),
        Param::query("limit", "integer", "At most this many."),
    ])
    .operator()
    .answers_list::<PaymentSummary>(200, "The payments")
    .refusals(&[400, 401])
    .finish();
    doc.op(
        "GET",
        "/v1/sandbox/consents",
        TAG,
        "Every consent, with its customer number",
    )
    .params(SIGNED)
    .operator()
    .answers_list::<consents::ConsentEntry>(200, "The consents")
    .refusals(&[400, 401])
    .finish();
    doc.op(
        "POST",
        "/v1/sandbox/consents/revoke",
        TAG,
        "The PSU revokes consent at the bank",
    )
    .params(SIGNED)
    .operator()
    .body::<consents::Revocation>(true)
    .answers::<consents::RevocationResult>(200, "What changed")
    .refusals(&[400, 401, 404, 413, 415])
    .finish();
    doc.op(
        "PUT",
        "/v1/sandbox/accounts/{mockAccountId}/payment-permission",
        TAG,
        "Allow or remove payments from an account",
    )
    .params(SIGNED)
    .operator()
    .body::<consents::PaymentPermission>(true)
    .answers::<consents::PermissionResult>(200, "The permission now")
    .refusals(&[400, 401, 404, 413, 415])
    .finish();
    for method in ["GET", "PUT"] {
        let op = doc
            .op(
                method,
                "/v1/sandbox/settings",
                TAG,
                "Payment settings (limits, funds)",
            )
            .params(SIGNED)
            .operator();
        let op = if method == "PUT" {
            op.body::<PaymentSettings>(true).refusals(&[413, 415])
        } else {
            op
        };
        op.answers::<PaymentSettings>(200, "The settings")
            .refusals(&[400, 401])
            .finish();
    }
    doc.op(
        "PUT",
        "/v1/sandbox/payments/{paymentId}/forced-outcome",
        TAG,
        "Force the outcome of a payment's next batch run",
    )
    .params(SIGNED)
    .operator()
    .body::<payment_controls::Forcing>(true)
    .answers::<payment_controls::ForcedResult>(200, "The forced outcome")
    .refusals(&[400, 401, 404, 413, 415])
    .finish();
}
