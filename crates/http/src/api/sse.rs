//! Server-Sent Events over the event broadcast (`xs2a_core::bank::events`): each event is written with its number as
//! the SSE `id`, its kind as the event name and its JSON (`{"kind", "at", "data"}`) as data; a comment
//! every 15 seconds keeps idle connections open through proxies. A client that reconnects with
//! `Last-Event-ID` (or `?lastEventId=`, for an EventSource the page re-opened itself) first gets the kept
//! events after that one. A listener that falls behind is told how many events it missed (`event:
//! lagged`), and should read what it shows afresh.
//!
//! The frames are written here rather than with `axum::response::sse::Sse`, which takes a `futures`
//! `Stream`: the crate has no `futures` dependency, and the SSE wire format is three lines.

use axum::body::{Body, Bytes};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use hyper::body::Frame;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use xs2a_core::bank::events::{Event, Events};

/// How often an idle stream sends a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The SSE frame of one event.
fn frame(event: &Event) -> Bytes {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".to_owned());
    Bytes::from(format!(
        "id: {}\nevent: {}\ndata: {data}\n\n",
        event.id, event.kind
    ))
}

fn lagged(missed: u64) -> Bytes {
    Bytes::from(format!("event: lagged\ndata: {{\"missed\":{missed}}}\n\n"))
}

/// A response body fed by the forwarding task; ends when the task stops.
struct EventBody(mpsc::Receiver<Bytes>);

impl hyper::body::Body for EventBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|c| Ok(Frame::data(c))))
    }
}

/// A streaming body fed by a channel; it ends when the sender is dropped.
pub fn body_from(rx: mpsc::Receiver<Bytes>) -> Body {
    Body::new(EventBody(rx))
}

/// Where a reconnecting client left off: `Last-Event-ID`, else `?lastEventId=`.
pub fn last_event_id(headers: &HeaderMap, query: Option<&str>) -> Option<u64> {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
        .or_else(|| {
            query?.split('&').find_map(|pair| {
                let (key, value) = pair.split_once('=')?;
                (key == "lastEventId").then(|| value.parse().ok())?
            })
        })
}

/// 200 `text/event-stream`: the kept events after `resume_after` (when given), then every event from now
/// on that `keep` accepts, until the client goes away or the server stops.
pub fn stream(
    events: &Events,
    resume_after: Option<u64>,
    keep: impl Fn(&Event) -> bool + Send + 'static,
) -> Response {
    let (backlog, missed_some, mut live) = match resume_after {
        Some(last) => events.resume(last),
        None => (Vec::new(), false, events.subscribe()),
    };
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    let server_stops = events.streams_end();
    tokio::spawn(async move {
        tokio::pin!(server_stops);
        // The first bytes go out at once, so the client sees the stream open before any event.
        let mut opening = vec![Bytes::from_static(b": connected\n\n")];
        if missed_some {
            opening.push(lagged(0));
        }
        let mut last = resume_after.unwrap_or(0);
        for event in backlog.iter().filter(|e| keep(e)) {
            last = event.id;
            opening.push(frame(event));
        }
        for chunk in opening {
            if tx.send(chunk).await.is_err() {
                return;
            }
        }
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let chunk = tokio::select! {
                received = live.recv() => match received {
                    Ok(event) if event.id <= last || !keep(&event) => continue,
                    Ok(event) => frame(&event),
                    Err(broadcast::error::RecvError::Lagged(missed)) => lagged(missed),
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
    (
        [
            (CONTENT_TYPE, "text/event-stream"),
            (CACHE_CONTROL, "no-cache"),
        ],
        Body::new(EventBody(rx)),
    )
        .into_response()
}
