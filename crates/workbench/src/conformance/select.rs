//! Choosing the traffic to grade: from the traffic log, one TPP's exchanges (by its certificate's
//! organisation identifier) within a window of the sandbox clock or one journey, together with the PSU's
//! requests on the SCA pages of the authorisations that TPP started (the browser sends no certificate);
//! or a recorded flow file. Also the TPPs the log has seen, for a picker.

use super::observed::Selection;
use super::About;
use crate::flow::FlowFile;
use crate::traffic::model::{Entry, Exchange, ExchangeSummary};
use crate::traffic::TrafficLog;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use time::OffsetDateTime;
use xs2a_core::domain::refusal::CoreResult;

/// The most exchanges one report grades (the newest are kept, and the report says so).
pub const MAX_EXCHANGES: usize = 20_000;

/// What to select from the traffic log.
#[derive(Debug, Clone, Default)]
pub struct Ask {
    /// The TPP's organisation identifier (as the traffic log names it).
    pub tpp: Option<String>,
    pub since: Option<OffsetDateTime>,
    pub until: Option<OffsetDateTime>,
    pub journey: Option<String>,
}

impl Ask {
    fn in_window(&self, at: OffsetDateTime) -> bool {
        self.since.is_none_or(|s| at >= s) && self.until.is_none_or(|u| at <= u)
    }

    fn wants(&self, summary: &ExchangeSummary) -> bool {
        if !self.in_window(summary.at) {
            return false;
        }
        if let Some(journey) = &self.journey {
            if !summary.journeys.iter().any(|j| j == journey) {
                return false;
            }
        }
        let ours = match &self.tpp {
            Some(tpp) => summary
                .tpp
                .as_ref()
                .is_some_and(|t| t.organisation_id == *tpp),
            None => true,
        };
        // The PSU's page requests carry no certificate: kept for now, matched to the TPP below.
        ours || summary.area == "sca-page"
    }
}

/// The authorisations an exchange names (its path, its scaRedirect).
fn authorisations(exchange: &Exchange) -> impl Iterator<Item = &str> {
    exchange
        .summary
        .resources
        .iter()
        .filter(|r| r.kind == "authorisation")
        .map(|r| r.id.as_str())
}

/// The selection `ask` names, and what the report should say about it.
pub fn from_log(log: &TrafficLog, ask: &Ask) -> CoreResult<(Selection, About)> {
    let (mut exchanges, truncated) = log.exchanges_where(|s| ask.wants(s), MAX_EXCHANGES)?;
    let is_page = |e: &Exchange| e.summary.area == "sca-page";
    let started: HashSet<String> = exchanges
        .iter()
        .filter(|e| !is_page(e))
        .flat_map(|e| authorisations(e).map(str::to_owned))
        .collect();
    exchanges.retain(|e| !is_page(e) || authorisations(e).any(|a| started.contains(a)));
    let tpp = exchanges
        .iter()
        .find_map(|e| e.summary.tpp.as_ref())
        .map(|t| super::model::TppNamed {
            organisation_id: t.organisation_id.clone(),
            name: t.name.clone(),
        })
        .or_else(|| {
            ask.tpp.as_ref().map(|id| super::model::TppNamed {
                organisation_id: id.clone(),
                name: String::new(),
            })
        });
    let about = About {
        tpp,
        since: ask.since,
        until: ask.until,
        journey: ask.journey.clone(),
        flow_file: None,
        truncated,
    };
    Ok((Selection::from_log(&exchanges), about))
}

/// A flow file's steps, named after the file.
pub fn from_flow(flow: &FlowFile, name: &str, tpp: Option<String>) -> (Selection, About) {
    let about = About {
        tpp: tpp.map(|id| super::model::TppNamed {
            organisation_id: id,
            name: String::new(),
        }),
        flow_file: Some(name.to_owned()),
        ..About::default()
    };
    (Selection::from_flow(flow), about)
}

/// A TPP the traffic log has seen.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceTppSeen)]
pub struct TppSeen {
    pub organisation_id: String,
    pub name: String,
    /// Its exchanges in the log.
    pub exchanges: u32,
    #[serde(with = "time::serde::rfc3339")]
    pub first_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_at: OffsetDateTime,
}

/// Every TPP with exchanges in the log, the most recently active first.
pub fn tpps(log: &TrafficLog) -> CoreResult<Vec<TppSeen>> {
    let seen: Mutex<HashMap<String, TppSeen>> = Mutex::new(HashMap::new());
    // `page` hands every entry to the filter; keeping none, it collects nothing.
    log.page(None, 1, |entry| {
        if let Entry::Exchange(summary) = entry {
            if let Some(tpp) = summary
                .tpp
                .as_ref()
                .filter(|t| !t.organisation_id.is_empty())
            {
                let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
                let row = seen
                    .entry(tpp.organisation_id.clone())
                    .or_insert_with(|| TppSeen {
                        organisation_id: tpp.organisation_id.clone(),
                        name: tpp.name.clone(),
                        exchanges: 0,
                        first_at: summary.at,
                        last_at: summary.at,
                    });
                row.exchanges += 1;
                row.first_at = row.first_at.min(summary.at);
                row.last_at = row.last_at.max(summary.at);
            }
        }
        false
    })?;
    let mut all: Vec<TppSeen> = seen
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_values()
        .collect();
    all.sort_by(|a, b| b.last_at.cmp(&a.last_at).then(a.name.cmp(&b.name)));
    Ok(all)
}
