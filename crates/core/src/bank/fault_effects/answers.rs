//! The answers a fired rule gives in place of the bank's (docs/rehearsal.md#the-fault-plan): too many
//! requests, a server error, a maintenance window. Each text says it was injected and by which rule, so
//! that nobody takes it for the bank's own failure.

use crate::bank::rehearsal::plan::Effect;
use crate::domain::refusal::{Code, Refusal};
use time::OffsetDateTime;

/// What the bank interface answers for a fired rule: the refusal, the status it goes with (a
/// maintenance window is 503, which no code says) and the `Retry-After` seconds, when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InjectedAnswer {
    pub refusal: Refusal,
    pub status: u16,
    pub retry_after_seconds: Option<u64>,
}

/// The answer `rule`'s `effect` gives at `now` (the sandbox clock), or none when the effect does not
/// answer in the bank's place (a latency, a broken connection, a change to a resource).
pub fn injected_answer(rule: &str, effect: &Effect, now: OffsetDateTime) -> Option<InjectedAnswer> {
    let injected =
        |text: String| format!("{text} (injected by the sandbox's fault plan, rule {rule})");
    let answer = |refusal: Refusal, retry_after_seconds| InjectedAnswer {
        status: refusal.status(),
        refusal,
        retry_after_seconds,
    };
    match effect {
        Effect::RateLimited {
            retry_after_seconds,
        } => Some(answer(
            Refusal::new(
                Code::AccessExceeded,
                None,
                injected(format!(
                    "Too many requests; try again in {retry_after_seconds} seconds."
                )),
            ),
            Some(*retry_after_seconds),
        )),
        Effect::ServerError => Some(answer(
            Refusal::new(
                Code::SystemError,
                None,
                injected("The bank could not process the request.".into()),
            ),
            None,
        )),
        Effect::Maintenance { until } => {
            let seconds = (*until - now).whole_seconds().max(0) as u64;
            let ends = until
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default();
            Some(InjectedAnswer {
                status: 503,
                ..answer(
                    Refusal::new(
                        Code::SystemError,
                        None,
                        injected(format!("The service is down for maintenance until {ends}.")),
                    ),
                    Some(seconds),
                )
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-06-02 02:00 UTC);

    fn answered(effect: Effect) -> (u16, &'static str, Option<u64>, String) {
        let answer = injected_answer("r1", &effect, NOW).unwrap();
        (
            answer.status,
            answer.refusal.code.as_str(),
            answer.retry_after_seconds,
            answer.refusal.text,
        )
    }

    #[test]
    fn each_answer_has_its_status_code_and_retry_after_and_names_the_rule() {
        let (status, code, retry, text) = answered(Effect::RateLimited {
            retry_after_seconds: 30,
        });
        assert_eq!((status, code, retry), (429, "ACCESS_EXCEEDED", Some(30)));
        assert_eq!(
            text,
            "Too many requests; try again in 30 seconds. (injected by the sandbox's fault plan, rule r1)"
        );
        let (status, code, retry, _) = answered(Effect::ServerError);
        assert_eq!((status, code, retry), (500, "SYSTEM_ERROR", None));
        let (status, code, retry, text) = answered(Effect::Maintenance {
            until: datetime!(2026-06-02 02:30 UTC),
        });
        assert_eq!((status, code, retry), (503, "SYSTEM_ERROR", Some(1800)));
        assert!(text.contains("down for maintenance until 2026-06-02T02:30:00Z"));
        // A window already over asks for no wait.
        let over = injected_answer(
            "r1",
            &Effect::Maintenance {
                until: datetime!(2026-06-01 00:00 UTC),
            },
            NOW,
        )
        .unwrap();
        assert_eq!(over.retry_after_seconds, Some(0));
    }

    #[test]
    fn effects_that_do_not_answer_give_none() {
        for effect in [
            Effect::ConnectionReset,
            Effect::ConsentRevoked,
            Effect::PaymentRejected,
        ] {
            assert!(injected_answer("r", &effect, NOW).is_none());
        }
    }
}
