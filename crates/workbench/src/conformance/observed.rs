//! What the rules grade: the selected traffic as one ordered list of observed exchanges (from the traffic
//! log, or from a recorded flow file's steps) plus the PSU's SCA steps a flow file records on their own.
//! A flow file keeps no times and none of the headers signing makes, so a selection says whether its
//! exchanges are timed and signed; rules that need either say NOT EXERCISED without them.

use crate::flow::model::{FlowFile, Step};
use crate::traffic::model::{Exchange, GateVerdict};
use serde_json::Value;
use time::OffsetDateTime;

use xs2a_core::bank::mock::PLATFORM_PREFIX;

/// The part of the service an exchange went to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// The bank's interface (`/v1`, not `/v1/sandbox`): what production sees.
    Bank,
    /// `/v1/sandbox`: mock data, the clock, SCA automation. Production has none of it.
    Sandbox,
    /// The bank's SCA pages, requested by the PSU's browser.
    ScaPage,
    Other,
}

impl Area {
    pub fn of_log(area: &str) -> Area {
        match area {
            "bank" => Area::Bank,
            "sandbox" => Area::Sandbox,
            "sca-page" => Area::ScaPage,
            _ => Area::Other,
        }
    }

    /// The area of a path, as the traffic log's capture decides it.
    pub fn of_path(path: &str) -> Area {
        let v1 = path
            .strip_prefix(PLATFORM_PREFIX)
            .or_else(|| path.strip_prefix("/v1"));
        match v1 {
            Some(rest) if rest.starts_with("/sandbox/") || rest == "/sandbox" => Area::Sandbox,
            Some(rest) if rest.is_empty() || rest.starts_with('/') => Area::Bank,
            _ if path.starts_with("/sca/") => Area::ScaPage,
            _ => Area::Other,
        }
    }
}

/// One exchange as the rules see it.
#[derive(Debug, Clone)]
pub struct Observed {
    /// The traffic log's entry number.
    pub exchange_id: Option<u64>,
    /// The flow file's step number (1-based).
    pub step: Option<u32>,
    /// The sandbox clock's time of the request.
    pub at: Option<OffsetDateTime>,
    pub duration_ms: Option<u64>,
    pub method: String,
    /// The path without the query.
    pub path: String,
    pub query: Option<String>,
    pub area: Area,
    pub status: u16,
    pub request_headers: Vec<(String, String)>,
    pub request_body: Option<String>,
    /// A body came that is not UTF-8 text (kept as base64 by the log; not given here).
    pub request_body_binary: bool,
    pub response_headers: Vec<(String, String)>,
    pub response_body: Option<String>,
    /// The gate's verdict (traffic log only).
    pub gate: Option<GateVerdict>,
    pub journeys: Vec<String>,
}

impl Observed {
    pub fn from_log(exchange: &Exchange) -> Observed {
        let summary = &exchange.summary;
        Observed {
            exchange_id: Some(summary.id),
            step: None,
            at: Some(summary.at),
            duration_ms: Some(summary.duration_ms),
            method: summary.method.clone(),
            path: summary.path.clone(),
            query: summary.query.clone(),
            area: Area::of_log(&summary.area),
            status: summary.status,
            request_headers: exchange.request.headers.clone(),
            request_body: exchange
                .request
                .body
                .clone()
                .filter(|_| !exchange.request.body_base64),
            request_body_binary: exchange.request.body_base64 && exchange.request.body_bytes > 0,
            response_headers: exchange.response.headers.clone(),
            response_body: exchange
                .response
                .body
                .clone()
                .filter(|_| !exchange.response.body_base64),
            gate: exchange.gate.clone(),
            journeys: summary.journeys.clone(),
        }
    }

    /// Path and query as sent.
    pub fn target(&self) -> String {
        match &self.query {
            Some(q) if !q.is_empty() => format!("{}?{q}", self.path),
            _ => self.path.clone(),
        }
    }
}

/// The PSU's SCA as a flow file records it (the traffic log shows it as page exchanges instead).
#[derive(Debug, Clone)]
pub struct RecordedSca {
    /// The step number in the flow file.
    pub step: u32,
    pub authorisation_id: String,
    /// success, cancel or failure.
    pub outcome: String,
    pub national_id: Option<String>,
    pub context: Option<String>,
    pub psu_id: Option<String>,
}

/// One item of the selection, in the order it happened.
#[derive(Debug, Clone)]
// Nearly every item is an exchange, read in bulk into one Vec: boxing the large variant would allocate
// once per exchange to save room only on the few SCA page items.
#[allow(clippy::large_enum_variant)]
pub enum Item {
    Exchange(Observed),
    Sca(RecordedSca),
}

/// The traffic to grade.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub items: Vec<Item>,
    /// False for a flow file: the exchanges have no times.
    pub timed: bool,
    /// False for a flow file: the signing headers (Date, Signature, certificate, ...) were left out.
    pub signed: bool,
}

impl Selection {
    /// The traffic log's exchanges (already selected), oldest first.
    pub fn from_log(exchanges: &[Exchange]) -> Selection {
        let mut ordered: Vec<&Exchange> = exchanges.iter().collect();
        ordered.sort_by_key(|e| e.summary.id);
        Selection {
            items: ordered
                .into_iter()
                .map(|e| Item::Exchange(Observed::from_log(e)))
                .collect(),
            timed: true,
            signed: true,
        }
    }

    /// A recorded flow's steps.
    pub fn from_flow(flow: &FlowFile) -> Selection {
        let mut items = Vec::with_capacity(flow.steps.len());
        for (index, step) in flow.steps.iter().enumerate() {
            let number = index as u32 + 1;
            match step {
                Step::Exchange(exchange) => {
                    let (path, query) = match exchange.request.path.split_once('?') {
                        Some((path, query)) => (path.to_owned(), Some(query.to_owned())),
                        None => (exchange.request.path.clone(), None),
                    };
                    items.push(Item::Exchange(Observed {
                        exchange_id: None,
                        step: Some(number),
                        at: None,
                        duration_ms: None,
                        method: exchange.request.method.to_ascii_uppercase(),
                        area: Area::of_path(&path),
                        path,
                        query,
                        status: exchange.response.status,
                        request_headers: exchange.request.headers.clone(),
                        request_body: exchange.request.body.clone(),
                        request_body_binary: false,
                        response_headers: Vec::new(),
                        response_body: exchange.response.body.clone(),
                        gate: None,
                        journeys: Vec::new(),
                    }));
                }
                Step::Sca(sca) => {
                    let text = |name: &str| sca.drive[name].as_str().map(str::to_owned);
                    items.push(Item::Sca(RecordedSca {
                        step: number,
                        authorisation_id: sca.authorisation_id.clone(),
                        outcome: text("outcome").unwrap_or_else(|| "success".into()),
                        national_id: text("nationalId"),
                        context: text("context"),
                        psu_id: sca.psu_id.clone(),
                    }));
                }
            }
        }
        Selection {
            items,
            timed: false,
            signed: false,
        }
    }

    pub fn exchanges(&self) -> impl Iterator<Item = &Observed> {
        self.items.iter().filter_map(|i| match i {
            Item::Exchange(e) => Some(e),
            Item::Sca(_) => None,
        })
    }
}

/// A JSON body, if it is one.
pub fn json_of(body: Option<&str>) -> Option<Value> {
    body.filter(|b| !b.trim().is_empty())
        .and_then(|b| serde_json::from_str(b).ok())
}
