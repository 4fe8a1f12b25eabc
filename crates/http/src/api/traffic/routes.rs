//! `/workbench/api/traffic` and `/workbench/api/journeys` (docs/traffic-api.md): pages of the timeline with
//! filters, one entry whole, its HAR form, the live stream (resumable), journeys, and the log's caps.

use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use crate::api::query::ApiQuery;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::traffic::model::{Entry, EventEntry, Exchange, ExchangeSummary, Journey};
use xs2a_workbench::traffic::store::TrafficSettings;
use xs2a_workbench::traffic::Keep;

const DEFAULT_LIMIT: usize = 200;
const MAX_LIMIT: usize = 1000;

#[derive(Deserialize, Default)]
pub struct Filters {
    before: Option<u64>,
    limit: Option<usize>,
    tpp: Option<String>,
    psu: Option<String>,
    status: Option<String>,
    failed: Option<bool>,
    resource: Option<String>,
    journey: Option<String>,
    q: Option<String>,
    kind: Option<String>,
}

impl Filters {
    fn check(&self) -> ApiResult<()> {
        if let Some(status) = &self.status {
            if !matches!(status.as_str(), "2xx" | "3xx" | "4xx" | "5xx") {
                return Err(ApiError::format(
                    "status",
                    "status must be 2xx, 3xx, 4xx or 5xx",
                ));
            }
        }
        if let Some(kind) = &self.kind {
            if kind != "exchange" && kind != "event" {
                return Err(ApiError::format("kind", "kind must be exchange or event"));
            }
        }
        if let Some(resource) = &self.resource {
            if !resource.contains(':') {
                return Err(ApiError::format(
                    "resource",
                    "resource must be <kind>:<id>, e.g. payment:3f2…",
                ));
            }
        }
        Ok(())
    }

    /// Whether an entry passes every filter given, or needs its exchange read whole to decide: text
    /// (`q`) found nowhere in the summary may be in a body.
    fn keeps(&self, entry: &Entry) -> Keep {
        if !self.keeps_summary(entry) {
            return Keep::No;
        }
        match (entry, self.text()) {
            (Entry::Exchange(e), Some(q)) if !summary_holds(e, &q) => Keep::IfWhole,
            _ => Keep::Yes,
        }
    }

    /// The searched text, lower-cased (the search ignores case); none when empty.
    fn text(&self) -> Option<String> {
        self.q
            .as_deref()
            .filter(|q| !q.is_empty())
            .map(str::to_lowercase)
    }

    /// Whether an exchange's identifying request headers ([`SEARCHED_HEADERS`]) or its request or response
    /// body hold the searched text.
    fn whole_holds(&self, exchange: &Exchange) -> bool {
        let Some(q) = self.text() else {
            return true;
        };
        let headers_hold = exchange.request.headers.iter().any(|(name, value)| {
            SEARCHED_HEADERS
                .iter()
                .any(|searched| name.eq_ignore_ascii_case(searched))
                && value.to_lowercase().contains(&q)
        });
        headers_hold
            || [&exchange.request, &exchange.response]
                .iter()
                .any(|message| {
                    !message.body_base64
                        && message
                            .body
                            .as_deref()
                            .is_some_and(|body| body.to_lowercase().contains(&q))
                })
    }

    /// Whether an entry passes every filter but the text search of exchanges (events are searched whole:
    /// their data is in the summary).
    fn keeps_summary(&self, entry: &Entry) -> bool {
        if let Some(kind) = &self.kind {
            let is_exchange = matches!(entry, Entry::Exchange(_));
            if (kind == "exchange") != is_exchange {
                return false;
            }
        }
        if let Some(journey) = &self.journey {
            if !entry.journeys().iter().any(|j| j == journey) {
                return false;
            }
        }
        if let Some(resource) = &self.resource {
            let (kind, id) = resource.split_once(':').unwrap_or_default();
            if !entry
                .resources()
                .iter()
                .any(|r| r.kind == kind && r.id == id)
            {
                return false;
            }
        }
        let Entry::Exchange(e) = entry else {
            return self.tpp.is_none()
                && self.psu.is_none()
                && self.status.is_none()
                && self.failed != Some(true)
                && self.q.as_deref().is_none_or(|q| {
                    let Entry::Event(ev) = entry else {
                        return false;
                    };
                    ev.event.contains(q) || ev.data.to_string().contains(q)
                });
        };
        if let Some(tpp) = &self.tpp {
            if e.tpp.as_ref().is_none_or(|t| &t.organisation_id != tpp) {
                return false;
            }
        }
        if let Some(psu) = &self.psu {
            if e.psu_id.as_ref() != Some(psu) {
                return false;
            }
        }
        if let Some(status) = &self.status {
            if status.as_bytes()[0] != b'0' + (e.status / 100) as u8 {
                return false;
            }
        }
        if self.failed == Some(true) && !e.is_refused() {
            return false;
        }
        true
    }
}

/// The request headers the search looks in besides the summary: the ids a TPP developer has in their own
/// logs and pastes (X-Request-ID above all). Not every header: a short text would match inside the
/// certificate's base64 or a Signature.
const SEARCHED_HEADERS: [&str; 5] = [
    "x-request-id",
    "tpp-session-id",
    "psu-id",
    "psu-corporate-id",
    "consent-id",
];

/// Whether the searched text `q` (lower-cased) is in an exchange's method, path, query, code, TPP name,
/// PSU-ID, TPP-Session-ID or the ids of the resources it names (an authorisation's among them).
fn summary_holds(e: &ExchangeSummary, q: &str) -> bool {
    let hay = [
        e.method.as_str(),
        e.path.as_str(),
        e.query.as_deref().unwrap_or(""),
        e.code.as_deref().unwrap_or(""),
        e.tpp.as_ref().map_or("", |t| t.name.as_str()),
        e.psu_id.as_deref().unwrap_or(""),
        e.tpp_session_id.as_deref().unwrap_or(""),
    ];
    hay.iter().any(|h| h.to_lowercase().contains(q))
        || e.resources.iter().any(|r| r.id.to_lowercase().contains(q))
}

/// A page of the timeline.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    /// Newest first.
    entries: Vec<Entry>,
    /// The `before` of the next (older) page; null on the last page.
    #[schema(required = true)]
    next_before: Option<u64>,
}

/// One entry whole: an exchange with its headers, bodies and gate verdict, or an event.
#[allow(clippy::large_enum_variant)]
#[derive(Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum WholeEntry {
    Exchange(Exchange),
    Event(EventEntry),
}

/// One journey and its entries in time order.
#[derive(Serialize, utoipa::ToSchema)]
pub struct JourneyEntries {
    journey: Journey,
    entries: Vec<Entry>,
}

/// 200 `{entries, nextBefore}`: a page of the timeline, newest first.
pub async fn page(
    State(state): State<AppState>,
    ApiQuery(filters): ApiQuery<Filters>,
) -> ApiResult<Json<Page>> {
    filters.check()?;
    let limit = filters.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let traffic = state.traffic.clone();
    let before = filters.before;
    let entries = tokio::task::spawn_blocking(move || {
        traffic.page_searching(
            before,
            limit,
            |e| filters.keeps(e),
            |x| filters.whole_holds(x),
        )
    })
    .await
    .map_err(ApiError::internal)??;
    let next = (entries.len() == limit)
        .then(|| entries.last().map(Entry::id))
        .flatten();
    Ok(Json(Page {
        entries,
        next_before: next,
    }))
}

/// One entry whole; a number already handed out but not yet stored is waited for, so that the composer's
/// answer (which names its exchange) can be followed by a read of it at once.
async fn entry(
    state: &AppState,
    id: u64,
) -> ApiResult<
    Option<
        Result<
            xs2a_workbench::traffic::model::Exchange,
            xs2a_workbench::traffic::model::EventEntry,
        >,
    >,
> {
    if let Some(found) = state.traffic.get(id)? {
        return Ok(Some(found));
    }
    if !state.traffic.issued(id) {
        return Ok(None);
    }
    state.traffic.settled().await;
    Ok(state.traffic.get(id)?)
}

/// 200: one entry whole.
pub async fn one(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
) -> ApiResult<Json<WholeEntry>> {
    match entry(&state, id).await? {
        Some(Ok(exchange)) => Ok(Json(WholeEntry::Exchange(exchange))),
        Some(Err(event)) => Ok(Json(WholeEntry::Event(event))),
        None => Err(ApiError::unknown("id", "traffic entry", &id.to_string())),
    }
}

/// 200: the exchange as a HAR 1.2 entry.
pub async fn har(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
) -> ApiResult<Json<xs2a_workbench::traffic::har::Entry<xs2a_workbench::traffic::har::ExchangeId>>>
{
    match entry(&state, id).await? {
        Some(Ok(exchange)) => Ok(Json(xs2a_workbench::traffic::har::entry(
            &exchange,
            &state.base_url(),
        ))),
        _ => Err(ApiError::unknown("id", "exchange", &id.to_string())),
    }
}

fn frame(entry: &Entry) -> Bytes {
    let data = serde_json::to_string(entry).unwrap_or_default();
    Bytes::from(format!(
        "id: {}\nevent: entry\ndata: {data}\n\n",
        entry.id()
    ))
}

/// 200 `text/event-stream`: every new entry, after the kept ones since `Last-Event-ID`.
pub async fn stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let resume = crate::api::sse::last_event_id(&headers, query.as_deref());
    let mut live = state.traffic.subscribe();
    let backlog = match resume {
        Some(last) => state.traffic.after(last, 50_000).unwrap_or_default(),
        None => Vec::new(),
    };
    let (tx, rx) = mpsc::channel::<Bytes>(256);
    let server_stops = state.events.streams_end();
    tokio::spawn(async move {
        tokio::pin!(server_stops);
        let mut last = resume.unwrap_or(0);
        let _ = tx.send(Bytes::from_static(b": connected\n\n")).await;
        for entry in &backlog {
            last = last.max(entry.id());
            if tx.send(frame(entry)).await.is_err() {
                return;
            }
        }
        let mut keep_alive = tokio::time::interval(Duration::from_secs(15));
        keep_alive.tick().await;
        loop {
            let chunk = tokio::select! {
                received = live.recv() => match received {
                    Ok(entry) if entry.id() <= last && resume.is_some() => continue,
                    Ok(entry) => frame(&entry),
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        Bytes::from(format!("event: lagged\ndata: {{\"missed\":{missed}}}\n\n"))
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = keep_alive.tick() => Bytes::from_static(b": keep-alive\n\n"),
                _ = tx.closed() => return,
                () = &mut server_stops => return,
            };
            if tx.send(chunk).await.is_err() {
                return;
            }
        }
    });
    let body = crate::api::sse::body_from(rx);
    (
        [
            (CONTENT_TYPE, "text/event-stream"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// 200: the journeys, the most recently active first.
pub async fn journeys(
    State(state): State<AppState>,
    ApiQuery(filters): ApiQuery<Filters>,
) -> Json<Vec<Journey>> {
    let limit = filters.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    Json(state.traffic.journeys(limit))
}

/// 200 `{journey, entries}`: one journey's entries in time order.
pub async fn journey(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<JourneyEntries>> {
    let journey = state
        .traffic
        .journey(&id)
        .ok_or_else(|| ApiError::unknown("id", "journey", &id))?;
    let traffic = state.traffic.clone();
    let wanted = id.clone();
    let mut entries = tokio::task::spawn_blocking(move || {
        traffic.page(None, 10_000, |e| e.journeys().contains(&wanted))
    })
    .await
    .map_err(ApiError::internal)??;
    entries.reverse();
    Ok(Json(JourneyEntries { journey, entries }))
}

/// 200: the log's switches and caps.
pub async fn settings(State(state): State<AppState>) -> Json<TrafficSettings> {
    Json(state.traffic.settings())
}

/// 200: the caps after the change.
pub async fn set_settings(
    State(state): State<AppState>,
    JsonBody(settings): JsonBody<TrafficSettings>,
) -> ApiResult<Json<TrafficSettings>> {
    Ok(Json(state.traffic.set_settings(settings)?))
}

/// 200: the log emptied — every entry, its files and the journeys — on disk before it answers
/// (docs/traffic-api.md, Clearing the log); then `traffic.cleared` on the workbench's events.
pub async fn clear(
    State(state): State<AppState>,
) -> ApiResult<Json<xs2a_workbench::traffic::TrafficCleared>> {
    let traffic = state.traffic.clone();
    let cleared = tokio::task::spawn_blocking(move || traffic.clear())
        .await
        .map_err(ApiError::internal)??;
    state.events.publish(
        xs2a_core::bank::events::EventKind::TrafficCleared,
        state.clock.now(),
        serde_json::to_value(cleared).map_err(ApiError::internal)?,
    );
    Ok(Json(cleared))
}
