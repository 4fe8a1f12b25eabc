//! The fault plan's resource effects on the bank interface (docs/rehearsal.md): the request's consent
//! revoked or expired before it is served, the payment or basket it creates or names set to be rejected
//! by the next batch run. The changes are the core's (`fault_effects::resources`); this finds the resource in
//! the request (its PSU-ID, its path) or in the answer of a basket's creation (`basketId`). A payment's
//! creation is marked instead ([`RejectCreatedPayment`]) and stores the payment rejected in its one write.

use crate::api::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::bank::fault_effects::resources as bank_side;
use xs2a_core::bank::rehearsal::plan::Effect;
use xs2a_core::signing::verifier::VerifiedTpp;
use xs2a_workbench::app_state::AppState;

/// The most of a creation's answer read to find the new resource's id.
const MAX_CREATED_BODY: usize = 1 << 20;

/// Marks a payment's creation the fault plan rejects: the creation stores the payment already set to be
/// rejected, in its one write (`payment_initiation`), instead of this layer writing it again afterwards.
#[derive(Debug, Clone, Copy)]
pub struct RejectCreatedPayment;

/// Applies a resource effect around the request.
pub async fn apply(
    state: &AppState,
    effect: &Effect,
    mut request: Request,
    next: Next,
) -> Response {
    let Some(tpp_id) = request
        .extensions()
        .get::<VerifiedTpp>()
        .map(|v| v.tpp_id())
    else {
        return next.run(request).await;
    };
    let path = super::request_facts::sent_path(&request);
    let psu_id = super::request_facts::psu_id(&request);
    let now = state.clock.now();
    let store = &state.store;
    let before = match (effect, psu_id.as_deref()) {
        (Effect::ConsentRevoked, Some(psu)) => {
            bank_side::revoke_consent(store, &tpp_id, psu).map(drop)
        }
        (Effect::ConsentExpired, Some(psu)) => {
            bank_side::expire_consent(store, &tpp_id, psu, now).map(drop)
        }
        _ => Ok(()),
    };
    if let Err(refusal) = before {
        return ApiError::from(refusal).into_response();
    }
    let target = named_resource(&path);
    let creates = request.method() == Method::POST && target.is_none();
    if creates && matches!(effect, Effect::PaymentRejected) {
        // Only a payment's creation reads the mark; any other creation has no payment to reject.
        request.extensions_mut().insert(RejectCreatedPayment);
        return next.run(request).await;
    }
    let response = next.run(request).await;
    let (kind, id, response) = match (effect, target) {
        (Effect::PaymentRejected, Some(Named::Payment(id))) => ("paymentId", id, response),
        (Effect::BasketPartlyRejected { .. }, Some(Named::Basket(id))) => {
            ("basketId", id, response)
        }
        (Effect::BasketPartlyRejected { .. }, None) if creates => {
            match created_id(response, "basketId").await {
                (Some(id), response) => ("basketId", id, response),
                (None, response) => return response,
            }
        }
        _ => return response,
    };
    let changed = match effect {
        Effect::PaymentRejected if kind == "paymentId" => {
            bank_side::reject_payment(store, &tpp_id, &id).map(drop)
        }
        Effect::BasketPartlyRejected { rejected } if kind == "basketId" => {
            bank_side::partly_reject_basket(store, &tpp_id, &id, *rejected).map(drop)
        }
        _ => Ok(()),
    };
    match changed {
        Ok(()) => response,
        Err(refusal) => ApiError::from(refusal).into_response(),
    }
}

/// A payment or basket named by a request's path.
enum Named {
    Payment(String),
    Basket(String),
}

/// `/v1/{payments|bulk-payments|periodic-payments}/{product}/{paymentId}…` or
/// `/v1/signing-baskets/{basketId}…` (also under `/api-sandbox`).
fn named_resource(path: &str) -> Option<Named> {
    let rest = path
        .strip_prefix(crate::api::PLATFORM_PREFIX)
        .or_else(|| path.strip_prefix("/v1"))?;
    let parts: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match parts.as_slice() {
        ["signing-baskets", id, ..] => Some(Named::Basket((*id).to_owned())),
        [service, _product, id, ..]
            if matches!(*service, "payments" | "bulk-payments" | "periodic-payments") =>
        {
            Some(Named::Payment((*id).to_owned()))
        }
        _ => None,
    }
}

/// The id a 201 answer gives its new resource in `field`, and the answer, whole again.
async fn created_id(response: Response, field: &str) -> (Option<String>, Response) {
    if response.status() != axum::http::StatusCode::CREATED {
        return (None, response);
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_CREATED_BODY).await else {
        return (
            None,
            ApiError::from(bank_side::creation_answer_unreadable()).into_response(),
        );
    };
    let id = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v[field].as_str().map(str::to_owned));
    (id, Response::from_parts(parts, Body::from(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_names_the_payment_or_basket() {
        assert!(matches!(
            named_resource("/v1/payments/sepa-credit-transfers/p1/status"),
            Some(Named::Payment(id)) if id == "p1"
        ));
        assert!(matches!(
            named_resource("/api-sandbox/v1/signing-baskets/b1"),
            Some(Named::Basket(id)) if id == "b1"
        ));
        assert!(named_resource("/v1/payments/sepa-credit-transfers").is_none());
        assert!(named_resource("/v1/accounts/a/balances").is_none());
    }
}
