//! Evaluating a fault plan for one request, deterministically: the rules are tried in order, each
//! counting the requests it matched; `every` counts, `probability` and jitter draw from the plan's own
//! seeded generator (splitmix64), whose state is stored with the plan. Same plan, same requests, same
//! decisions — in `serve --fixture` and in `replay`.

use super::plan::{Effect, Interface, Plan, Rule};
use time::OffsetDateTime;

/// What a rule is matched against.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub interface: Interface,
    pub method: &'a str,
    pub path: &'a str,
    /// The operationId of `/openapi.json` the request is an operation of, if any.
    pub operation: Option<&'a str>,
    /// The TPP's organisation identifier, when the gate identified one.
    pub tpp: Option<&'a str>,
    pub psu: Option<&'a str>,
    /// The sandbox clock's time.
    pub now: OffsetDateTime,
}

/// A rule that fired: its effect, with the jitter already drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub rule: String,
    pub effect: Effect,
    /// For latency: the whole delay, fixed plus the drawn jitter.
    pub delay_ms: u64,
}

impl Decision {
    /// The marker the traffic log carries, so that nobody mistakes the effect for a bug:
    /// `injected: 503 maintenance until 02:30 (rule nightly)`.
    pub fn marker(&self) -> String {
        let what = match &self.effect {
            Effect::Latency { .. } => format!("latency {} ms", self.delay_ms),
            Effect::RateLimited {
                retry_after_seconds,
            } => format!("429 rate limited, retry after {retry_after_seconds} s"),
            Effect::ServerError => "500 server error".to_owned(),
            Effect::Maintenance { until } => format!(
                "503 maintenance until {:02}:{:02}",
                until.hour(),
                until.minute()
            ),
            Effect::ConnectionReset => "connection reset".to_owned(),
            Effect::NoAnswer { hold_seconds } => {
                format!("no answer (connection closed after {hold_seconds} s)")
            }
            Effect::ConsentRevoked => "consent revoked by the PSU at the bank".to_owned(),
            Effect::ConsentExpired => "consent expired (SCA older than 180 days)".to_owned(),
            Effect::PaymentRejected => "payment rejected by the next batch run".to_owned(),
            Effect::BasketPartlyRejected { rejected } => {
                format!("basket partly rejected ({rejected} payment(s) by the next batch run)")
            }
            Effect::ScaCancelled => "the PSU cancelled the authorisation".to_owned(),
            Effect::ScaExpired => "the authorisation expired on the page".to_owned(),
            Effect::ScaOtherAccounts => "the PSU ticked other accounts".to_owned(),
            Effect::ScaOtherContext => "the PSU picked the other context".to_owned(),
        };
        format!("injected: {what} (rule {})", self.rule)
    }
}

/// The next number of the plan's generator.
fn draw(plan: &mut Plan) -> u64 {
    let state = plan
        .rng_state
        .unwrap_or(plan.seed)
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    plan.rng_state = Some(state);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A draw in [0, 1).
fn unit(plan: &mut Plan) -> f64 {
    (draw(plan) >> 11) as f64 / (1u64 << 53) as f64
}

/// `*` stands for any characters (none included).
pub fn pattern_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the effect can act on this request: its interface, and for a form the SCA pages rewrite, the
/// form's own step (so that the page views before it do not use up `every` or the draws).
fn fits(effect: &Effect, call: &Call) -> bool {
    let step = |name: &str| call.method == "POST" && call.path.ends_with(name);
    effect.acts_on(call.interface)
        && match effect {
            Effect::ScaOtherAccounts => step("/consent"),
            Effect::ScaOtherContext => step("/context"),
            _ => true,
        }
}

fn conditions_hold(rule: &Rule, call: &Call) -> bool {
    let m = &rule.matches;
    fits(&rule.effect, call)
        && m.path
            .as_deref()
            .is_none_or(|p| pattern_matches(p, call.path))
        && m.operation
            .as_deref()
            .is_none_or(|o| call.operation == Some(o))
        && m.method.as_deref().is_none_or(|x| x == call.method)
        && m.tpp.as_deref().is_none_or(|t| call.tpp == Some(t))
        && m.psu.as_deref().is_none_or(|p| call.psu == Some(p))
        && m.from.is_none_or(|from| call.now >= from)
        && m.until.is_none_or(|until| call.now < until)
}

/// Tries the enabled rules in order and applies the first that fires, counting as it goes. `None`:
/// the request is served as usual.
pub fn decide(plan: &mut Plan, call: &Call) -> Option<Decision> {
    for i in 0..plan.rules.len() {
        if !plan.rules[i].enabled || !conditions_hold(&plan.rules[i], call) {
            continue;
        }
        plan.rules[i].matched += 1;
        let rule = &plan.rules[i];
        let mut fires = rule
            .matches
            .every
            .is_none_or(|n| rule.matched.is_multiple_of(n));
        if let Some(p) = rule.matches.probability {
            // Drawn on every match, fired or not, so that one rule's decisions do not depend on
            // whether `every` let it through.
            fires &= unit(plan) < p;
        }
        if !fires {
            continue;
        }
        let delay_ms = match plan.rules[i].effect {
            Effect::Latency {
                fixed_ms,
                jitter_ms,
            } => {
                fixed_ms
                    + if jitter_ms > 0 {
                        draw(plan) % (jitter_ms + 1)
                    } else {
                        0
                    }
            }
            _ => 0,
        };
        let rule = &mut plan.rules[i];
        rule.fired += 1;
        return Some(Decision {
            rule: rule.id.clone(),
            effect: rule.effect.clone(),
            delay_ms,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::rehearsal::plan::Match;

    fn rule(id: &str, matches: Match) -> Rule {
        Rule {
            id: id.into(),
            enabled: true,
            matches,
            effect: Effect::ServerError,
            matched: 0,
            fired: 0,
        }
    }

    fn call(path: &str) -> Call<'_> {
        Call {
            interface: Interface::Bank,
            method: "GET",
            path,
            operation: None,
            tpp: Some("PSDNO-FSA-1"),
            psu: None,
            now: time::macros::datetime!(2026-03-02 10:00 UTC),
        }
    }

    #[test]
    fn patterns() {
        assert!(pattern_matches("/v1/accounts*", "/v1/accounts/1/balances"));
        assert!(pattern_matches("*/balances", "/v1/accounts/1/balances"));
        assert!(pattern_matches("/v1/*/balances", "/v1/accounts/1/balances"));
        assert!(!pattern_matches("/v1/payments*", "/v1/accounts"));
        assert!(pattern_matches("/v1/accounts", "/v1/accounts"));
        assert!(!pattern_matches("/v1/accounts", "/v1/accounts/1"));
        assert!(!pattern_matches("/a*a", "/a"));
    }

    #[test]
    fn every_third_call_fires() {
        let mut plan = Plan {
            seed: 1,
            rng_state: None,
            fix_defaults: Vec::new(),
            rules: vec![rule(
                "third",
                Match {
                    every: Some(3),
                    ..Default::default()
                },
            )],
        };
        let fired: Vec<bool> = (0..6)
            .map(|_| decide(&mut plan, &call("/v1/accounts")).is_some())
            .collect();
        assert_eq!(fired, [false, false, true, false, false, true]);
        assert_eq!((plan.rules[0].matched, plan.rules[0].fired), (6, 2));
    }

    #[test]
    fn a_probability_is_reproducible_from_its_seed() {
        let plan = || Plan {
            seed: 42,
            rng_state: None,
            fix_defaults: Vec::new(),
            rules: vec![rule(
                "half",
                Match {
                    probability: Some(0.5),
                    ..Default::default()
                },
            )],
        };
        let run = |mut plan: Plan| -> Vec<bool> {
            (0..64)
                .map(|_| decide(&mut plan, &call("/v1/accounts")).is_some())
                .collect()
        };
        let first = run(plan());
        assert_eq!(first, run(plan()));
        let fired = first.iter().filter(|f| **f).count();
        assert!((16..=48).contains(&fired), "{fired} of 64");
        let mut other = plan();
        other.seed = 43;
        assert_ne!(first, run(other));
    }

    #[test]
    fn conditions_and_windows_select_requests() {
        let mut plan = Plan {
            seed: 0,
            rng_state: None,
            fix_defaults: Vec::new(),
            rules: vec![rule(
                "w",
                Match {
                    path: Some("/v1/payments*".into()),
                    tpp: Some("PSDNO-FSA-1".into()),
                    until: Some(time::macros::datetime!(2026-03-02 11:00 UTC)),
                    ..Default::default()
                },
            )],
        };
        assert!(decide(&mut plan, &call("/v1/accounts")).is_none());
        assert!(decide(&mut plan, &call("/v1/payments/x")).is_some());
        let mut late = call("/v1/payments/x");
        late.now = time::macros::datetime!(2026-03-02 11:00 UTC);
        assert!(decide(&mut plan, &late).is_none());
        plan.rules[0].enabled = false;
        assert!(decide(&mut plan, &call("/v1/payments/x")).is_none());
    }

    #[test]
    fn an_operation_id_selects_its_requests_and_effects_their_interface() {
        let mut plan = Plan {
            rules: vec![
                rule(
                    "op",
                    Match {
                        operation: Some("get_v1_accounts".into()),
                        ..Default::default()
                    },
                ),
                Rule {
                    effect: Effect::ScaCancelled,
                    ..rule("cancel", Match::default())
                },
            ],
            ..Plan::default()
        };
        let mut accounts = call("/v1/accounts");
        accounts.operation = Some("get_v1_accounts");
        assert_eq!(decide(&mut plan, &accounts).unwrap().rule, "op");
        let mut other = call("/v1/accounts/1");
        other.operation = Some("get_v1_accounts_accountId");
        assert!(decide(&mut plan, &other).is_none());
        let mut page = call("/sca/x/identify");
        page.interface = Interface::ScaPages;
        assert_eq!(decide(&mut plan, &page).unwrap().rule, "cancel");
        assert_eq!(
            plan.rules[0].matched, 1,
            "a bank effect is not asked on the SCA pages"
        );
    }

    #[test]
    fn the_marker_names_the_maintenance_end() {
        let decision = Decision {
            rule: "nightly".into(),
            effect: Effect::Maintenance {
                until: time::macros::datetime!(2026-03-03 02:30 UTC),
            },
            delay_ms: 0,
        };
        assert_eq!(
            decision.marker(),
            "injected: 503 maintenance until 02:30 (rule nightly)"
        );
    }
}
