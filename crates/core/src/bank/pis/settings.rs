//! Sandbox switches that testers flip at runtime — the bank's known issues
//! (docs/interface.md#known-issues-reproduced), reproduced by default as the bank behaves — stored like everything
//! else so they survive a restart. (They began with payments, hence the module's home; the account-information one
//! sits beside them so one `PUT /v1/sandbox/settings` holds them all.)

use crate::domain::refusal::CoreResult;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};

/// The switches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PaymentSettings {
    /// The bank's known issue (docs/interface.md#known-issues-reproduced): the details and status of a
    /// domestic Norwegian credit transfer cannot be fetched before it is approved. Reproduced by default, as
    /// the bank behaves.
    #[serde(default = "yes")]
    pub reproduce_domestic_read_before_approval_issue: bool,
    /// The bank's known issue (docs/interface.md#known-issues-reproduced): GET
    /// /v1/accounts/{id}/transactions with bookingStatus both or pending always returns all pending
    /// transactions; the date filters and limit do not filter them.
    #[serde(default = "yes")]
    pub reproduce_pending_transactions_issue: bool,
}

fn yes() -> bool {
    true
}

impl Default for PaymentSettings {
    fn default() -> Self {
        PaymentSettings {
            reproduce_domestic_read_before_approval_issue: true,
            reproduce_pending_transactions_issue: true,
        }
    }
}

/// The stored switches, under one key (crate-visible for the state file, `crate::state_file`).
#[derive(Serialize, Deserialize)]
pub struct Stored(pub(crate) PaymentSettings);

impl Record for Stored {
    const TREE: &'static str = "settings";
    fn key(&self) -> String {
        "payments".into()
    }
}

/// The current settings.
pub fn get(store: &Store) -> CoreResult<PaymentSettings> {
    Ok(store
        .table::<Stored>()?
        .get("payments")?
        .map(|s| s.0)
        .unwrap_or_default())
}

/// The switches in force: as stored under the sandbox profile; under the production profile every known
/// issue is on, as the bank's production has them, whatever the stored switches say.
pub fn in_effect(store: &Store) -> CoreResult<PaymentSettings> {
    match crate::bank::rehearsal::profile::load(store)? {
        crate::bank::rehearsal::Profile::Production => Ok(PaymentSettings {
            reproduce_domestic_read_before_approval_issue: true,
            reproduce_pending_transactions_issue: true,
        }),
        crate::bank::rehearsal::Profile::Sandbox => get(store),
    }
}

/// Replaces the settings.
pub fn put(store: &Store, settings: PaymentSettings) -> CoreResult<PaymentSettings> {
    store.table::<Stored>()?.insert(&Stored(settings.clone()))?;
    Ok(settings)
}
