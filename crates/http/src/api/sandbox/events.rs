//! `GET /v1/sandbox/events`: the sandbox's event broadcast as a Server-Sent Events stream (`api::sse`), for
//! scripts and the workbench's live views; resumable with `Last-Event-ID`. A bank-side control: in shared
//! mode it needs the operator credential.

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use xs2a_workbench::app_state::AppState;

/// 200 `text/event-stream`: every event from now on (after the given one, when resuming).
pub async fn stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let resume = crate::api::sse::last_event_id(&headers, query.as_deref());
    crate::api::sse::stream(&state.events, resume, |_| true)
}
