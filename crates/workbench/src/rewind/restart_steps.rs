//! What a journey's restart plays again, read from the journey's timeline as the room saw it: the TPP's
//! requests (signed again), the PSU's own steps on the bank's pages (each page asked for and each form sent,
//! as the PSU's browser did, so they are the PSU's steps in the diagram again), the PSU's way back to the
//! workbench's callback, and a batch run where the journey's payments were decided by one. What it cannot
//! play again as it happened is listed with the reason, before anything is rewound: a request the gate
//! refused, an answer the fault plan injected, the way back to a TPP app's own redirect URI, a batch run
//! the schedule made.

use crate::flow::from_traffic::{exchange_of, Recorded};
use crate::flow::model::Exchange;
use crate::outbound::psu_browser::OWN_CALLBACK;
use crate::traffic::model::{EventEntry, Exchange as Logged};
use serde::Serialize;

/// One step played again.
#[derive(Debug, Clone, PartialEq)]
pub enum Replay {
    /// A request of the TPP to the bank (or to the mock-data API), signed again with the persona's key.
    Tpp(Exchange),
    /// A page of the bank's SCA the PSU's browser asked for, or a form the PSU sent on it, as recorded
    /// (with this run's ids); `location` is where the recorded answer sent the browser.
    Page {
        exchange: Exchange,
        location: Option<String>,
    },
    /// The PSU's browser arriving back at the workbench's callback (the TPP), where this run's last page
    /// sent it.
    BackToTpp,
    /// A batch run asked for at this point: the journey's payments were decided by a run here.
    BatchRun,
}

/// Who acts in a step, as the diagram's lanes name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    Tpp,
    Psu,
    Batch,
}

/// A step of the plan, as the restart's dialog lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlannedStep {
    /// The timeline entry it plays again.
    pub entry: u64,
    pub actor: Actor,
    pub label: String,
}

/// Something of the journey the restart does not play again as it happened, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotReplayed {
    /// The timeline entry.
    pub entry: u64,
    pub label: String,
    pub reason: String,
}

/// A step with the entry it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub entry: u64,
    pub replay: Replay,
}

impl Planned {
    /// The step as the dialog lists it.
    pub fn described(&self) -> PlannedStep {
        let (actor, label) = match &self.replay {
            Replay::Tpp(e) => (
                Actor::Tpp,
                format!("{} {}", e.request.method, e.request.path),
            ),
            Replay::Page { exchange, .. } => (
                Actor::Psu,
                format!("{} {}", exchange.request.method, exchange.request.path),
            ),
            Replay::BackToTpp => (Actor::Psu, "back to the TPP with the PSU's id".to_owned()),
            Replay::BatchRun => (Actor::Batch, "a batch run, asked for now".to_owned()),
        };
        PlannedStep {
            entry: self.entry,
            actor,
            label,
        }
    }
}

/// A batch run of the timeline, as far as the plan needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSeen {
    /// `Scheduled` or `Manual` (the run record's trigger).
    pub trigger: String,
    /// When it ran, as the sandbox's clock said (RFC 3339).
    pub at: String,
}

/// One entry of the journey, whole.
pub enum Whole<'a> {
    Exchange(&'a Logged),
    Event(&'a EventEntry),
}

fn header<'e>(headers: &'e [(String, String)], name: &str) -> Option<&'e str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Whether a redirect of the bank's pages goes to the workbench's own callback on `base_url`.
fn is_own_callback(location: &str, base_url: &str) -> bool {
    let path = location.strip_prefix(base_url).unwrap_or(location);
    path.strip_prefix(OWN_CALLBACK)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('?'))
}

/// Whether a redirect leaves the bank's pages (for the TPP's redirect URI).
fn leaves_pages(location: &str, base_url: &str) -> bool {
    !location
        .strip_prefix(base_url)
        .unwrap_or(location)
        .starts_with("/sca/")
}

/// An RFC 3339 time as a person reads it (`2026-06-01 11:00 UTC`); as it is when it is not one.
fn readable(at: &str) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339)
        .ok()
        .and_then(|t| t.to_offset(time::UtcOffset::UTC).format(&format).ok())
        .unwrap_or_else(|| at.to_owned())
}

/// The plan of playing `entries` (the journey's, in timeline order, from the step restarted) again on
/// the service at `base_url`; `run` says what the timeline knows of a batch run by its id.
pub fn plan(
    entries: &[Whole],
    base_url: &str,
    run: impl Fn(&str) -> Option<RunSeen>,
) -> (Vec<Planned>, Vec<NotReplayed>) {
    let mut steps = Vec::new();
    let mut skipped = Vec::new();
    let mut runs_done: Vec<String> = Vec::new();
    for entry in entries {
        match entry {
            Whole::Exchange(logged) => exchange(logged, base_url, &mut steps, &mut skipped),
            Whole::Event(event) => {
                let Some(run_id) = event.data["batchRunId"].as_str() else {
                    continue;
                };
                if runs_done.iter().any(|r| r == run_id) {
                    continue;
                }
                runs_done.push(run_id.to_owned());
                steps.push(Planned {
                    entry: event.id,
                    replay: Replay::BatchRun,
                });
                if let Some(seen) = run(run_id).filter(|r| r.trigger == "Scheduled") {
                    skipped.push(NotReplayed {
                        entry: event.id,
                        label: format!("the scheduled batch run at {}", readable(&seen.at)),
                        reason: "the schedule is not waited for: a batch run is asked for at this point \
                                 instead, at the clock's present time"
                            .into(),
                    });
                }
            }
        }
    }
    (steps, skipped)
}

/// The steps of one recorded exchange, or why it is left out.
fn exchange(
    logged: &Logged,
    base_url: &str,
    steps: &mut Vec<Planned>,
    skipped: &mut Vec<NotReplayed>,
) {
    let s = &logged.summary;
    let label = format!("{} {}", s.method, s.path);
    if let Some(step) = &s.failed_step {
        skipped.push(NotReplayed {
            entry: s.id,
            label,
            reason: format!(
                "the gate refused it at its {step} step, so it changed nothing; signed afresh it would pass, \
                 so it is not sent again"
            ),
        });
        return;
    }
    let replayed = exchange_of(Recorded::from(logged));
    match s.area.as_str() {
        "sca-page" => {
            let location = header(&logged.response.headers, "location").map(str::to_owned);
            let back = location
                .as_deref()
                .filter(|l| (300..400).contains(&s.status) && leaves_pages(l, base_url))
                .map(str::to_owned);
            steps.push(Planned {
                entry: s.id,
                replay: Replay::Page {
                    exchange: replayed,
                    location,
                },
            });
            match back {
                Some(to) if is_own_callback(&to, base_url) => steps.push(Planned {
                    entry: s.id,
                    replay: Replay::BackToTpp,
                }),
                Some(to) => skipped.push(NotReplayed {
                    entry: s.id,
                    label: "the PSU's way back to the TPP app".into(),
                    reason: format!(
                        "the bank sends the PSU to {}, the app's own redirect URI, which the sandbox does not \
                         visit: the app does not learn of the new SCA",
                        to.split('?').next().unwrap_or_default()
                    ),
                }),
                None => {}
            }
        }
        "bank" | "sandbox" => {
            if let Some(marker) = header(&logged.response.headers, "sandbox-injected") {
                skipped.push(NotReplayed {
                    entry: s.id,
                    label: label.clone(),
                    reason: format!(
                        "its answer was the fault plan's ({marker}): sent again, it is answered as the fault \
                         plan stands now"
                    ),
                });
            }
            steps.push(Planned {
                entry: s.id,
                replay: Replay::Tpp(replayed),
            });
        }
        _ => skipped.push(NotReplayed {
            entry: s.id,
            label,
            reason: "not a request to the bank's interface or its pages".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const BASE: &str = "http://127.0.0.1:8080";

    fn logged(
        id: u64,
        method: &str,
        path: &str,
        status: u16,
        area: &str,
        answer: &[(&str, &str)],
    ) -> Logged {
        serde_json::from_value(json!({
            "id": id, "at": "2026-06-01T10:00:00Z", "durationMs": 1, "method": method, "path": path,
            "query": null, "status": status, "area": area, "source": "composer", "tpp": null, "psuId": null,
            "tppSessionId": null, "failedStep": null, "code": null, "resources": [], "journeys": [],
            "request": {"headers": [["Signature", "x"], ["PSU-ID", "p1"]], "body": null, "bodyBytes": 0, "bodyBase64": false},
            "response": {"headers": answer.iter().map(|(n, v)| json!([n, v])).collect::<Vec<_>>(),
                         "body": null, "bodyBytes": 0, "bodyBase64": false},
            "gate": null, "tppMessages": [], "composerSigningString": null
        }))
        .unwrap()
    }

    fn status_event(id: u64, run: Option<&str>) -> EventEntry {
        serde_json::from_value(json!({
            "id": id, "at": "2026-06-01T11:00:00Z", "event": "payment.status",
            "data": {"paymentId": "p", "before": "ACTC", "after": "ACSC", "batchRunId": run},
            "resources": [], "journeys": []
        }))
        .unwrap()
    }

    #[test]
    fn the_psus_pages_the_way_back_and_the_batch_run_are_played_again() {
        let created = logged(
            1,
            "POST",
            "/v1/payments/norwegian-domestic-credit-transfers",
            201,
            "bank",
            &[],
        );
        let page = logged(2, "GET", "/sca/a1", 200, "sca-page", &[]);
        let confirm = logged(
            3,
            "POST",
            "/sca/a1/confirm",
            303,
            "sca-page",
            &[(
                "location",
                "http://127.0.0.1:8080/workbench/callback?persona=x&psu-id=u1",
            )],
        );
        let after_sca = status_event(4, None);
        let run = status_event(5, Some("run-1"));
        let same_run = status_event(6, Some("run-1"));
        let entries = [
            Whole::Exchange(&created),
            Whole::Exchange(&page),
            Whole::Exchange(&confirm),
            Whole::Event(&after_sca),
            Whole::Event(&run),
            Whole::Event(&same_run),
        ];
        let manual = |_: &str| {
            Some(RunSeen {
                trigger: "Manual".into(),
                at: "11:00".into(),
            })
        };
        let (steps, skipped) = plan(&entries, BASE, manual);
        let described: Vec<(Actor, String)> = steps
            .iter()
            .map(|s| (s.described().actor, s.described().label))
            .collect();
        assert_eq!(
            described,
            [
                (
                    Actor::Tpp,
                    "POST /v1/payments/norwegian-domestic-credit-transfers".to_owned()
                ),
                (Actor::Psu, "GET /sca/a1".to_owned()),
                (Actor::Psu, "POST /sca/a1/confirm".to_owned()),
                (Actor::Psu, "back to the TPP with the PSU's id".to_owned()),
                (Actor::Batch, "a batch run, asked for now".to_owned()),
            ]
        );
        assert!(skipped.is_empty(), "{skipped:?}");
        let Replay::Tpp(sent) = &steps[0].replay else {
            panic!("a TPP step")
        };
        assert_eq!(
            sent.request.headers,
            [("PSU-ID".to_owned(), "p1".to_owned())],
            "the signature is made afresh"
        );
        let Replay::Page { location, .. } = &steps[2].replay else {
            panic!("a page")
        };
        assert!(location.as_deref().is_some_and(|l| l.contains("psu-id=u1")));
    }

    #[test]
    fn what_cannot_be_played_as_it_happened_is_said_with_the_reason() {
        let mut refused = logged(
            1,
            "POST",
            "/v1/payments/norwegian-domestic-credit-transfers",
            401,
            "bank",
            &[],
        );
        refused.summary.failed_step = Some("digest".into());
        let injected = logged(
            2,
            "GET",
            "/v1/accounts",
            503,
            "bank",
            &[("Sandbox-Injected", "503 maintenance")],
        );
        let outside = logged(
            3,
            "POST",
            "/sca/a1/confirm",
            303,
            "sca-page",
            &[("Location", "https://app.example/cb?psu-id=u1")],
        );
        let scheduled = status_event(4, Some("run-2"));
        let entries = [
            Whole::Exchange(&refused),
            Whole::Exchange(&injected),
            Whole::Exchange(&outside),
            Whole::Event(&scheduled),
        ];
        let runs = |id: &str| {
            (id == "run-2").then(|| RunSeen {
                trigger: "Scheduled".into(),
                at: "2026-06-01T11:00:00Z".into(),
            })
        };
        let (steps, skipped) = plan(&entries, BASE, runs);
        let reasons: Vec<(u64, &str)> = skipped
            .iter()
            .map(|s| (s.entry, s.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 4, "{reasons:?}");
        assert!(reasons[0]
            .1
            .contains("the gate refused it at its digest step"));
        assert!(reasons[1].1.contains("fault plan's (503 maintenance)"));
        assert!(
            reasons[2].1.contains("https://app.example/cb,"),
            "{}",
            reasons[2].1
        );
        assert!(reasons[3].1.contains("the schedule is not waited for"));
        assert_eq!(
            skipped[3].label,
            "the scheduled batch run at 2026-06-01 11:00 UTC"
        );
        // The refused request is left out; the injected one, the page and the run are played.
        let entries: Vec<u64> = steps.iter().map(|s| s.entry).collect();
        assert_eq!(entries, [2, 3, 4]);
    }
}
