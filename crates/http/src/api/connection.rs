//! One HTTP/1.1 connection under the transport's clocks, the same for plain HTTP and TLS:
//! - **header read timeout**: from the first byte of a request until its headers are complete, so a
//!   client that dribbles its headers is cut off;
//! - **idle timeout**: while no request is under way and none has begun (before the first one, and
//!   between requests on a keep-alive connection).
//!
//! hyper's own `header_read_timeout` starts when the connection waits for a request, so on a keep-alive
//! connection it also counts the idle time before the next one: the two limits could not differ. Here
//! the connection's reads and its requests are watched instead, and the connection is dropped (the
//! socket closed) when the deadline of its current phase passes. While a request is under way (its
//! body is read within `Limits::body_read_timeout` by `api::limits`; an event stream may answer for
//! hours) neither clock runs.

use super::limits::{Limits, REQUEST_LINE_ROOM};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::response::Response;
use axum::Router;
use bytes::Bytes;
use hyper::body::Incoming;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;
use tower::ServiceExt;

/// hyper's default connection buffer (8 KiB + 100 × 4 KiB), kept unless the header limit needs more.
const DEFAULT_MAX_BUF_SIZE: usize = 8192 + 4096 * 100;

/// Why a connection was closed by its clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    HeaderReadTimeout,
    IdleTimeout,
}

/// The connection's phase, as its reads and requests tell it.
#[derive(Debug)]
struct Phase {
    /// Requests whose response has not been fully sent.
    in_flight: usize,
    /// When the first byte of the next request's head arrived, if one has.
    head_started: Option<Instant>,
    /// Since when nothing has been under way.
    idle_since: Instant,
}

/// Shared between the connection's reader, its service and its watchdog.
#[derive(Debug)]
pub struct Activity {
    phase: Mutex<Phase>,
    changed: Notify,
}

impl Activity {
    pub fn new() -> Arc<Activity> {
        Arc::new(Activity {
            phase: Mutex::new(Phase {
                in_flight: 0,
                head_started: None,
                idle_since: Instant::now(),
            }),
            changed: Notify::new(),
        })
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Bytes were read from the client: if nothing was under way, a request's head has begun.
    fn bytes_arrived(&self) {
        let mut phase = self.phase();
        if phase.in_flight == 0 && phase.head_started.is_none() {
            phase.head_started = Some(Instant::now());
            drop(phase);
            self.changed.notify_one();
        }
    }

    fn request_started(self: &Arc<Self>) -> InFlight {
        let mut phase = self.phase();
        phase.in_flight += 1;
        phase.head_started = None;
        InFlight(Arc::clone(self))
    }

    fn request_finished(&self) {
        let mut phase = self.phase();
        phase.in_flight -= 1;
        if phase.in_flight == 0 {
            phase.idle_since = Instant::now();
            drop(phase);
            self.changed.notify_one();
        }
    }

    /// The deadline of the current phase, if a clock runs.
    fn deadline(&self, limits: &Limits) -> Option<(Instant, Cut)> {
        let phase = self.phase();
        if phase.in_flight > 0 {
            return None;
        }
        Some(match phase.head_started {
            Some(started) => (started + limits.header_read_timeout, Cut::HeaderReadTimeout),
            None => (phase.idle_since + limits.idle_timeout, Cut::IdleTimeout),
        })
    }

    /// Completes when the connection has overstayed its current phase.
    pub async fn overstayed(&self, limits: Limits) -> Cut {
        loop {
            let changed = self.changed.notified();
            match self.deadline(&limits) {
                Some((at, cut)) if at <= Instant::now() => return cut,
                Some((at, _)) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {}
                        () = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// A request under way; it ends when its response body has been sent (or dropped).
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.request_finished();
    }
}

/// The connection's byte stream, telling [`Activity`] when bytes arrive.
pub struct WatchedIo<T> {
    inner: T,
    activity: Arc<Activity>,
}

impl<T> WatchedIo<T> {
    pub fn new(inner: T, activity: Arc<Activity>) -> Self {
        WatchedIo { inner, activity }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WatchedIo<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.bytes_arrived();
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WatchedIo<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// The router as the connection's service: each request counts as under way until its response body
/// is done, and carries the peer's address (`ConnectInfo`, as `axum::serve` would give it).
#[derive(Clone)]
pub struct TrackedService {
    router: Router,
    activity: Arc<Activity>,
    peer: SocketAddr,
}

impl TrackedService {
    pub fn new(router: Router, activity: Arc<Activity>, peer: SocketAddr) -> Self {
        TrackedService {
            router,
            activity,
            peer,
        }
    }
}

impl hyper::service::Service<hyper::Request<Incoming>> for TrackedService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, mut request: hyper::Request<Incoming>) -> Self::Future {
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let in_flight = self.activity.request_started();
        let router = self.router.clone();
        Box::pin(async move {
            let response = router.oneshot(request).await?;
            Ok(response.map(|body| {
                Body::new(TrackedBody {
                    body,
                    _in_flight: in_flight,
                })
            }))
        })
    }
}

/// A response body that ends its request's time under way when it is dropped.
struct TrackedBody {
    body: Body,
    _in_flight: InFlight,
}

impl http_body::Body for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// The HTTP/1.1 settings that follow from the limits: the hard limit on the request head (its line and
/// headers; a bare 431 beyond it, where [`super::limits`] answers in JSON below it), and no timer of
/// hyper's own (the clocks are [`Activity`]'s).
pub fn http1_builder(limits: &Limits) -> hyper::server::conn::http1::Builder {
    let max_head = limits.max_header_bytes + REQUEST_LINE_ROOM;
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .keep_alive(true)
        .header_read_timeout(None)
        .max_header_size(max_head)
        .max_buf_size(DEFAULT_MAX_BUF_SIZE.max(max_head + 8192));
    builder
}

/// Serves one connection until it ends, overstays a clock, or the graceful shutdown ends it.
pub async fn serve_connection<I>(
    io: I,
    router: Router,
    limits: Limits,
    graceful: hyper_util::server::graceful::Watcher,
    peer: SocketAddr,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let activity = Activity::new();
    let io = hyper_util::rt::TokioIo::new(WatchedIo::new(io, Arc::clone(&activity)));
    let service = TrackedService::new(router, Arc::clone(&activity), peer);
    let connection = http1_builder(&limits).serve_connection(io, service);
    let connection = graceful.watch(connection);
    tokio::select! {
        served = connection => {
            if let Err(error) = served {
                tracing::debug!(%peer, %error, "connection ended with an error");
            }
        }
        cut = activity.overstayed(limits) => {
            // Dropping the connection closes the socket.
            tracing::debug!(%peer, ?cut, "connection closed by its timeout");
        }
    }
}
