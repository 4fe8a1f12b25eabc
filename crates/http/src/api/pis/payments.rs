//! The payment endpoints: `POST /v1/{payments|periodic-payments|bulk-payments}/{product}` to create,
//! `GET …/{paymentId}` and `…/status` to read, `DELETE …/{paymentId}` to cancel,
//! and the fee information of instant payments (the authorisation sub-resources: `authorisations.rs`).

use super::caller::{self, pisp};
use super::sca_start::started;
use super::views;
use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::openapi::builder::{Operation, Param};
use crate::api::openapi::headers::{PAYMENT, SET_B_P, SIGNED};
use crate::api::openapi::routes::Routes;
use crate::api::path::{no_endpoint, ApiPath};
use crate::api::query::flag;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::{json, Value};
use xs2a_core::bank::payment_initiation::creation::{create_payment, PaymentRequest};
use xs2a_core::bank::pis::model::{Payment, PaymentProduct, PaymentService};
use xs2a_core::bank::pis::{service, validation};
use xs2a_workbench::app_state::AppState;

/// The service and product of the path, or 404 (PRODUCT_UNKNOWN for an unknown product). The payment
/// routes start with a parameter, so any path of their shape reaches them (`GET /v1/accounts/x/y`); one
/// whose first segment is no payment service has no endpoint, and the answer names it as it was sent.
pub fn service_and_product(
    service: &str,
    product: &str,
    parts: &Parts,
) -> ApiResult<(PaymentService, PaymentProduct)> {
    let service = PaymentService::parse(service).ok_or_else(|| no_endpoint(parts))?;
    Ok((service, PaymentProduct::offered(product)?))
}

/// The payment creation response (docs/interface.md#payments).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreatedPayment {
    payment_id: String,
    /// RCVD on creation.
    transaction_status: &'static str,
    transaction_fee_indicator: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    transaction_fees: Option<views::AmountBody>,
    psu_message: &'static str,
    /// `self`, `status`, and the authorisation creating it started: `scaRedirect` to the bank's page,
    /// `scaStatus` to follow it.
    #[serde(rename = "_links")]
    links: crate::api::links::Links,
    /// Warnings: what production might refuse, unknown x-accept-fix names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tpp_messages: Vec<xs2a_core::domain::refusal::TppMessage>,
}

async fn create(
    State(state): State<AppState>,
    ApiPath((service, product)): ApiPath<(String, String)>,
    parts: Parts,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<(StatusCode, Json<CreatedPayment>)> {
    let (service, product) = service_and_product(&service, &product, &parts)?;
    let caller = caller::read(&parts)?;
    let request = PaymentRequest {
        service,
        product,
        body: &body,
        allow_logical_duplicate: flag(&parts, "allowLogicalDuplicate")?,
        rejected_by_fault_plan: parts
            .extensions
            .get::<crate::api::rehearsal::resources::RejectCreatedPayment>()
            .is_some(),
    };
    let created = create_payment(&state, &caller, request)?;
    let mut warnings = created.warnings;
    // Unknown fix names are accepted with a WARNING, as on every call that takes x-accept-fix.
    let (_, fix_warnings) =
        crate::api::ais::fixes::AcceptedFixes::from_request(&parts.headers, state.clock.now());
    warnings.extend(fix_warnings);
    let started = started(&parts, &created.authorisation);
    let payment = created.payment;
    let body = CreatedPayment {
        transaction_status: payment.status.as_str(),
        transaction_fee_indicator: payment.fee.as_ref().is_some_and(|f| !f.amount.is_zero()),
        transaction_fees: payment.fee.as_ref().map(views::money),
        psu_message: "Approve the payment on the bank's page (scaRedirect).",
        links: views::links(&payment, Some(&started)),
        tpp_messages: warnings,
        payment_id: payment.id,
    };
    Ok((StatusCode::CREATED, Json(body)))
}

/// The payment of the path for the calling TPP, with the bank's known issue applied
/// (docs/interface.md#known-issues-reproduced).
fn readable_payment(
    state: &AppState,
    parts: &Parts,
    service: &str,
    product: &str,
    id: &str,
) -> ApiResult<Payment> {
    let (service, product) = service_and_product(service, product, parts)?;
    let tpp = pisp(parts)?;
    Ok(service::get_readable(
        &state.store,
        &tpp.tpp_id(),
        service,
        product,
        id,
    )?)
}

async fn details(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<Json<views::PaymentDetails>> {
    let payment = readable_payment(&state, &parts, &service, &product, &id)?;
    Ok(Json(views::details(&payment)))
}

async fn status(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<Json<views::PaymentStatusBody>> {
    let payment = readable_payment(&state, &parts, &service, &product, &id)?;
    Ok(Json(views::status(&payment)))
}

async fn delete(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<StatusCode> {
    let (service, product) = service_and_product(&service, &product, &parts)?;
    let tpp = pisp(&parts)?;
    let payment = service::get(&state.store, &tpp.tpp_id(), service, product, &id)?;
    let now = state.clock.now();
    let cancelled = service::delete(&state.store, payment, now)?;
    state.events.publish(
        xs2a_core::bank::events::EventKind::PaymentStatus,
        now,
        json!({"paymentId": cancelled.id, "transactionStatus": "CANC"}),
    );
    Ok(StatusCode::NO_CONTENT)
}

async fn fee_information(
    State(state): State<AppState>,
    parts: Parts,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Json<validation::fees::FeeInformation>> {
    pisp(&parts)?;
    Ok(Json(validation::fees::fee_information(
        &body,
        state.clock.now(),
    )?))
}

pub(super) const SERVICE: Param = Param::path(
    "service",
    "enum:payments|periodic-payments|bulk-payments",
    "The payment service.",
);
pub(super) const PRODUCT: Param = Param::path(
    "product",
    "enum:norwegian-domestic-credit-transfers|instant-norwegian-domestic-credit-transfers-straks|sepa-credit-transfers|cross-border-credit-transfers",
    "The payment product.",
);
const ALLOW_DUPLICATE: Param = Param::query(
    "allowLogicalDuplicate",
    "boolean",
    "Whether a logical duplicate of an earlier payment is allowed.",
);

/// These routes, each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    fn fee_information_route(op: Operation<'_>) -> Operation<'_> {
        op.tag("PIS")
            .summary("The fee an instant payment would carry")
            .description(
                "The body is the payment's instructedAmount, debtorAccount and creditorAccount.",
            )
            .params(SIGNED)
            .body::<super::request_schema::FeeRequest>(true)
            .answers::<validation::fees::FeeInformation>(200, "The fee")
            .refusals(&[400, 403, 413, 415])
    }
    Routes::new()
        // The bank names this path (without "domestic", docs/reference/payments.md#endpoints-and-products); the
        // spelling with it is accepted too.
        .post(
            "/payments/instant-norwegian-credit-transfers-straks/fee-information",
            fee_information,
            fee_information_route,
        )
        .post(
            "/payments/instant-norwegian-domestic-credit-transfers-straks/fee-information",
            fee_information,
            fee_information_route,
        )
        .post("/{service}/{product}", create, |op| {
            op.tag("PIS")
                .summary("Create a payment")
                .description("The body is one order (single, periodic with its schedule fields) or, for bulk, `debtorAccount` and `payments`. Answers 201 with `scaRedirect`: the PSU approves on the bank's page.")
                .params(&[SERVICE, PRODUCT, ALLOW_DUPLICATE])
                .params(SIGNED)
                .params(SET_B_P)
                .params(PAYMENT)
                .body::<super::request_schema::PaymentRequest>(true)
                .answers::<CreatedPayment>(201, "The payment was created (RCVD)")
                .refusals(&[400, 401, 403, 404, 409, 413, 415])
        })
        .get("/{service}/{product}/{paymentId}", details, |op| {
            op.tag("PIS")
                .summary("A payment as requested, with its status")
                .params(&[SERVICE, PRODUCT])
                .params(SIGNED)
                .answers::<views::PaymentDetails>(200, "The payment")
                .refusals(&[400, 403, 404])
        })
        .delete("/{service}/{product}/{paymentId}", delete, |op| {
            op.tag("PIS")
                .summary("Cancel a payment")
                .description("Only before it is executed (see States and transitions).")
                .params(&[SERVICE, PRODUCT])
                .params(SIGNED)
                .empty(204, "Cancelled (CANC)")
                .refusals(&[400, 403, 404, 409])
        })
        .get("/{service}/{product}/{paymentId}/status", status, |op| {
            op.tag("PIS")
                .summary("The status of a payment")
                .params(&[SERVICE, PRODUCT])
                .params(SIGNED)
                .answers::<views::PaymentStatusBody>(200, "The status")
                .refusals(&[400, 403, 404])
        })
}
