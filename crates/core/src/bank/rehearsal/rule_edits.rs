//! One rule of the fault plan added, switched on or off, or removed (the workbench's faults routes,
//! docs/workbench-api.md#production-rehearsal-profile-and-fault-plan): each a change for
//! `Rehearsal::update_plan`, which validates and stores the plan before it takes effect.

use super::plan::{Plan, Rule};
use crate::domain::refusal::{CoreResult, Refusal};

impl Plan {
    /// The rule at the end of the plan; 409 CONFLICT at `id` when the plan has a rule with its id.
    pub fn add_rule(&mut self, rule: Rule) -> CoreResult<()> {
        if self.rules.iter().any(|r| r.id == rule.id) {
            return Err(Refusal::conflict(
                "id",
                format!("the plan already has a rule '{}'", rule.id),
            ));
        }
        self.rules.push(rule);
        Ok(())
    }

    /// The rule `id` switched on or off; 404 RESOURCE_UNKNOWN at `id` when the plan has no such rule.
    pub fn switch_rule(&mut self, id: &str, enabled: bool) -> CoreResult<()> {
        let rule = self
            .rules
            .iter_mut()
            .find(|r| r.id == id)
            .ok_or_else(|| Refusal::unknown("id", "rule", id))?;
        rule.enabled = enabled;
        Ok(())
    }

    /// The rule `id` removed; 404 RESOURCE_UNKNOWN at `id` when the plan has no such rule.
    pub fn remove_rule(&mut self, id: &str) -> CoreResult<()> {
        let at = self
            .rules
            .iter()
            .position(|r| r.id == id)
            .ok_or_else(|| Refusal::unknown("id", "rule", id))?;
        self.rules.remove(at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::rehearsal::plan::Effect;

    fn rule(id: &str) -> Rule {
        Rule {
            id: id.into(),
            enabled: true,
            matches: Default::default(),
            effect: Effect::ServerError,
            matched: 0,
            fired: 0,
        }
    }

    fn refused(result: CoreResult<()>) -> (u16, &'static str, Option<String>) {
        let refusal = result.unwrap_err();
        (refusal.status(), refusal.code.as_str(), refusal.path)
    }

    #[test]
    fn a_rule_is_added_once_switched_and_removed_by_its_id() {
        let mut plan = Plan::default();
        plan.add_rule(rule("a")).unwrap();
        plan.add_rule(rule("b")).unwrap();
        assert_eq!(
            refused(plan.add_rule(rule("a"))),
            (409, "CONFLICT", Some("id".to_owned()))
        );
        assert_eq!(plan.rules.len(), 2);
        plan.switch_rule("a", false).unwrap();
        assert!(!plan.rules[0].enabled && plan.rules[1].enabled);
        plan.remove_rule("a").unwrap();
        assert_eq!(plan.rules.len(), 1);
        assert_eq!(plan.rules[0].id, "b");
        let unknown = (404, "RESOURCE_UNKNOWN", Some("id".to_owned()));
        assert_eq!(refused(plan.switch_rule("a", true)), unknown);
        assert_eq!(refused(plan.remove_rule("a")), unknown);
    }
}
