//! The sandbox's event broadcast as a Server-Sent Events stream (`api::sse`), resumable with
//! `Last-Event-ID`: the one handler of `GET /v1/sandbox/events` (for scripts; a bank-side control, so in
//! shared mode it needs the operator credential) and `GET /workbench/api/events` (the workbench's live
//! views).

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use xs2a_workbench::app_state::AppState;

/// 200 `text/event-stream`: every event from now on (after the kept ones since the given one, when
/// resuming).
pub async fn stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let resume_after = crate::api::sse::last_event_id(&headers, query.as_deref());
    let (backlog, missed_some, live) = match resume_after {
        Some(last) => state.events.resume(last),
        None => (Vec::new(), false, state.events.subscribe()),
    };
    let feed = crate::api::sse::Feed {
        backlog,
        missed_some,
        live,
        resume_after,
    };
    crate::api::sse::respond(feed, state.events.streams_end())
}
