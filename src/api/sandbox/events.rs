//! `GET /v1/sandbox/events`: the sandbox's event broadcast (`crate::events`) as a Server-Sent Events
//! stream, for the workbench's live views and for scripts: each event is written with its kind as the SSE
//! event name and its JSON (`{"kind", "at", "data"}`) as data; a comment line every 15 seconds keeps idle
//! connections open through proxies. Signed like every /v1 request.
//!
//! The frames are written here rather than with `axum::response::sse::Sse`, which takes a `futures`
//! `Stream`: the crate has no `futures` dependency, and the SSE wire format is three lines. A listener that
//! falls more than the broadcast's capacity behind is told how many events it missed (`event: lagged`).

use crate::events::Event;
use crate::state::AppState;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use hyper::body::Frame;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// How often an idle stream sends a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The SSE frame of one event.
fn frame(event: &Event) -> Bytes {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".to_owned());
    Bytes::from(format!("event: {}\ndata: {data}\n\n", event.kind))
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

/// 200 `text/event-stream`: every event from now on, until the client goes away.
pub async fn stream(State(state): State<AppState>) -> Response {
    let mut events = state.events.subscribe();
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    tokio::spawn(async move {
        // The first bytes go out at once, so the client sees the stream open before any event.
        if tx
            .send(Bytes::from_static(b": connected\n\n"))
            .await
            .is_err()
        {
            return;
        }
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let chunk = tokio::select! {
                received = events.recv() => match received {
                    Ok(event) => frame(&event),
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        Bytes::from(format!("event: lagged\ndata: {{\"missed\":{missed}}}\n\n"))
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = keep_alive.tick() => Bytes::from_static(b": keep-alive\n\n"),
                _ = tx.closed() => return,
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
