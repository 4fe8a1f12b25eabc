//! The fault plan's format (docs/rehearsal.md, fixtures/schema/fault-plan.schema.json): rules, each
//! matching requests and naming an effect, with the counters and the seeded generator that make its
//! evaluation ([`super::evaluate`]) deterministic. The plan is stored whole with its counters, so a state
//! file carries it and `serve --fixture` or `replay` reproduce every decision.

use crate::domain::refusal::Refusal;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// The longest a "never answered" request is held before the connection is closed, so that a client
/// without a timeout does not keep a server task forever.
pub const MAX_HOLD_SECONDS: u64 = 600;
/// The most rules a plan holds.
pub const MAX_RULES: usize = 200;

/// A fault plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Plan {
    /// Seeds the generator behind `probability`; the same seed gives the same decisions.
    #[serde(default)]
    pub seed: u64,
    /// The generator's state, advanced by every draw (absent: the seed). Stored with the plan so that
    /// a restart or a state file continues the same sequence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rng_state: Option<u64>,
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// Fixes that become the default on a date of the sandbox clock (the day a breaking change lands),
    /// in place of the date the bank's documentation gives them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fix_defaults: Vec<FixDefault>,
}

/// An `x-accept-fix` made the default from `from` (sandbox clock): before it the fix applies only to a
/// request that names it, from it to every request, as if the header were sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixDefault {
    /// A published fix name (docs/interface.md#payments), as in the header.
    pub fix: String,
    #[serde(with = "time::serde::rfc3339")]
    pub from: OffsetDateTime,
}

/// One rule: when it matches, its effect is applied (the first enabled rule that fires wins).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rule {
    /// Unique within the plan: letters, digits, `-` and `_`.
    pub id: String,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default, rename = "match")]
    pub matches: Match,
    pub effect: Effect,
    /// How many requests matched (what `every` counts).
    #[serde(default)]
    pub matched: u64,
    /// How many times the effect was applied.
    #[serde(default)]
    pub fired: u64,
}

fn yes() -> bool {
    true
}

/// Which requests a rule applies to; every condition given must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Match {
    /// A path pattern as sent (`/v1/accounts*`, `*/transactions`): `*` stands for any characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// An operation of the bank interface by its operationId in `/openapi.json`
    /// (`get_v1_accounts_accountId_balances`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// An HTTP method (`GET`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The TPP's organisation identifier (its certificate's organizationIdentifier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpp: Option<String>,
    /// The PSU-ID header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psu: Option<String>,
    /// Fire on every n-th matching request (1: every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<u64>,
    /// Fire with this probability (0 to 1), drawn from the plan's seeded generator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// From this instant of the sandbox clock (RFC 3339).
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub from: Option<OffsetDateTime>,
    /// Until this instant of the sandbox clock (RFC 3339, excluded).
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub until: Option<OffsetDateTime>,
}

/// What happens to a request a rule fires on. Most effects belong to one interface: the bank's (`/v1`)
/// or the SCA pages (`/sca`); latency to both ([`Effect::interfaces`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)]
pub enum Effect {
    /// The answer comes late: `fixedMs` plus up to `jitterMs` (drawn from the plan's generator).
    #[serde(rename_all = "camelCase")]
    Latency {
        fixed_ms: u64,
        #[serde(default)]
        jitter_ms: u64,
    },
    /// 429 ACCESS_EXCEEDED with Retry-After.
    #[serde(rename_all = "camelCase")]
    RateLimited { retry_after_seconds: u64 },
    /// 500 SYSTEM_ERROR.
    ServerError,
    /// 503 for a maintenance window ending at `until` (sandbox clock): Retry-After and a tppMessage
    /// naming the end.
    Maintenance {
        #[serde(with = "time::serde::rfc3339")]
        until: OffsetDateTime,
    },
    /// The connection is closed without an answer.
    ConnectionReset,
    /// No answer: the request is held (the client's timeout should fire), then the connection closed
    /// after `holdSeconds` (at most [`MAX_HOLD_SECONDS`]).
    #[serde(rename_all = "camelCase")]
    NoAnswer {
        #[serde(default = "default_hold")]
        hold_seconds: u64,
    },
    /// The PSU revokes, at the bank, the consent the request's PSU gave its TPP (every context); the
    /// request is then served, so it gets what a revoked consent gets.
    ConsentRevoked,
    /// The SCA behind the request's consent (every context of its PSU at its TPP) reaches the 180-day
    /// renewal; the request is then served.
    ConsentExpired,
    /// The payment the request creates or names is rejected by the next batch run (the forced outcome
    /// RJCT).
    PaymentRejected,
    /// Of the signing basket the request creates or names, the last `rejected` payments (at least one
    /// is kept) are rejected by the next batch run; the others go their way.
    #[serde(rename_all = "camelCase")]
    BasketPartlyRejected {
        #[serde(default = "one")]
        rejected: u64,
    },
    /// SCA pages: the PSU cancels instead of taking the step.
    ScaCancelled,
    /// SCA pages: the authorisation expires while the PSU is on the page.
    ScaExpired,
    /// SCA pages: on the consent page the PSU ticks other accounts than those sent (the ones left
    /// unticked, or only the first offered when every one was ticked).
    ScaOtherAccounts,
    /// SCA pages: on the context page the PSU picks the other context (private for corporate, or the
    /// first agreement for private).
    ScaOtherContext,
}

/// The interfaces a rule can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interface {
    /// The bank interface, `/v1` (and its `/api-sandbox` form).
    Bank,
    /// The bank's SCA pages, `/sca`.
    ScaPages,
}

impl Effect {
    /// Whether the effect can act on this interface.
    pub fn acts_on(&self, interface: Interface) -> bool {
        match self {
            Effect::Latency { .. } => true,
            Effect::ScaCancelled
            | Effect::ScaExpired
            | Effect::ScaOtherAccounts
            | Effect::ScaOtherContext => interface == Interface::ScaPages,
            _ => interface == Interface::Bank,
        }
    }
}

fn one() -> u64 {
    1
}

fn default_hold() -> u64 {
    120
}

impl Plan {
    /// Reads a plan file (`serve --faults plan.json`), checked.
    pub fn from_json(bytes: &[u8]) -> Result<Plan, String> {
        let plan: Plan = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        plan.validate().map_err(|r| r.text)?;
        Ok(plan)
    }

    /// Whether any rule can fire (the hot path's one check).
    pub fn is_active(&self) -> bool {
        self.rules.iter().any(|r| r.enabled)
    }

    /// Checks what serde cannot: ids, ranges, windows.
    pub fn validate(&self) -> Result<(), Refusal> {
        if self.rules.len() > MAX_RULES {
            return Err(Refusal::format(
                "rules",
                format!("a plan holds at most {MAX_RULES} rules"),
            ));
        }
        for (i, entry) in self.fix_defaults.iter().enumerate() {
            if crate::domain::fix::Fix::parse(&entry.fix).is_none() {
                let known: Vec<&str> = crate::domain::fix::Fix::ALL
                    .iter()
                    .map(|f| f.name())
                    .collect();
                return Err(Refusal::format(
                    &format!("fixDefaults[{i}].fix"),
                    format!(
                        "fixDefaults[{i}].fix: '{}' is not a published fix; the published ones are {}",
                        entry.fix,
                        known.join(", ")
                    ),
                ));
            }
            if self.fix_defaults[..i]
                .iter()
                .any(|e| e.fix.eq_ignore_ascii_case(&entry.fix))
            {
                return Err(Refusal::format(
                    &format!("fixDefaults[{i}].fix"),
                    format!("fixDefaults[{i}].fix: '{}' is named twice", entry.fix),
                ));
            }
        }
        for (i, rule) in self.rules.iter().enumerate() {
            let at = |field: &str| format!("rules[{i}].{field}");
            if rule.id.is_empty()
                || rule.id.len() > 64
                || !rule
                    .id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(Refusal::format(
                    &at("id"),
                    format!("{}: 1 to 64 letters, digits, '-' or '_'", at("id")),
                ));
            }
            if self.rules[..i].iter().any(|r| r.id == rule.id) {
                return Err(Refusal::format(
                    &at("id"),
                    format!("{}: '{}' is the id of an earlier rule", at("id"), rule.id),
                ));
            }
            rule.validate(&|field| at(field))?;
        }
        Ok(())
    }
}

impl Rule {
    fn validate(&self, at: &dyn Fn(&str) -> String) -> Result<(), Refusal> {
        let m = &self.matches;
        if m.every == Some(0) {
            return Err(Refusal::format(
                &at("match.every"),
                format!("{} must be 1 or more", at("match.every")),
            ));
        }
        if let Some(p) = m.probability {
            if !(0.0..=1.0).contains(&p) || p.is_nan() {
                return Err(Refusal::format(
                    &at("match.probability"),
                    format!("{} must be between 0 and 1", at("match.probability")),
                ));
            }
        }
        if let (Some(from), Some(until)) = (m.from, m.until) {
            if until <= from {
                return Err(Refusal::format(
                    &at("match.until"),
                    format!("{} must be after match.from", at("match.until")),
                ));
            }
        }
        if let Some(method) = &m.method {
            if method.is_empty() || !method.chars().all(|c| c.is_ascii_uppercase()) {
                return Err(Refusal::format(
                    &at("match.method"),
                    format!(
                        "{} is an HTTP method in upper case, such as GET",
                        at("match.method")
                    ),
                ));
            }
        }
        match &self.effect {
            Effect::NoAnswer { hold_seconds }
                if *hold_seconds > MAX_HOLD_SECONDS || *hold_seconds == 0 =>
            {
                Err(Refusal::format(
                    &at("effect.holdSeconds"),
                    format!("{} is 1 to {MAX_HOLD_SECONDS}", at("effect.holdSeconds")),
                ))
            }
            Effect::Latency {
                fixed_ms,
                jitter_ms,
            } if fixed_ms + jitter_ms > MAX_HOLD_SECONDS * 1000 => Err(Refusal::format(
                &at("effect"),
                format!(
                    "{}: fixedMs plus jitterMs is at most {} ms",
                    at("effect"),
                    MAX_HOLD_SECONDS * 1000
                ),
            )),
            Effect::BasketPartlyRejected { rejected } if *rejected == 0 => Err(Refusal::format(
                &at("effect.rejected"),
                format!("{} must be 1 or more", at("effect.rejected")),
            )),
            _ => Ok(()),
        }
    }
}
