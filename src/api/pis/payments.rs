//! The payment endpoints: `POST /v1/{payments|periodic-payments|bulk-payments}/{product}` to create,
//! `GET …/{paymentId}` and `…/status` to read, `DELETE …/{paymentId}` to cancel,
//! `POST …/{paymentId}/authorisations` to start SCA, and the fee information of instant payments.

use super::caller::{creator, pisp, require_headers, REQUIRED};
use super::views;
use crate::api::error::{ApiError, ApiResult, Code};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use crate::api::sca_trigger::{base_url, header};
use crate::payments::model::{Payment, PaymentProduct, PaymentService};
use crate::payments::status::PaymentStatus;
use crate::payments::{service, validation};
use crate::sca::authorisation::Purpose;
use crate::sca::flow::StartSca;
use crate::sca::payment_flow;
use crate::state::AppState;
use axum::extract::{OriginalUri, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

pub fn router() -> Router<AppState> {
    Router::new()
        // SPEC.md names this path (without "domestic"); the spelling with it is accepted too.
        .route(
            "/payments/instant-norwegian-credit-transfers-straks/fee-information",
            post(fee_information),
        )
        .route(
            "/payments/instant-norwegian-domestic-credit-transfers-straks/fee-information",
            post(fee_information),
        )
        .route("/{service}/{product}", post(create))
        .route(
            "/{service}/{product}/{paymentId}",
            get(details).delete(delete),
        )
        .route("/{service}/{product}/{paymentId}/status", get(status))
        .route(
            "/{service}/{product}/{paymentId}/authorisations",
            post(start_authorisation),
        )
        .route(
            "/{service}/{product}/{paymentId}/authorisations/{authorisationId}",
            get(authorisation_status),
        )
}

/// The service and product of the path, or 404 (PRODUCT_UNKNOWN for an unknown product). The payment
/// routes start with a parameter, so any path of their shape reaches them (`GET /v1/accounts/x/y`); one
/// whose first segment is no payment service has no endpoint, and the answer names it as it was sent.
pub fn service_and_product(
    service: &str,
    product: &str,
    parts: &Parts,
) -> ApiResult<(PaymentService, PaymentProduct)> {
    let service = PaymentService::parse(service).ok_or_else(|| {
        let path = parts
            .extensions
            .get::<OriginalUri>()
            .map(|uri| uri.0.path().to_owned())
            .unwrap_or_else(|| parts.uri.path().to_owned());
        ApiError::no_such_path(parts.method.as_str(), &path)
    })?;
    let product = PaymentProduct::parse(product).ok_or_else(|| {
        ApiError::new(
            Code::ProductUnknown,
            Some("payment-product"),
            format!(
                "Payment product '{product}' is not offered. Products: {}.",
                PaymentProduct::ALL.map(|p| p.path()).join(", ")
            ),
        )
    })?;
    Ok((service, product))
}

/// `allowLogicalDuplicate` from the query string (true or false; anything else is 400).
fn allow_duplicate(parts: &Parts) -> ApiResult<bool> {
    let query = parts.uri.query().unwrap_or("");
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|e| ApiError::format("(query)", format!("the query string is not valid: {e}")))?;
    match pairs
        .iter()
        .find(|(k, _)| k == "allowLogicalDuplicate")
        .map(|(_, v)| v.as_str())
    {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::format(
            "allowLogicalDuplicate",
            format!("allowLogicalDuplicate must be true or false; got '{other}'"),
        )),
    }
}

/// Starts an authorisation approving `payment_ids`; returns the absolute scaRedirect.
pub fn start_payment_sca(
    state: &AppState,
    parts: &Parts,
    tpp: &crate::signing::verifier::VerifiedTpp,
    customer_id: Option<&str>,
    payment_ids: Vec<String>,
    basket_id: Option<String>,
) -> ApiResult<(String, String)> {
    require_headers(parts, &["TPP-Session-ID", "TPP-Redirect-URI"])?;
    let auth = payment_flow::start(
        &state.store,
        StartSca {
            tpp_id: tpp.tpp_id(),
            tpp_name: tpp.tpp_name(),
            tpp_session_id: header(parts, "tpp-session-id")
                .unwrap_or_default()
                .to_owned(),
            redirect_uri: header(parts, "tpp-redirect-uri")
                .unwrap_or_default()
                .to_owned(),
            purpose: Purpose::Payment,
            preset_identity: header(parts, "x-psu-identity").map(str::to_owned),
            preset_customer_id: customer_id.map(str::to_owned),
            preset_agreement_id: None,
            preferred_method: header(parts, "x-psu-authmethod-preferred")
                .and_then(crate::sca::authorisation::AuthMethod::parse),
            biometric_in_app: header(parts, "tpp-redirect-preferred") == Some("false"),
        },
        payment_ids,
        basket_id,
        header(parts, "tpp-brand-logging-information").map(str::to_owned),
        state.clock.now(),
    )?;
    Ok((
        auth.id.clone(),
        format!("{}{}", base_url(parts), auth.page_path()),
    ))
}

async fn create(
    State(state): State<AppState>,
    ApiPath((service, product)): ApiPath<(String, String)>,
    parts: Parts,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (service, product) = service_and_product(&service, &product, &parts)?;
    pisp(&parts)?;
    require_headers(&parts, &REQUIRED)?;
    let allow_logical_duplicate = allow_duplicate(&parts)?;
    let caller = creator(&state, &parts)?;
    let now = state.clock.now();
    let (payment, mut warnings) = validation::validate(service, product, &body, now)?;
    // Unknown fix names are accepted with a WARNING, as on every call that takes x-accept-fix.
    let (_, fix_warnings) =
        crate::api::ais::fixes::AcceptedFixes::from_request(&parts.headers, now);
    warnings.extend(fix_warnings);
    let fee = validation::fees::total(product, &payment.orders);
    let created = service::create(
        &state.store,
        service::CreatePayment {
            tpp_id: caller.tpp_id.clone(),
            customer_id: caller.customer_id.clone(),
            payment,
            allow_logical_duplicate,
            fee,
        },
        now,
    )?;
    let (_, sca_redirect) = start_payment_sca(
        &state,
        &parts,
        &caller.tpp,
        caller.customer_id.as_deref(),
        vec![created.id.clone()],
        None,
    )?;
    state.events.publish(
        "payment.status",
        now,
        json!({"paymentId": created.id, "transactionStatus": "RCVD"}),
    );
    let mut body = json!({
        "paymentId": created.id,
        "transactionStatus": created.status.as_str(),
        "transactionFeeIndicator": created.fee.as_ref().is_some_and(|f| !f.amount.is_zero()),
        "psuMessage": "Approve the payment on the bank's page (scaRedirect).",
        "_links": views::links(&created, Some(sca_redirect)),
    });
    if let Some(fee) = &created.fee {
        body["transactionFees"] = views::money(fee);
    }
    if !warnings.is_empty() {
        body["tppMessages"] = serde_json::to_value(&warnings).expect("messages serialise");
    }
    Ok((StatusCode::CREATED, Json(body)))
}

/// The payment of the path for the calling TPP, with SPEC.md's known issue applied.
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
) -> ApiResult<Json<Value>> {
    let payment = readable_payment(&state, &parts, &service, &product, &id)?;
    Ok(Json(views::details(&payment)))
}

async fn status(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<Json<Value>> {
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
        "payment.status",
        now,
        json!({"paymentId": cancelled.id, "transactionStatus": "CANC"}),
    );
    Ok(StatusCode::NO_CONTENT)
}

async fn start_authorisation(
    State(state): State<AppState>,
    ApiPath((service, product, id)): ApiPath<(String, String, String)>,
    parts: Parts,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (service, product) = service_and_product(&service, &product, &parts)?;
    let tpp = pisp(&parts)?;
    let payment = service::get(&state.store, &tpp.tpp_id(), service, product, &id)?;
    if payment.status != PaymentStatus::RCVD {
        return Err(ApiError::conflict(
            "paymentId",
            format!(
                "The payment is {} already; only a payment not yet authorised can be authorised.",
                payment.status.as_str()
            ),
        ));
    }
    let (authorisation_id, href) = start_payment_sca(
        &state,
        &parts,
        &tpp,
        Some(payment.customer_id.as_str()).filter(|c| !c.is_empty()),
        vec![payment.id.clone()],
        None,
    )?;
    let path = views::payment_path(&payment);
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "scaStatus": "received",
            "authorisationId": authorisation_id,
            "_links": crate::api::links::Links::new()
                .get("scaRedirect", href)
                .get("scaStatus", format!("{path}/authorisations/{authorisation_id}")),
        })),
    ))
}

async fn authorisation_status(
    State(state): State<AppState>,
    ApiPath((service, product, id, authorisation_id)): ApiPath<(String, String, String, String)>,
    parts: Parts,
) -> ApiResult<Json<Value>> {
    let found = service_and_product(&service, &product, &parts);
    if let Err(error) = &found {
        if error.code() == Code::NotFound {
            return Err(error.clone());
        }
    }
    let tpp = pisp(&parts)?;
    let auth = crate::sca::flow::load(&state.store, &authorisation_id)
        .ok()
        .filter(|a| a.tpp_id == tpp.tpp_id() && a.payment_ids.contains(&id))
        .filter(|_| {
            found.as_ref().is_ok_and(|(service, product)| {
                service::get(&state.store, &tpp.tpp_id(), *service, *product, &id).is_ok()
            })
        })
        .ok_or_else(|| {
            ApiError::new(
                Code::ScaNotFound,
                Some("authorisationId"),
                "No such authorisation of this payment.",
            )
        })?;
    Ok(Json(
        json!({"scaStatus": sca_status(&auth, state.clock.now())}),
    ))
}

/// Berlin Group's scaStatus for an authorisation.
pub fn sca_status(
    auth: &crate::sca::authorisation::Authorisation,
    now: time::OffsetDateTime,
) -> &'static str {
    use crate::sca::authorisation::Outcome;
    match auth.outcome {
        Some(Outcome::Succeeded) => "finalised",
        Some(_) => "failed",
        None if auth.is_expired(now) => "failed",
        None if auth.customer_id.is_some() => "psuIdentified",
        None => "received",
    }
}

async fn fee_information(
    State(state): State<AppState>,
    parts: Parts,
    JsonBody(body): JsonBody<Value>,
) -> ApiResult<Json<Value>> {
    pisp(&parts)?;
    Ok(Json(validation::fees::fee_information(
        &body,
        state.clock.now(),
    )?))
}
