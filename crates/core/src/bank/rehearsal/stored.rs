//! The rehearsal's records: the profile and the fault plan (with its counters), each under its own key
//! of one configuration tree, which state files carry.

use super::plan::Plan;
use super::Profile;
use crate::domain::refusal::CoreResult;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};

/// One record of the `rehearsal` tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum StoredRehearsal {
    Profile { profile: Profile },
    Plan { plan: Plan },
}

impl Record for StoredRehearsal {
    const TREE: &'static str = "rehearsal";
    fn key(&self) -> String {
        match self {
            StoredRehearsal::Profile { .. } => "profile".into(),
            StoredRehearsal::Plan { .. } => "plan".into(),
        }
    }
}

/// The stored plan (an empty one when none was set).
pub fn load_plan(store: &Store) -> CoreResult<Plan> {
    Ok(match store.table::<StoredRehearsal>()?.get("plan")? {
        Some(StoredRehearsal::Plan { plan }) => plan,
        _ => Plan::default(),
    })
}

/// Stores the plan with its counters.
pub fn save_plan(store: &Store, plan: &Plan) -> CoreResult<()> {
    store
        .table::<StoredRehearsal>()?
        .insert(&StoredRehearsal::Plan { plan: plan.clone() })?;
    Ok(())
}
