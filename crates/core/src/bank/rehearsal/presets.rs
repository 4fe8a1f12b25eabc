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
        Preset {
            title: "Consent revoked by the PSU at the bank on the next account read".into(),
            rule: rule("consent-revoked", accounts(), Effect::ConsentRevoked),
        },
        Preset {
            title: "Consent expired (180-day SCA renewal) on the next account read".into(),
            rule: rule("consent-expired", accounts(), Effect::ConsentExpired),
        },
        Preset {
            title: "Payments initiated now are rejected by the next batch run".into(),
            rule: rule(
                "payment-rejected",
                Match {
                    path: Some("/v1/*payments/*".into()),
                    method: Some("POST".into()),
                    ..Default::default()
                },
                Effect::PaymentRejected,
            ),
        },
        Preset {
            title: "Signing baskets created now are partly rejected by the next batch run".into(),
            rule: rule(
                "basket-partly-rejected",
                Match {
                    path: Some("/v1/signing-baskets".into()),
                    method: Some("POST".into()),
                    ..Default::default()
                },
                Effect::BasketPartlyRejected { rejected: 1 },
            ),
        },
        Preset {
            title: "SCA pages: the PSU cancels".into(),
            rule: rule("psu-cancels", pages(), Effect::ScaCancelled),
        },
        Preset {
            title: "SCA pages: the authorisation expires while the PSU is on the page".into(),
            rule: rule("sca-expires", pages(), Effect::ScaExpired),
        },
        Preset {
            title: "SCA pages: the PSU ticks other accounts than the app expects".into(),
            rule: rule("other-accounts", pages(), Effect::ScaOtherAccounts),
        },
        Preset {
            title: "SCA pages: the PSU picks the other context".into(),
            rule: rule("other-context", pages(), Effect::ScaOtherContext),
        },
        Preset {
            title: "SCA pages: every page 3 s late".into(),
            rule: rule(
                "slow-sca-pages",
                Match {
                    path: Some("/sca/*".into()),
                    ..Default::default()
                },
                Effect::Latency {
                    fixed_ms: 3000,
                    jitter_ms: 0,
                },
            ),
        },
    ]
}

fn accounts() -> Match {
    Match {
        path: Some("/v1/accounts*".into()),
        ..Default::default()
    }
}

/// The forms the PSU sends on the SCA pages.
fn pages() -> Match {
    Match {
        path: Some("/sca/*".into()),
        method: Some("POST".into()),
        ..Default::default()
    }
}
