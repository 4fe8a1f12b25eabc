//! Serving HTTP: the same [`serve`] for the headless CLI, the desktop shell and the tests (through
//! `app::App`), over plain HTTP, and [`serve_tls`] for TPP apps that insist on https (rustls, TLS 1.2
//! and 1.3 only). Both accept connections in one loop of their own so that every connection runs under
//! the same [`Limits`]: sizes per request (`api::limits`), clocks per connection (`api::connection`).
//! HTTP/1.1 only: the limits are enforced on one protocol, and no TPP client needs HTTP/2 here.

use super::connection::serve_connection;
use super::limits::Limits;
use super::workbench::reach::WorkbenchReach;
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls;
use xs2a_workbench::app_state::AppState;

/// How long in-flight requests may take to finish after shutdown was asked (event streams are told to end
/// at once: see [`then_end_streams`]).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves the API on `listener` until `shutdown` completes, then finishes in-flight requests. Also runs
/// the batch scheduler for as long as it serves.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    limits: Limits,
    reach: WorkbenchReach,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Batch runs happen when the clock passes their times, whether or not anyone is calling.
    let scheduler = xs2a_core::bank::batch::spawn_scheduler(state.core().clone());
    let shutdown = then_end_streams(&state, shutdown);
    let router = crate::api::router(state).layer(axum::Extension(reach));
    let app = super::limits::apply(router, limits);
    let served = accept_loop(listener, shutdown, move |stream, peer, watcher| {
        let app = app.clone();
        async move { serve_connection(stream, app, limits, watcher, peer).await }
    })
    .await;
    scheduler.abort();
    served
}

/// Serves the API over TLS on `listener` until `shutdown` completes, then lets in-flight requests finish
/// (for at most ten seconds). A TLS handshake gets the header read timeout.
pub async fn serve_tls(
    listener: TcpListener,
    state: AppState,
    tls: Arc<rustls::ServerConfig>,
    limits: Limits,
    reach: WorkbenchReach,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let shutdown = then_end_streams(&state, shutdown);
    let router = crate::api::router_for_tls(state).layer(axum::Extension(reach));
    let app = super::limits::apply(router, limits);
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    accept_loop(listener, shutdown, move |stream, peer, watcher| {
        let (app, acceptor) = (app.clone(), acceptor.clone());
        async move {
            let handshake =
                tokio::time::timeout(limits.header_read_timeout, acceptor.accept(stream)).await;
            match handshake {
                Ok(Ok(stream)) => serve_connection(stream, app, limits, watcher, peer).await,
                Ok(Err(error)) => tracing::debug!(%peer, %error, "TLS handshake failed"),
                Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
            }
        }
    })
    .await
}

/// `shutdown`, then every event stream told to end: an event stream never finishes by itself, and the
/// graceful stop would wait the whole grace period for it (the desktop app took five seconds to close).
fn then_end_streams(
    state: &AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> impl Future<Output = ()> + Send + 'static {
    let events = state.events.clone();
    async move {
        shutdown.await;
        events.end_streams();
    }
}

/// Accepts connections until `shutdown` completes, each served on a task of its own by `connection`;
/// then waits (at most [`SHUTDOWN_GRACE`]) for the watched connections to finish.
async fn accept_loop<F, C>(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
    connection: C,
) -> std::io::Result<()>
where
    C: Fn(TcpStream, std::net::SocketAddr, hyper_util::server::graceful::Watcher) -> F,
    F: Future<Output = ()> + Send + 'static,
{
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        match accepted {
            Ok((stream, peer)) => {
                tokio::spawn(connection(stream, peer, graceful.watcher()));
            }
            // Out of file descriptors and the like: the listener itself is fine, so wait and go on.
            Err(error) => {
                tracing::warn!(%error, "accepting a connection failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
}

/// A rustls configuration limited to TLS 1.2 and 1.3 (docs/reference/clock-and-service.md: TLS 1.2 or higher).
pub fn tls_config(cert_pem: &str, key_pem: &str) -> Result<Arc<rustls::ServerConfig>, String> {
    let certs = rustls_pemfile::certs(&mut cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("TLS certificate PEM: {e}"))?;
    let key = rustls_pemfile::private_key(&mut key_pem.as_bytes())
        .map_err(|e| format!("TLS key PEM: {e}"))?
        .ok_or("no private key in the TLS key PEM")?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| format!("TLS versions: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("TLS certificate and key: {e}"))?;
    Ok(Arc::new(config))
}

/// Completes when the process is asked to stop (SIGINT or SIGTERM; on Windows Ctrl+C, console close,
/// log-off or shutdown): [`xs2a_core::platform::stop_signal::requested`], whose handlers are in place on return.
pub fn shutdown_signal() -> impl Future<Output = ()> {
    xs2a_core::platform::stop_signal::requested()
}

#[cfg(test)]
mod tests {
    use crate::app::{App, AppConfig, DataDir};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An open event stream (the workbench's, as the desktop window holds it) does not hold up a stop.
    #[tokio::test]
    async fn a_stop_ends_the_open_event_streams_at_once() {
        let app = App::build(AppConfig {
            data: DataDir::Ephemeral,
            ..AppConfig::default()
        })
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let token = app.operator_token().to_owned();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(async move {
            app.serve(listener, async move {
                let _ = stopped.await;
            })
            .await
        });

        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!(
            "GET /workbench/api/events?token={token} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut opened = Vec::new();
        let mut buf = [0u8; 1024];
        while !String::from_utf8_lossy(&opened).contains(": connected") {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(
                n > 0,
                "closed before the stream opened: {}",
                String::from_utf8_lossy(&opened)
            );
            opened.extend_from_slice(&buf[..n]);
        }
        assert!(String::from_utf8_lossy(&opened).starts_with("HTTP/1.1 200"));

        stop.send(()).unwrap();
        serving.await.unwrap().unwrap();
        // The stop told the stream to end rather than waiting out the grace for it: the client reads the
        // chunked body's last chunk. A stop that did not end the stream would leave it open (this read
        // would not end) or cut it without that chunk. A proof by what was sent, not by how long the stop
        // took, which a loaded machine stretches.
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest).await;
        assert!(
            String::from_utf8_lossy(&rest).contains("0\r\n\r\n"),
            "{}",
            String::from_utf8_lossy(&rest)
        );
    }
}
