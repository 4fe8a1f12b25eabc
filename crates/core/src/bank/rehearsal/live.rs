//! What the running service holds of the rehearsal: the profile and whether a plan is active as atomics
//! (read on every request), and the plan itself behind a lock, all written through to the store first.
//! Imports of a state file reload them (`state_file::live`).

use super::evaluate::{self, Call, Decision};
use super::plan::{FixDefault, Plan};
use super::profile::{self, Profile};
use super::stored;
use crate::domain::refusal::CoreResult;
use crate::store::Store;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};
use time::OffsetDateTime;

/// The rehearsal state of a running service.
#[derive(Debug, Default)]
pub struct Rehearsal {
    production: AtomicBool,
    /// Whether the plan has an enabled rule: the one load the hot path pays without a plan.
    plan_active: AtomicBool,
    plan: Mutex<Plan>,
    /// The plan's fix defaults, apart from the plan so that reading them (every account information
    /// request, when there are any) takes no lock shared with the plan's counters.
    has_fix_defaults: AtomicBool,
    fix_defaults: RwLock<Vec<FixDefault>>,
    /// The simulated central register.
    pub register: super::register::Register,
}

impl Rehearsal {
    /// The state as stored.
    pub fn load(store: &Store) -> CoreResult<Rehearsal> {
        let rehearsal = Rehearsal::default();
        rehearsal.reload(store)?;
        Ok(rehearsal)
    }

    /// Brings the in-memory state in line with the store (after an import).
    pub fn reload(&self, store: &Store) -> CoreResult<()> {
        let profile = profile::load(store)?;
        self.production
            .store(profile == Profile::Production, Ordering::Release);
        self.register.reload();
        let plan = stored::load_plan(store)?;
        let mut held = self.lock();
        self.publish(&plan);
        *held = plan;
        Ok(())
    }

    pub fn profile(&self) -> Profile {
        if self.production.load(Ordering::Acquire) {
            Profile::Production
        } else {
            Profile::Sandbox
        }
    }

    /// Stores the profile, then switches to it: durable before anyone sees it.
    pub fn set_profile(&self, store: &Store, profile: Profile) -> CoreResult<()> {
        profile::save(store, profile)?;
        self.production
            .store(profile == Profile::Production, Ordering::Release);
        Ok(())
    }

    pub fn plan_active(&self) -> bool {
        self.plan_active.load(Ordering::Acquire)
    }

    /// The plan with its counters.
    pub fn plan(&self) -> Plan {
        self.lock().clone()
    }

    /// Changes the plan as `change` says, validated and stored before it takes effect; a refused change
    /// leaves the plan as it was.
    pub fn update_plan<T>(
        &self,
        store: &Store,
        change: impl FnOnce(&mut Plan) -> CoreResult<T>,
    ) -> CoreResult<(Plan, T)> {
        let mut held = self.lock();
        let mut plan = held.clone();
        let out = change(&mut plan)?;
        plan.validate()?;
        stored::save_plan(store, &plan)?;
        self.publish(&plan);
        *held = plan.clone();
        Ok((plan, out))
    }

    /// Asks the plan about one request. Its counters and generator move on, stored before the answer.
    pub fn decide(&self, store: &Store, call: &Call) -> CoreResult<Option<Decision>> {
        let mut held = self.lock();
        let mut plan = held.clone();
        let decision = evaluate::decide(&mut plan, call);
        if plan != *held {
            stored::save_plan(store, &plan)?;
            *held = plan;
        }
        Ok(decision)
    }

    /// The day `fix` (a published name) becomes the default: the plan's date when it names the fix,
    /// else `spec_default` (the bank's date).
    pub fn fix_made_default(&self, fix: &str, spec_default: OffsetDateTime) -> OffsetDateTime {
        if !self.has_fix_defaults.load(Ordering::Acquire) {
            return spec_default;
        }
        let defaults = self.fix_defaults.read().unwrap_or_else(|p| p.into_inner());
        defaults
            .iter()
            .find(|d| d.fix.eq_ignore_ascii_case(fix))
            .map_or(spec_default, |d| d.from)
    }

    /// What the request paths read without the plan's lock: whether a rule is on, the fix defaults.
    fn publish(&self, plan: &Plan) {
        self.plan_active.store(plan.is_active(), Ordering::Release);
        *self.fix_defaults.write().unwrap_or_else(|p| p.into_inner()) = plan.fix_defaults.clone();
        self.has_fix_defaults
            .store(!plan.fix_defaults.is_empty(), Ordering::Release);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Plan> {
        self.plan.lock().unwrap_or_else(|p| p.into_inner())
    }
}
