//! Signing baskets (docs/reference/payments.md#endpoints-and-products): payments created earlier, signed together
//! with one SCA. Not atomic: each payment goes its own way after signing, and the basket's single status
//! is the worst case over them (`BasketStatus::worst_case`).

use super::model::{Basket, Payment, PaymentService};
use super::status::{BasketStatus, PaymentStatus};
use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::store::Store;
use time::OffsetDateTime;

/// PaymentIds per basket (docs/interface.md#limits).
pub const MAX_PAYMENTS: usize = 10;

/// Creates a basket of this TPP's payments: at most 10, existing, one PSU, none bulk or periodic, none
/// authorised yet or in another basket.
pub fn create(
    store: &Store,
    tpp_id: &str,
    customer_id: &str,
    payment_ids: &[String],
    now: OffsetDateTime,
) -> CoreResult<Basket> {
    if payment_ids.is_empty() {
        return Err(Refusal::format(
            "paymentIds",
            "paymentIds must name at least one payment.",
        ));
    }
    if payment_ids.len() > MAX_PAYMENTS {
        return Err(Refusal::format(
            "paymentIds",
            format!(
                "A basket holds at most {MAX_PAYMENTS} payments; {} were given.",
                payment_ids.len()
            ),
        ));
    }
    // Under the run lock, so that an approval completing meanwhile is not written back as RCVD; the
    // payments and the basket are written together.
    let _runs = store.locks().runs();
    store.atomically(|store| create_in(store, tpp_id, customer_id, payment_ids, now))
}

fn create_in(
    store: &Store,
    tpp_id: &str,
    customer_id: &str,
    payment_ids: &[String],
    now: OffsetDateTime,
) -> CoreResult<Basket> {
    let table = store.table::<Payment>()?;
    let mut payments = Vec::with_capacity(payment_ids.len());
    for (i, id) in payment_ids.iter().enumerate() {
        let path = format!("paymentIds[{i}]");
        if payment_ids[..i].contains(id) {
            return Err(Refusal::format(
                &path,
                format!("Payment {id} is named twice."),
            ));
        }
        let payment = table
            .get(id)?
            .filter(|p| p.tpp_id == tpp_id)
            .ok_or_else(|| Refusal::unknown(&path, "payment of this TPP", id))?;
        if payment.payment.service != PaymentService::Payments {
            return Err(Refusal::new(
                Code::ReferenceMixInvalid,
                Some(&path),
                format!(
                    "Payment {id} is a {} payment; bulk and periodic payments cannot be added to a signing basket.",
                    payment.payment.service.path().trim_end_matches("-payments")
                ),
            ));
        }
        if payment.status != PaymentStatus::RCVD {
            return Err(Refusal::conflict(
                &path,
                format!("Payment {id} is {} already; only payments not yet authorised can be signed in a basket.", payment.status.as_str()),
            ));
        }
        if let Some(other) = &payment.basket_id {
            return Err(Refusal::conflict(
                &path,
                format!("Payment {id} is already in basket {other}."),
            ));
        }
        if payment.customer_id != customer_id {
            return Err(Refusal::forbidden(format!(
                "Payment {id} is another PSU's than the one named by PSU-ID; a basket holds one PSU's payments."
            )));
        }
        payments.push(payment);
    }
    let basket = Basket {
        id: uuid::Uuid::new_v4().to_string(),
        tpp_id: tpp_id.to_owned(),
        customer_id: payments[0].customer_id.clone(),
        payment_ids: payment_ids.to_vec(),
        created_at: now,
        deleted: false,
    };
    for mut payment in payments {
        payment.basket_id = Some(basket.id.clone());
        table.insert(&payment)?;
    }
    store.table::<Basket>()?.insert(&basket)?;
    Ok(basket)
}

/// The basket's status: the worst case over its payments.
pub fn status(store: &Store, basket: &Basket) -> CoreResult<BasketStatus> {
    let table = store.table::<Payment>()?;
    let mut statuses = Vec::with_capacity(basket.payment_ids.len());
    for id in &basket.payment_ids {
        if let Some(payment) = table.get(id)? {
            statuses.push(payment.status);
        }
    }
    Ok(BasketStatus::worst_case(&statuses))
}

/// Deletes a basket whose payments are not authorised yet; the payments stay and may be signed alone.
pub fn delete(store: &Store, basket: Basket) -> CoreResult<()> {
    let _runs = store.locks().runs();
    store.atomically(|store| delete_in(store, basket))
}

fn delete_in(store: &Store, mut basket: Basket) -> CoreResult<()> {
    let table = store.table::<Payment>()?;
    let payments: Vec<Payment> = basket
        .payment_ids
        .iter()
        .filter_map(|id| table.get(id).ok().flatten())
        .collect();
    if payments.iter().any(|p| p.status != PaymentStatus::RCVD) {
        return Err(Refusal::conflict(
            "basketId",
            "Some payments of the basket are authorised or processed already; it can no longer be deleted.",
        ));
    }
    for mut payment in payments {
        payment.basket_id = None;
        table.insert(&payment)?;
    }
    basket.deleted = true;
    store.table::<Basket>()?.insert(&basket)?;
    Ok(())
}
