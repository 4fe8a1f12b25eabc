//! The fault plan's effects on the SCA pages (docs/rehearsal.md): what the PSU does instead of what the
//! TPP's test expected — cancel, let the authorisation expire on the page, tick other accounts, pick the
//! other context. Each goes through the SCA engine (`crate::bank::sca::engine`), so the TPP gets back exactly the
//! redirect and the consent those choices give.

use crate::bank::sca::authorisation::{Authorisation, LIFETIME};
use crate::bank::sca::engine::{self, StepError};
use crate::bank::sca::Context;
use crate::domain::refusal::CoreResult;
use crate::store::Store;
use time::OffsetDateTime;

/// The PSU cancels: the authorisation ends and the PSU is sent back to the TPP with the failure
/// parameters (SCA_INVALID, or SCA_EXPIRED when it had expired).
pub fn cancel(store: &Store, id: &str, now: OffsetDateTime) -> Result<Authorisation, StepError> {
    engine::cancel(store, id, now)
}

/// The authorisation expires while the PSU is on the page: it started exactly its lifetime ago, so the
/// step the PSU takes now finds it expired. An ended one is left as it is.
pub fn expire(store: &Store, id: &str, now: OffsetDateTime) -> Result<(), StepError> {
    let _runs = store.locks().runs();
    let mut auth = engine::load(store, id)?;
    if auth.outcome.is_some() || auth.is_expired(now) {
        return Ok(());
    }
    auth.created_at = now - LIFETIME;
    store.table::<Authorisation>()?.insert(&auth)?;
    Ok(())
}

/// The accounts the PSU ticks instead of `ticked`: those offered and left unticked, or, when every one
/// was ticked, only the first offered (none when only one was offered).
pub fn other_accounts(
    store: &Store,
    auth: &Authorisation,
    ticked: &[String],
) -> CoreResult<Vec<String>> {
    let offered = engine::consent_choices(store, auth)?;
    let unticked: Vec<String> = offered
        .iter()
        .filter(|c| !ticked.contains(&c.id))
        .map(|c| c.id.clone())
        .collect();
    Ok(match (unticked.is_empty(), offered.len()) {
        (false, _) => unticked,
        (true, n) if n > 1 => vec![offered[0].id.clone()],
        _ => Vec::new(),
    })
}

/// The context the PSU picks instead of `chosen`: private for corporate; for private, corporate under
/// the PSU's first agreement, or private still when they have none (there is no other context).
pub fn other_context(
    store: &Store,
    auth: &Authorisation,
    chosen: Context,
) -> CoreResult<(Context, Option<String>)> {
    if chosen == Context::Corporate {
        return Ok((Context::Private, None));
    }
    let customer_id = auth.customer_id.as_deref().unwrap_or_default();
    Ok(
        match engine::agreement_choices(store, customer_id)?.first() {
            Some(agreement) => (Context::Corporate, Some(agreement.id.clone())),
            None => (Context::Private, None),
        },
    )
}
