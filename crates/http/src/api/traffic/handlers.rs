//! `/workbench/api/traffic` and `/workbench/api/journeys` (docs/traffic-api.md): pages of the timeline with
//! filters, one entry whole, its HAR form, the live stream (resumable), journeys, and the log's caps.

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use crate::api::query::ApiQuery;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::traffic::filters::Filters;
use xs2a_workbench::traffic::model::{Entry, EventEntry, Exchange, Journey};
use xs2a_workbench::traffic::store::TrafficSettings;

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
    let limit = filters.limit();
    let traffic = state.traffic.clone();
    let before = filters.before();
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

/// 200: one entry whole.
pub async fn one(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
) -> ApiResult<Json<WholeEntry>> {
    Ok(Json(match state.traffic.entry(id).await? {
        Ok(exchange) => WholeEntry::Exchange(exchange),
        Err(event) => WholeEntry::Event(event),
    }))
}

/// 200: the exchange as a HAR 1.2 entry.
pub async fn har(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<u64>,
) -> ApiResult<Json<xs2a_workbench::traffic::har::Entry<xs2a_workbench::traffic::har::ExchangeId>>>
{
    let exchange = state.traffic.exchange(id).await?;
    Ok(Json(xs2a_workbench::traffic::har::entry(
        &exchange,
        &state.base_url(),
    )))
}

/// 200 `text/event-stream`: every new entry, after the kept ones since `Last-Event-ID`.
pub async fn stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let resume_after = crate::api::sse::last_event_id(&headers, query.as_deref());
    let live = state.traffic.subscribe();
    let backlog = match resume_after {
        Some(last) => state
            .traffic
            .after(last, 50_000)
            .unwrap_or_default()
            .into_iter()
            .map(std::sync::Arc::new)
            .collect(),
        None => Vec::new(),
    };
    let feed = crate::api::sse::Feed {
        backlog,
        missed_some: false,
        live,
        resume_after,
    };
    crate::api::sse::respond(feed, state.events.streams_end())
}

/// 200: the journeys, the most recently active first.
pub async fn journeys(
    State(state): State<AppState>,
    ApiQuery(filters): ApiQuery<Filters>,
) -> Json<Vec<Journey>> {
    Json(state.traffic.journeys(filters.limit()))
}

/// 200 `{journey, entries}`: one journey's entries in time order.
pub async fn journey(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<JourneyEntries>> {
    let journey = state.traffic.known_journey(&id)?;
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
