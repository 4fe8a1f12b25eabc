//! The trainer's "restart from this step": what a restart of a journey from one of its exchanges re-runs
//! and as whom. The sandbox returns to the state before the step (before the first page of the PSU's SCA
//! when the step is one of its pages), and the journey's exchanges from there on are played again through
//! the replay engine (`outbound::replay_run`, the same as `xs2a-sandbox replay`): each bank request re-signed
//! with the journey's TPP certificate and the sandbox clock's time, ids from the new answers carried into
//! later requests, the PSU's SCA done through the automation endpoint with the choices the PSU made on the
//! pages. Events (batch runs, status changes) are not re-run: they follow from the requests, or from the
//! clock, as they did. The key is the workbench persona's whose certificate signed the journey's requests.

use crate::app_state::AppState;
use crate::flow::Step;
use crate::own_state::personas::{self, StoredPersona};
use crate::refusal::{CoreResult, Refusal};
use crate::signing::signer::{pem_to_der, SigningCredentials};
use crate::traffic::model::{Entry, Exchange};

/// What a restart re-runs.
pub struct Plan {
    /// The entry the sandbox returns to the state before.
    pub start: u64,
    /// The steps played again, in order.
    pub steps: Vec<Step>,
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
    crate::signing::certificate::decode_certificate_header(value)
        .ok()
        .map(|d| d.der)
}

/// The plan of restarting journey `journey` from its exchange `from` (`path` names it in refusals).
pub fn plan(state: &AppState, journey: &str, from: u64, path: &str) -> CoreResult<Plan> {
    let traffic = &state.traffic;
    if traffic.journey(journey).is_none() {
        return Err(Refusal::unknown("id", "journey", journey));
    }
    traffic.settle(std::time::Duration::from_secs(2));
    let wanted = journey.to_owned();
    let mut ids: Vec<u64> = traffic
        .page(None, 10_000, |e| {
            matches!(e, Entry::Exchange(_)) && e.journeys().contains(&wanted)
        })?
        .iter()
        .map(Entry::id)
        .collect();
    ids.sort_unstable();
    let mut exchanges = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(Ok(exchange)) = traffic.get(id)? {
            exchanges.push(exchange);
        }
    }
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
    Ok(Plan {
        start: exchanges[at].summary.id,
        steps: crate::flow::from_traffic::steps(&exchanges[at..]),
        credentials,
        persona,
    })
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
    for (_, name, certificate, key) in crate::test_credentials::TPP_CERTIFICATES {
        if pem_to_der(certificate).is_ok_and(|d| d == der) {
            let credentials =
                SigningCredentials::from_pem(certificate, key).map_err(Refusal::internal)?;
            return Ok(Some(((*name).to_owned(), credentials)));
        }
    }
    Ok(None)
}
