//! Turning traffic-log exchanges into a flow: bank and mock-data requests become exchange steps (with
//! the headers signing makes afresh left out), and the PSU's steps on the bank's SCA pages become one SCA
//! step per authorisation, with what the PSU chose (national id, context, accounts, method, cancel)
//! taken from the forms it sent, so replay can do the same through the automation endpoint. The flow
//! names the TPPs whose certificates signed the requests (`recorded_by`).

use super::model::{Exchange, FlowFile, Request, Response, Sca, Step};
use crate::traffic::model::{Entry, Exchange as Logged};
use crate::traffic::TrafficLog;
use serde_json::{json, Map, Value};
use xs2a_core::domain::refusal::CoreResult;

/// Headers a replay makes afresh (signing, transport), so a flow does not carry them.
const NOT_CARRIED: &[&str] = &[
    "date",
    "digest",
    "signature",
    "tpp-signature-certificate",
    "x-request-id",
    "host",
    "content-length",
    "connection",
    "accept-encoding",
    "user-agent",
    "transfer-encoding",
    "keep-alive",
];

/// The authorisation id of an SCA page path (`/sca/{id}/...`).
fn page_authorisation(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/sca/")?;
    rest.split('/').next().filter(|id| !id.is_empty())
}

/// A query parameter of a redirect back to the TPP (`psu-id`, `psu-corporate-id`).
fn redirect_parameter(location: &str, name: &str) -> Option<String> {
    let (_, query) = location.split_once('?')?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    pairs.into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// Adds what one SCA page request tells about the PSU's choices to `drive`.
fn note_form(drive: &mut Map<String, Value>, path: &str, body: Option<&str>) {
    if path.ends_with("/cancel") {
        drive.insert("outcome".into(), json!("cancel"));
    }
    let Some(body) = body else { return };
    let fields: Vec<(String, String)> = serde_urlencoded::from_str(body).unwrap_or_default();
    let mut accounts = Vec::new();
    for (name, value) in fields {
        match name.as_str() {
            "nationalId" => {
                drive.insert("nationalId".into(), json!(value));
            }
            "method" => {
                drive.insert("method".into(), json!(value));
            }
            "context" => match value.split_once(':') {
                Some((context, agreement)) => {
                    drive.insert("context".into(), json!(context));
                    drive.insert("agreementId".into(), json!(agreement));
                }
                None => {
                    drive.insert("context".into(), json!(value));
                }
            },
            "account" => accounts.push(value),
            _ => {}
        }
    }
    if !accounts.is_empty() {
        drive.insert("accounts".into(), json!(accounts));
    }
}

/// One exchange as any recording holds it (the traffic log, a HAR file).
pub struct Recorded {
    pub method: String,
    /// The path without the query.
    pub path: String,
    pub query: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub status: u16,
    pub response_body: Option<String>,
    /// The PSU the SCA page identified (traffic log only).
    pub psu_id: Option<String>,
    /// The answer's Location (an SCA page's redirect back to the TPP carries the psu-id).
    pub location: Option<String>,
}

impl From<&Logged> for Recorded {
    fn from(e: &Logged) -> Self {
        Recorded {
            method: e.summary.method.clone(),
            path: e.summary.path.clone(),
            query: e.summary.query.clone(),
            headers: e.request.headers.clone(),
            body: e.request.body.clone(),
            status: e.summary.status,
            response_body: e.response.body.clone(),
            psu_id: e.summary.psu_id.clone(),
            location: e
                .response
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("location"))
                .map(|(_, v)| v.clone()),
        }
    }
}

/// The steps of these exchanges, in order.
pub fn steps(exchanges: &[Logged]) -> Vec<Step> {
    steps_of(exchanges.iter().map(Recorded::from))
}

/// The steps of recorded exchanges, in order.
pub fn steps_of(exchanges: impl IntoIterator<Item = Recorded>) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for exchange in exchanges {
        if exchange.path.starts_with("/workbench") || exchange.path == "/health" {
            continue;
        }
        if let Some(id) = page_authorisation(&exchange.path) {
            let same = matches!(steps.last(), Some(Step::Sca(s)) if s.authorisation_id == id);
            if !same {
                steps.push(Step::Sca(Sca {
                    authorisation_id: id.to_owned(),
                    drive: Value::Object(Map::new()),
                    psu_id: None,
                    psu_corporate_id: None,
                }));
            }
            if let Some(Step::Sca(sca)) = steps.last_mut() {
                if let Value::Object(drive) = &mut sca.drive {
                    note_form(drive, &exchange.path, exchange.body.as_deref());
                }
                let back = exchange.location.as_deref();
                if let Some(psu) = back.and_then(|l| redirect_parameter(l, "psu-id")) {
                    sca.psu_id = Some(psu);
                } else if exchange.psu_id.is_some() && sca.psu_id.is_none() {
                    sca.psu_id = exchange.psu_id.clone();
                }
                if let Some(corporate) =
                    back.and_then(|l| redirect_parameter(l, "psu-corporate-id"))
                {
                    sca.psu_corporate_id = Some(corporate);
                }
            }
            continue;
        }
        steps.push(Step::Exchange(exchange_of(exchange)));
    }
    steps
}

/// One recorded exchange as a flow's exchange: path with its query, the headers signing makes afresh
/// left out.
pub fn exchange_of(exchange: Recorded) -> Exchange {
    let path = match &exchange.query {
        Some(q) if !q.is_empty() => format!("{}?{q}", exchange.path),
        _ => exchange.path.clone(),
    };
    Exchange {
        name: None,
        request: Request {
            method: exchange.method,
            path,
            headers: exchange
                .headers
                .into_iter()
                .filter(|(n, _)| !NOT_CARRIED.contains(&n.to_ascii_lowercase().as_str()))
                .collect(),
            body: exchange.body.filter(|b| !b.is_empty()),
        },
        response: Response {
            status: exchange.status,
            body: exchange.response_body.filter(|b| !b.is_empty()),
        },
    }
}

/// The flow of these exchanges: their steps, and the TPPs whose certificates signed them.
pub fn flow_of(exchanges: &[Logged]) -> FlowFile {
    let mut flow = FlowFile::new(steps(exchanges));
    flow.recorded_by =
        super::recorded_by::of_requests(exchanges.iter().map(|e| e.request.headers.as_slice()));
    flow
}

/// The whole exchanges of these entries (events are left out), in time order.
fn whole(log: &TrafficLog, mut entries: Vec<Entry>) -> CoreResult<Vec<Logged>> {
    entries.sort_by_key(Entry::id);
    let mut exchanges = Vec::new();
    for entry in entries {
        if let Entry::Exchange(summary) = entry {
            if let Some(Ok(exchange)) = log.get(summary.id)? {
                exchanges.push(exchange);
            }
        }
    }
    Ok(exchanges)
}

/// The flow of one journey of the traffic log: 404 RESOURCE_UNKNOWN at `id` when the log does not know
/// it.
pub fn journey(log: &TrafficLog, id: &str) -> CoreResult<FlowFile> {
    log.known_journey(id)?;
    let wanted = id.to_owned();
    let entries = log.page(None, 10_000, |e| e.journeys().contains(&wanted))?;
    let mut flow = flow_of(&whole(log, entries)?);
    flow.description = Some(format!("journey {id}"));
    Ok(flow)
}

/// The flow of every exchange logged after entry `after` (`serve --record`).
pub fn since(log: &TrafficLog, after: u64) -> CoreResult<FlowFile> {
    let mut entries = Vec::new();
    let mut last = after;
    loop {
        let page = log.after(last, 1000)?;
        let Some(end) = page.last().map(Entry::id) else {
            break;
        };
        last = end;
        entries.extend(page);
    }
    Ok(flow_of(&whole(log, entries)?))
}
