//! The sandbox's mock-data and control routes in the OpenAPI document. Creations answer 201 with the
//! stored resource; warnings about what production might refuse come as `Sandbox-Warning` headers when
//! the body is a list.

use super::{
    accounts, agreements, batch, card_accounts, consents, customers, edits, events, generate,
    identifiers, initialize, payment_controls, payments,
};
use crate::api::openapi::builder::Param;
use crate::api::openapi::headers::SIGNED;
use crate::api::openapi::routes::Routes;
use serde_json::json;
use xs2a_core::bank::batch::model::BatchRun;
use xs2a_core::bank::mock::accounts::{AccountView, CreateAccount};
use xs2a_core::bank::mock::agreements::{AgreementView, CreateAgreement};
use xs2a_core::bank::mock::card_accounts::{CardAccountView, CreateCardAccount};
use xs2a_core::bank::mock::card_transactions::{
    CardTransactionInput, CardTransactionList, CardTransactionView,
};
use xs2a_core::bank::mock::customers::{CreateCustomer, CustomerAnswer, CustomerView};
use xs2a_core::bank::mock::edits::{UpdateAccount, UpdateCardAccount, UpdateCustomer};
use xs2a_core::bank::mock::seed::InitSummary;
use xs2a_core::bank::mock::transactions::{TransactionInput, TransactionView};
use xs2a_core::bank::pis::settings::PaymentSettings;
use xs2a_core::bank::pis::summary::PaymentSummary;

/// The sandbox transaction listing's parameters (docs/reference/mock-data.md#endpoints).
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

/// Mock data: customers, accounts, card accounts, their transactions, agreements (paths relative to /v1,
/// as the workbench's: see [`workbench`]). Open to every signed TPP, as the bank's platform offers it.
pub fn mock_data() -> Routes {
    const TAG: &str = "Mock data";
    Routes::new()
        .get("/sandbox/customers", customers::list, |op| {
            op.tag(TAG)
                .summary("Every sandbox customer with their accounts")
                .params(SIGNED)
                .answers_list::<CustomerView>(200, "The customers")
                .refusals(&[400])
        })
        .post("/sandbox/customers", customers::create, |op| {
            op.tag(TAG)
                .summary("Create a customer")
                .params(SIGNED)
                .body::<CreateCustomer>(true)
                .answers::<CustomerAnswer>(201, "Created")
                .refusals(&[400, 409, 413, 415])
        })
        .delete("/sandbox/customers/{customerId}", customers::delete, |op| {
            op.tag(TAG)
                .summary("Remove a customer and all that hangs on it")
                .description("Named by its id or its customer number: accounts, card accounts, transactions, consents, agreements' engagements.")
                .params(SIGNED)
                .empty(204, "Removed")
                .refusals(&[400, 404])
        })
        .post("/sandbox/accounts", accounts::create, |op| {
            op.tag(TAG)
                .summary("Create a mock account")
                .params(SIGNED)
                .body::<CreateAccount>(true)
                .answers::<AccountView>(201, "Created; its id is the mockAccountId")
                .refusals(&[400, 404, 409, 413, 415])
        })
        .get("/sandbox/accounts/{mockAccountId}", accounts::get, |op| {
            op.tag(TAG)
                .summary("A mock account")
                .params(SIGNED)
                .answers::<AccountView>(200, "The account")
                .refusals(&[400, 404])
        })
        .get("/sandbox/accounts/{mockAccountId}/transactions", accounts::list_transactions, |op| {
            op.tag(TAG)
                .summary("An account's transactions (the bank's mock-data operation 4)")
                .params(SIGNED)
                .params(LISTING)
                .answers_list::<TransactionView>(200, "The transactions")
                .refusals(&[400, 404])
        })
        .post(
            "/sandbox/accounts/{mockAccountId}/transactions",
            accounts::create_transactions,
            |op| {
                op.tag(TAG)
                    .summary("Book transactions on an account")
                    .params(SIGNED)
                    .body_list::<TransactionInput>()
                    .answers_list::<TransactionView>(201, "The stored transactions, in the order given")
                    .refusals(&[400, 404, 409, 413, 415])
            },
        )
        .post(
            "/sandbox/accounts/{mockAccountId}/transactions/generate",
            generate::account_transactions,
            |op| {
                op.tag(TAG)
                    .summary("Book made-up transactions in bulk")
                    .params(SIGNED)
                    .body::<generate::GenerateRequest>(true)
                    .answers::<generate::Generated>(201, "How many were made")
                    .refusals(&[400, 404, 413, 415])
            },
        )
        .get(
            "/sandbox/accounts/{mockAccountId}/transactions/{transactionId}",
            accounts::get_transaction,
            |op| {
                op.tag(TAG)
                    .summary("One transaction of an account")
                    .params(SIGNED)
                    .answers::<TransactionView>(200, "The transaction")
                    .refusals(&[400, 404])
            },
        )
        .post("/sandbox/card-accounts", card_accounts::create, |op| {
            op.tag(TAG)
                .summary("Create a mock card account")
                .params(SIGNED)
                .body::<CreateCardAccount>(true)
                .answers::<CardAccountView>(201, "Created; its id is the mockCardAccountId")
                .refusals(&[400, 404, 409, 413, 415])
        })
        .get("/sandbox/card-accounts/{mockCardAccountId}", card_accounts::get, |op| {
            op.tag(TAG)
                .summary("A mock card account")
                .params(SIGNED)
                .answers::<CardAccountView>(200, "The card account")
                .refusals(&[400, 404])
        })
        .get(
            "/sandbox/card-accounts/{mockCardAccountId}/transactions",
            card_accounts::list_transactions,
            |op| {
                op.tag(TAG)
                    .summary("A card account's transactions (the bank's mock-data operation 5)")
                    .params(SIGNED)
                    .params(&[CARD_BOOKING_STATUS])
                    .params(LISTING)
                    .answers::<CardTransactionList>(200, "The card transactions")
                    .refusals(&[400, 404])
            },
        )
        .post(
            "/sandbox/card-accounts/{mockCardAccountId}/transactions",
            card_accounts::create_transactions,
            |op| {
                op.tag(TAG)
                    .summary("Book card transactions")
                    .params(SIGNED)
                    .body_list::<CardTransactionInput>()
                    .answers_list::<CardTransactionView>(201, "The stored card transactions, in the order given")
                    .refusals(&[400, 404, 409, 413, 415])
            },
        )
        .get("/sandbox/agreements", agreements::list, |op| {
            op.tag(TAG)
                .summary("Every corporate agreement")
                .params(SIGNED)
                .answers_list::<AgreementView>(200, "The agreements")
                .refusals(&[400])
        })
        .post("/sandbox/agreements", agreements::create, |op| {
            op.tag(TAG)
                .summary("Create a corporate agreement")
                .params(SIGNED)
                .body::<CreateAgreement>(true)
                .answers::<AgreementView>(201, "Created")
                .refusals(&[400, 404, 409, 413, 415])
        })
        .merge(generators())
}

/// The number generators (sandbox helpers the bank's platform does not have).
fn generators() -> Routes {
    const TAG: &str = "Mock data";
    const UNUSED: &str =
        "Random, with valid check digits, and not used by any customer or account of this sandbox.";
    Routes::new()
        .get("/sandbox/generate/national-id", identifiers::national_id, |op| {
            op.tag(TAG)
                .summary("A valid national identity number for a new private customer")
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
        })
        .get("/sandbox/generate/org-number", identifiers::org_number, |op| {
            op.tag(TAG)
                .summary("A valid organisation number for a new corporate customer")
                .description(UNUSED)
                .params(SIGNED)
                .answers::<identifiers::GeneratedValue>(200, "The number")
                .refusals(&[400, 409])
        })
        .get("/sandbox/generate/bban", identifiers::bban, |op| {
            op.tag(TAG)
                .summary("A valid account number (BBAN) for a new account")
                .description(UNUSED)
                .params(SIGNED)
                .params(&[Param::query(
                    "bankCode",
                    "string",
                    "The 4-digit bank register number the BBAN starts with (default 1205, the sandbox's own).",
                )])
                .answers::<identifiers::GeneratedValue>(200, "The number")
                .refusals(&[400, 409])
        })
}

/// The sandbox routes as the workbench serves them (under `/workbench/api`): the mock data and the
/// bank-side controls of `/v1/sandbox` (documented there, and copied for the workbench by
/// [`mirror_for_workbench`]), and the edits only the workbench offers (`PUT /workbench/api/sandbox/...`;
/// not on /v1: the bank's platform cannot edit mock data in place, so /v1/sandbox does not either).
pub fn workbench() -> Routes {
    const TAG: &str = "Mock data";
    const KEPT: &str = "Fields left out keep their value; `null` removes an optional amount or link; a list \
        replaces the whole list. Identifying fields may be sent back unchanged; a change is 400 FORMAT_ERROR \
        at the field. Emits `sandbox.changed` on the event stream.";
    mock_data()
        .merge(controls())
        .documented_elsewhere()
        .put("/sandbox/customers/{customerId}", edits::customer, |op| {
            op.tag(TAG)
                .summary("Rename a customer")
                .description(KEPT)
                .operator()
                .body::<UpdateCustomer>(true)
                .answers::<CustomerView>(200, "The customer as the list shows it")
                .refusals(&[401, 404])
        })
        .put("/sandbox/accounts/{mockAccountId}", edits::account, |op| {
            op.tag(TAG)
                .summary("Edit a mock account")
                .description(KEPT)
                .operator()
                .body::<UpdateAccount>(true)
                .answers::<AccountView>(200, "The account as changed")
                .refusals(&[401, 404])
        })
        .put(
            "/sandbox/card-accounts/{mockCardAccountId}",
            edits::card_account,
            |op| {
                op.tag(TAG)
                    .summary("Edit a mock card account")
                    .description(KEPT)
                    .operator()
                    .body::<UpdateCardAccount>(true)
                    .answers::<CardAccountView>(200, "The card account as changed")
                    .refusals(&[401, 404])
            },
        )
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

/// The bank-side controls: the clock, resets, batch runs, forced outcomes, settings, consents at the bank,
/// payment permission, and reads across TPPs (payments, consents, the event stream). In shared mode they
/// need the operator credential (`api::operator`). Paths relative to /v1, as the workbench's.
pub fn controls() -> Routes {
    const TAG: &str = "Control";
    Routes::new()
        .post("/sandbox/initialize", initialize::initialize, |op| {
            op.tag(TAG)
                .summary("Reset to the known initial state")
                .params(SIGNED)
                .operator()
                .answers::<InitSummary>(200, "What the sandbox now holds")
                .refusals(&[400, 401])
        })
        .get("/sandbox/batch-runs", batch::list, |op| {
            op.tag(TAG)
                .summary("Past batch runs and the next scheduled ones")
                .params(SIGNED)
                .params(&[Param::query(
                    "limit",
                    "integer",
                    "Runs to list (default 20, at most 500).",
                )])
                .operator()
                .answers::<batch::RunsView>(200, "Runs, newest first")
                .refusals(&[400, 401])
        })
        .post("/sandbox/batch-runs", batch::run_now, |op| {
            op.tag(TAG)
                .summary("Run the batch now")
                .params(SIGNED)
                .operator()
                .answers::<BatchRun>(201, "The run and what it did to each payment")
                .refusals(&[400, 401])
        })
        .get("/sandbox/events", events::stream, |op| {
            op.tag(TAG)
                .summary("The sandbox's events as Server-Sent Events")
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
        })
        .get("/sandbox/payments", payments::list, |op| {
            op.tag(TAG)
                .summary("Every payment, of every TPP")
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
        })
        .get("/sandbox/consents", consents::list, |op| {
            op.tag(TAG)
                .summary("Every consent, with its customer number")
                .params(SIGNED)
                .operator()
                .answers_list::<consents::ConsentEntry>(200, "The consents")
                .refusals(&[400, 401])
        })
        .post("/sandbox/consents/revoke", consents::revoke, |op| {
            op.tag(TAG)
                .summary("The PSU revokes consent at the bank")
                .params(SIGNED)
                .operator()
                .body::<consents::Revocation>(true)
                .answers::<consents::RevocationResult>(200, "What changed")
                .refusals(&[400, 401, 404, 413, 415])
        })
        .put(
            "/sandbox/accounts/{mockAccountId}/payment-permission",
            consents::set_payment_permission,
            |op| {
                op.tag(TAG)
                    .summary("Allow or remove payments from an account")
                    .params(SIGNED)
                    .operator()
                    .body::<consents::PaymentPermission>(true)
                    .answers::<consents::PermissionResult>(200, "The permission now")
                    .refusals(&[400, 401, 404, 413, 415])
            },
        )
        .get("/sandbox/settings", payment_controls::get_settings, |op| {
            op.tag(TAG)
                .summary("Payment settings (limits, funds)")
                .params(SIGNED)
                .operator()
                .answers::<PaymentSettings>(200, "The settings")
                .refusals(&[400, 401])
        })
        .put("/sandbox/settings", payment_controls::put_settings, |op| {
            op.tag(TAG)
                .summary("Payment settings (limits, funds)")
                .params(SIGNED)
                .operator()
                .body::<PaymentSettings>(true)
                .refusals(&[413, 415])
                .answers::<PaymentSettings>(200, "The settings")
                .refusals(&[400, 401])
        })
        .put(
            "/sandbox/payments/{paymentId}/forced-outcome",
            payment_controls::force_outcome,
            |op| {
                op.tag(TAG)
                    .summary("Force the outcome of a payment's next batch run")
                    .params(SIGNED)
                    .operator()
                    .body::<payment_controls::Forcing>(true)
                    .answers::<payment_controls::ForcedResult>(200, "The forced outcome")
                    .refusals(&[400, 401, 404, 413, 415])
            },
        )
        .merge(crate::api::clock::routes())
}
