//! Ready-made rules, one per failure a TPP should survive: the Faults panel adds each with one click
//! (`GET /workbench/api/faults/presets`), and docs/rehearsal.md shows them as plan lines.

use super::plan::{Effect, Match, Rule};
use serde::Serialize;
use time::{Duration, OffsetDateTime};

/// A rule ready to add.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Preset {
    /// What the rule rehearses.
    pub title: String,
    pub rule: Rule,
}

fn rule(id: &str, matches: Match, effect: Effect) -> Rule {
    Rule {
        id: id.into(),
        enabled: true,
        matches,
        effect,
        matched: 0,
        fired: 0,
    }
}

/// The presets at `now` (the sandbox clock): the maintenance window ends two hours later.
pub fn presets(now: OffsetDateTime) -> Vec<Preset> {
    let bank = || Match {
        path: Some("/v1/*".into()),
        ..Default::default()
    };
    let until = now + Duration::hours(2);
    let until = until
        .replace_second(0)
        .and_then(|t| t.replace_nanosecond(0))
        .unwrap_or(until);
    vec![
        Preset {
            title: "Slow bank: every answer 2 s late, up to 1 s more".into(),
            rule: rule(
                "slow-bank",
                bank(),
                Effect::Latency {
                    fixed_ms: 2000,
                    jitter_ms: 1000,
                },
            ),
        },
        Preset {
            title: "Rate limit: every 3rd request 429 ACCESS_EXCEEDED, Retry-After 30".into(),
            rule: rule(
                "rate-limit",
                Match {
                    every: Some(3),
                    ..bank()
                },
                Effect::RateLimited {
                    retry_after_seconds: 30,
                },
            ),
        },
        Preset {
            title: "Flaky bank: 500 SYSTEM_ERROR on one request in ten (seeded)".into(),
            rule: rule(
                "flaky-500",
                Match {
                    probability: Some(0.1),
                    ..bank()
                },
                Effect::ServerError,
            ),
        },
        Preset {
            title: "Maintenance: 503 for the next two hours".into(),
            rule: rule(
                "maintenance",
                Match {
                    until: Some(until),
                    ..bank()
                },
                Effect::Maintenance { until },
            ),
        },
        Preset {
            title: "Connection reset on payment initiation".into(),
            rule: rule(
                "reset-payments",
                Match {
                    path: Some("/v1/payments/*".into()),
                    method: Some("POST".into()),
                    ..Default::default()
                },
                Effect::ConnectionReset,
            ),
        },
        Preset {
            title: "Never answered: account reads held 2 minutes, then closed".into(),
            rule: rule(
                "no-answer-accounts",
                Match {
                    path: Some("/v1/accounts*".into()),
                    ..Default::default()
                },
                Effect::NoAnswer { hold_seconds: 120 },
            ),
        },
    ]
}
