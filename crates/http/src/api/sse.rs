//! Server-Sent Events through axum's `Sse`, for the sandbox's event broadcast
//! (`xs2a_core::bank::events`: `/v1/sandbox/events`, `/workbench/api/events`) and the traffic log's new
//! entries (`/workbench/api/traffic/stream`). Each item is written with its number as the SSE `id`, its
//! name as the event name and its JSON as data; a `: keep-alive` comment after 15 quiet seconds keeps idle
//! connections open through proxies. A client that reconnects with `Last-Event-ID` (or `?lastEventId=`,
//! for an EventSource the page re-opened itself) first gets the kept items after that one. A listener
//! that falls behind is told how many items it missed (`event: lagged`), and should read what it shows
//! afresh. Every stream ends when the server stops.

use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, StreamExt};
use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;
use tokio::sync::broadcast;

/// How long a stream stays quiet before it sends a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What a stream sends: the kept items after the client's last one, then the live ones.
pub struct Feed<T> {
    /// The kept items after `resume_after`, oldest first (empty when not resuming).
    pub backlog: Vec<T>,
    /// Whether items after `resume_after` were no longer kept (the client is told: `lagged` 0).
    pub missed_some: bool,
    /// Every item from now on.
    pub live: broadcast::Receiver<T>,
    /// The last item the client saw, when it reconnects.
    pub resume_after: Option<u64>,
}

/// How an item goes on the wire: its number (the SSE `id`), its event name and its JSON.
pub trait Item: Clone + Send + 'static {
    fn number(&self) -> u64;
    fn name(&self) -> String;
    fn json(&self) -> String;
}

impl Item for xs2a_core::bank::events::Event {
    fn number(&self) -> u64 {
        self.id
    }
    fn name(&self) -> String {
        self.kind.to_string()
    }
    fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }
}

/// The traffic log announces its entries behind an `Arc` (one allocation shared by every listener).
impl Item for std::sync::Arc<xs2a_workbench::traffic::model::Entry> {
    fn number(&self) -> u64 {
        self.id()
    }
    fn name(&self) -> String {
        "entry".to_owned()
    }
    fn json(&self) -> String {
        serde_json::to_string(&**self).unwrap_or_else(|_| "{}".to_owned())
    }
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

fn frame<T: Item>(item: &T) -> SseEvent {
    SseEvent::default()
        .id(item.number().to_string())
        .event(item.name())
        .data(item.json())
}

fn lagged(missed: u64) -> SseEvent {
    SseEvent::default()
        .event("lagged")
        .data(format!("{{\"missed\":{missed}}}"))
}

/// The live part of a stream: what it holds between two items.
struct Live<T> {
    receiver: broadcast::Receiver<T>,
    /// The newest item sent (the backlog's last, or the client's), so a live item the backlog already
    /// carried is not sent twice.
    last: Option<u64>,
    server_stops: std::pin::Pin<Box<dyn Future<Output = ()> + Send>>,
}

impl<T: Item> Live<T> {
    /// The next frame, or none when the broadcast closes or the server stops.
    async fn next(&mut self) -> Option<SseEvent> {
        loop {
            tokio::select! {
                received = self.receiver.recv() => match received {
                    Ok(item) if self.last.is_some_and(|last| item.number() <= last) => continue,
                    Ok(item) => return Some(frame(&item)),
                    Err(broadcast::error::RecvError::Lagged(missed)) => return Some(lagged(missed)),
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                () = &mut self.server_stops => return None,
            }
        }
    }
}

/// 200 `text/event-stream`: `: connected` at once (so the client sees the stream open before any
/// item), the backlog, then every live item, until the client goes away or `server_stops` ends.
pub fn respond<T: Item>(
    feed: Feed<T>,
    server_stops: impl Future<Output = ()> + Send + 'static,
) -> Response {
    let mut opening = vec![SseEvent::default().comment("connected")];
    if feed.missed_some {
        opening.push(lagged(0));
    }
    let mut last = feed.resume_after;
    for item in &feed.backlog {
        last = Some(last.map_or(item.number(), |l| l.max(item.number())));
        opening.push(frame(item));
    }
    let live = Live {
        receiver: feed.live,
        last,
        server_stops: Box::pin(server_stops),
    };
    let live = stream::unfold(live, |mut live| async move {
        let event = live.next().await?;
        Some((event, live))
    });
    let events = stream::iter(opening).chain(live).map(Ok::<_, Infallible>);
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"))
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;

    fn event(id: u64) -> xs2a_core::bank::events::Event {
        xs2a_core::bank::events::Event {
            id,
            kind: xs2a_core::bank::events::EventKind::TrafficCleared,
            entry: None,
            at: time::macros::datetime!(2026-01-02 03:04:05 UTC),
            data: serde_json::json!({"removed": 1}),
        }
    }

    /// The bytes on the wire: the opening comment, the `lagged` notice, and each item as `id`, `event`,
    /// `data`; a live item the backlog carried is not sent twice; the stream ends with the server.
    #[tokio::test]
    async fn frames_each_item_as_before() {
        let (sender, receiver) = broadcast::channel(8);
        let feed = Feed {
            backlog: vec![event(2)],
            missed_some: true,
            live: receiver,
            resume_after: Some(1),
        };
        sender.send(event(2)).unwrap();
        sender.send(event(3)).unwrap();
        drop(sender);
        let response = respond(feed, std::future::pending());
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        assert_eq!(response.headers()["cache-control"], "no-cache");
        let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let data = r#"{"kind":"traffic.cleared","at":"2026-01-02T03:04:05Z","data":{"removed":1}}"#;
        assert_eq!(
            String::from_utf8(body.to_vec()).unwrap(),
            format!(
                ": connected\n\nevent: lagged\ndata: {{\"missed\":0}}\n\n\
                 id: 2\nevent: traffic.cleared\ndata: {data}\n\n\
                 id: 3\nevent: traffic.cleared\ndata: {data}\n\n"
            )
        );
    }

    #[tokio::test]
    async fn ends_when_the_server_stops() {
        let (_sender, receiver) = broadcast::channel::<xs2a_core::bank::events::Event>(8);
        let feed = Feed {
            backlog: Vec::new(),
            missed_some: false,
            live: receiver,
            resume_after: None,
        };
        let response = respond(feed, std::future::ready(()));
        let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        assert_eq!(&body[..], b": connected\n\n");
    }

    #[test]
    fn reads_where_the_client_left_off() {
        let mut headers = HeaderMap::new();
        assert_eq!(last_event_id(&headers, Some("a=1&lastEventId=7")), Some(7));
        headers.insert("last-event-id", " 9 ".parse().unwrap());
        assert_eq!(last_event_id(&headers, Some("lastEventId=7")), Some(9));
        assert_eq!(last_event_id(&HeaderMap::new(), None), None);
    }
}
