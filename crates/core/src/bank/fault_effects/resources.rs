//! The fault plan's effects on resources (docs/rehearsal.md): what the bank's side does to a consent, a
//! payment or a basket when a rule fires. Each changes the stored resource through the sandbox's own
//! rules — a consent revoked as the PSU revokes it at the bank, one aged past its 180-day renewal, the
//! forced outcome RJCT the batch run already honours — so the answers the TPP then gets are the ones
//! those states get, not answers made up for the rehearsal.

use crate::bank::consent::{self, Consent, SCA_RENEWAL};
use crate::bank::pis::model::{Basket, ForcedOutcome, Payment};
use crate::bank::sca::psu;
use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::Store;
use time::OffsetDateTime;

/// The answer when a creation's own answer could not be read back to find the resource an effect acts on
/// (a basket's id): SYSTEM_ERROR, since the creation went through but the TPP cannot be shown its answer.
pub fn creation_answer_unreadable() -> Refusal {
    Refusal::new(
        crate::domain::refusal::Code::SystemError,
        None,
        "The answer could not be read.",
    )
}

/// The PSU revokes at the bank every consent they gave this TPP (every context). Returns how many
/// consents went; none when the PSU-ID is not one of this TPP's.
pub fn revoke_consent(store: &Store, tpp_id: &str, psu_id: &str) -> CoreResult<usize> {
    let Some(customer_id) = psu::customer_of(store, tpp_id, psu_id)? else {
        return Ok(0);
    };
    consent::revoke(store, Some(tpp_id), &customer_id, None)
}

/// The SCA behind every consent of this PSU at this TPP becomes exactly as old as the renewal period
/// allows, so the next account information request finds it expired. Returns how many consents aged.
pub fn expire_consent(
    store: &Store,
    tpp_id: &str,
    psu_id: &str,
    now: OffsetDateTime,
) -> CoreResult<usize> {
    let Some(customer_id) = psu::customer_of(store, tpp_id, psu_id)? else {
        return Ok(0);
    };
    store.atomically(|store| {
        let table = store.table::<Consent>()?;
        let mut aged = 0;
        for mut consent in consent::of_customer(store, &customer_id)? {
            if consent.tpp_id != tpp_id || consent.needs_renewal(now) {
                continue;
            }
            consent.sca_at = now - SCA_RENEWAL;
            table.insert(&consent)?;
            aged += 1;
        }
        Ok(aged)
    })
}

/// The next batch run rejects this TPP's payment (the forced outcome RJCT). False when the TPP has no
/// such payment.
pub fn reject_payment(store: &Store, tpp_id: &str, payment_id: &str) -> CoreResult<bool> {
    // Under the run lock, as every forced outcome is set, so that a run does not write the payment back.
    let _runs = store.locks().runs();
    force_rejected(store, tpp_id, payment_id)
}

fn force_rejected(store: &Store, tpp_id: &str, payment_id: &str) -> CoreResult<bool> {
    let table = store.table::<Payment>()?;
    let Some(mut payment) = table.get(payment_id)?.filter(|p| p.tpp_id == tpp_id) else {
        return Ok(false);
    };
    if payment.forced != Some(ForcedOutcome::Rejected) {
        payment.forced = Some(ForcedOutcome::Rejected);
        table.insert(&payment)?;
    }
    Ok(true)
}

/// The next batch run rejects the last `rejected` payments of this TPP's basket, keeping at least its
/// first: the basket is partly rejected. Returns the payments rejected (none when the TPP has no such
/// basket, or it holds one payment).
pub fn partly_reject_basket(
    store: &Store,
    tpp_id: &str,
    basket_id: &str,
    rejected: u64,
) -> CoreResult<Vec<String>> {
    let Some(basket) = store
        .table::<Basket>()?
        .get(basket_id)?
        .filter(|b| b.tpp_id == tpp_id && !b.deleted)
    else {
        return Ok(Vec::new());
    };
    let count = usize::try_from(rejected)
        .unwrap_or(usize::MAX)
        .min(basket.payment_ids.len().saturating_sub(1));
    let chosen: Vec<String> = basket.payment_ids[basket.payment_ids.len() - count..].to_vec();
    let _runs = store.locks().runs();
    store.atomically(|store| {
        for id in &chosen {
            if !force_rejected(store, tpp_id, id)? {
                return Err(Refusal::unknown("paymentIds", "payment", id));
            }
        }
        Ok(())
    })?;
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_creation_answer_is_a_system_error() {
        let refusal = creation_answer_unreadable();
        assert_eq!(
            (refusal.status(), refusal.code.as_str()),
            (500, "SYSTEM_ERROR")
        );
        assert_eq!(refusal.text, "The answer could not be read.");
    }

    #[test]
    fn a_basket_of_one_is_not_partly_rejected_and_an_unknown_one_is_left_alone() {
        let store = Store::temporary().unwrap();
        assert!(partly_reject_basket(&store, "T", "nope", 1)
            .unwrap()
            .is_empty());
        store
            .table::<Basket>()
            .unwrap()
            .insert(&Basket {
                id: "b".into(),
                tpp_id: "T".into(),
                customer_id: "c".into(),
                payment_ids: vec!["p1".into()],
                created_at: OffsetDateTime::UNIX_EPOCH,
                deleted: false,
            })
            .unwrap();
        assert!(partly_reject_basket(&store, "T", "b", 3)
            .unwrap()
            .is_empty());
        assert!(partly_reject_basket(&store, "other", "b", 1)
            .unwrap()
            .is_empty());
    }
}
