//! The trainer's "restart from this step": what a restart of a journey from one of its exchanges re-runs
//! and as whom, and the re-run itself. The sandbox returns to the state before the step (before the first
//! page of the PSU's SCA when the step is one of its pages), and the journey from there on is played again
//! as the room saw it (`restart_steps`): the TPP's requests re-signed with the journey's TPP certificate and
//! the sandbox clock's time, ids from the new answers carried into later requests (the replay engine,
//! `outbound::replay_run`, the same as `xs2a-sandbox replay`), the PSU's pages asked for and their forms
//! sent as the PSU's browser did, the PSU's way back to the workbench's callback, and a batch run where
//! one decided the journey's payments. What cannot be played as it happened is listed before anything is
//! rewound. The key is the workbench persona's whose certificate signed the journey's requests.

use super::restart_steps::{self, NotReplayed, Planned, Replay, RunSeen, Whole};
use crate::app_state::AppState;
use crate::flow::junit::TemplateFor;
use crate::flow::Step;
use crate::outbound::replay_run::Runner;
use crate::own_state::personas::{self, StoredPersona};
use crate::traffic::model::{Entry, EventEntry, Exchange};
use std::time::Duration;
use xs2a_core::bank::events::EventKind;
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::signing::signer::{pem_to_der, SigningCredentials};

/// What a restart re-runs.
pub struct Plan {
    /// The entry the sandbox returns to the state before.
    pub start: u64,
    /// The steps played again, in order.
    pub steps: Vec<Planned>,
    /// What is not played again as it happened, and why.
    pub not_replayed: Vec<NotReplayed>,
    pub credentials: SigningCredentials,
    /// The persona whose key signs them.
    pub persona: String,
}

fn certificate_of(exchange: &Exchange) -> Option<Vec<u8>> {
    let (_, value) = exchange
        .request
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("tpp-signature-certificate"))?;
    xs2a_core::signing::certificate::decode_certificate_header(value)
        .ok()
        .map(|d| d.der)
}

/// The journey's entries whole, in timeline order: its exchanges and its events.
fn journey_entries(
    state: &AppState,
    journey: &str,
) -> CoreResult<(Vec<Exchange>, Vec<EventEntry>)> {
    let traffic = &state.traffic;
    traffic.settle(Duration::from_secs(2));
    let wanted = journey.to_owned();
    let mut listed = traffic.page(None, 10_000, |e| e.journeys().contains(&wanted))?;
    listed.sort_unstable_by_key(Entry::id);
    let mut exchanges = Vec::new();
    let mut events = Vec::new();
    for entry in listed {
        match entry {
            Entry::Exchange(summary) => {
                if let Some(Ok(exchange)) = traffic.get(summary.id)? {
                    exchanges.push(exchange);
                }
            }
            Entry::Event(event) => events.push(event),
        }
    }
    Ok((exchanges, events))
}

/// The batch runs on the timeline after entry `after`, by run id.
fn runs_after(state: &AppState, after: u64) -> CoreResult<Vec<(String, RunSeen)>> {
    let runs = state.traffic.page(None, 1_000, |e| {
        e.id() > after && matches!(e, Entry::Event(ev) if ev.event == EventKind::BatchRun.name())
    })?;
    Ok(runs
        .into_iter()
        .filter_map(|e| match e {
            Entry::Event(ev) => Some((
                ev.data["id"].as_str()?.to_owned(),
                RunSeen {
                    trigger: ev.data["trigger"].as_str().unwrap_or_default().to_owned(),
                    at: ev.data["at"].as_str().unwrap_or_default().to_owned(),
                },
            )),
            Entry::Exchange(_) => None,
        })
        .collect())
}

/// The plan of restarting journey `journey` from its exchange `from` (`path` names it in refusals).
pub fn plan(state: &AppState, journey: &str, from: u64, path: &str) -> CoreResult<Plan> {
    if state.traffic.journey(journey).is_none() {
        return Err(Refusal::unknown("id", "journey", journey));
    }
    let (exchanges, events) = journey_entries(state, journey)?;
    let Some(mut at) = exchanges.iter().position(|e| e.summary.id == from) else {
        return Err(Refusal::unknown(
            path,
            &format!("exchange of the journey {journey} with id"),
            &from.to_string(),
        ));
    };
    // A page of the PSU's SCA: the SCA is played again whole, from its first page.
    let authorisation = |e: &Exchange| {
        e.summary
            .path
            .strip_prefix("/sca/")
            .and_then(|rest| rest.split('/').next())
            .map(str::to_owned)
    };
    if let Some(id) = authorisation(&exchanges[at]) {
        while at > 0 && authorisation(&exchanges[at - 1]).as_deref() == Some(id.as_str()) {
            at -= 1;
        }
    }
    let certificate = exchanges[at..]
        .iter()
        .chain(exchanges[..at].iter().rev())
        .find_map(certificate_of);
    let signer = certificate.and_then(|der| signer_of(state, &der).transpose());
    let Some((persona, credentials)) = signer.transpose()? else {
        return Err(Refusal::conflict(
            path,
            "The journey's requests were signed with a certificate the workbench holds no key for: \
             import it as a persona (certificate and key) to restart the journey, or rewind to the step \
             and send the requests again from your TPP app.",
        ));
    };
    let start = exchanges[at].summary.id;
    let mut whole: Vec<(u64, Whole)> = exchanges[at..]
        .iter()
        .map(|e| (e.summary.id, Whole::Exchange(e)))
        .chain(
            events
                .iter()
                .filter(|e| e.id > start)
                .map(|e| (e.id, Whole::Event(e))),
        )
        .collect();
    whole.sort_by_key(|(id, _)| *id);
    let whole: Vec<Whole> = whole.into_iter().map(|(_, w)| w).collect();
    let runs = runs_after(state, start)?;
    let (steps, not_replayed) = restart_steps::plan(&whole, &state.base_url(), |id| {
        runs.iter()
            .find(|(r, _)| r == id)
            .map(|(_, seen)| seen.clone())
    });
    Ok(Plan {
        start,
        steps,
        not_replayed,
        credentials,
        persona,
    })
}

/// Plays the plan's steps on the service at `url`, `pace` apart, as the room saw them; a step that cannot
/// be played is logged and the rest are played.
pub async fn play(plan: Plan, url: &str, templates: TemplateFor, pace: Duration) {
    let mut runner = match Runner::new(url, plan.credentials, templates) {
        Ok(runner) => runner,
        Err(error) => return tracing::error!(%error, "the restart cannot reach the sandbox"),
    };
    if let Err(error) = runner.sync_clock().await {
        return tracing::error!(%error, "the restart cannot read the sandbox's clock");
    }
    for (i, planned) in plan.steps.into_iter().enumerate() {
        if i > 0 && !pace.is_zero() {
            tokio::time::sleep(pace).await;
        }
        let label = planned.described().label;
        let played = match planned.replay {
            Replay::Tpp(exchange) => runner.step(i + 1, &Step::Exchange(exchange)).await.error,
            Replay::Page { exchange, location } => {
                runner.page(&exchange, location.as_deref()).await.err()
            }
            Replay::BackToTpp => runner.back_to_tpp().await.err(),
            Replay::BatchRun => runner.batch_run().await.err(),
        };
        if let Some(error) = played {
            tracing::warn!(step = %label, %error, "a restarted step could not be played");
        }
    }
}

/// The persona whose certificate is `der` (a stored one, or a bundled TPP's), and its key.
fn signer_of(state: &AppState, der: &[u8]) -> CoreResult<Option<(String, SigningCredentials)>> {
    let table = state.store.table::<StoredPersona>()?;
    if let Some(persona) = table.find(|p| pem_to_der(&p.certificate_pem).is_ok_and(|d| d == der))? {
        return Ok(Some((
            persona.name.clone(),
            personas::credentials(&persona)?,
        )));
    }
    for (_, name, certificate, key) in xs2a_core::signing::test_credentials::TPP_CERTIFICATES {
        if pem_to_der(certificate).is_ok_and(|d| d == der) {
            let credentials =
                SigningCredentials::from_pem(certificate, key).map_err(Refusal::internal)?;
            return Ok(Some(((*name).to_owned(), credentials)));
        }
    }
    Ok(None)
}
