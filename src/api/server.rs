//! Serving HTTP: the same [`serve`] for the headless CLI, the desktop shell and the tests (through
//! `app::App`), over plain HTTP, and [`serve_tls`] for TPP apps that insist on https (rustls, TLS 1.2
//! and 1.3 only). Both accept connections in one loop of their own so that every connection runs under
//! the same [`Limits`]: sizes per request (`api::limits`), clocks per connection (`api::connection`).
//! HTTP/1.1 only: the limits are enforced on one protocol, and no TPP client needs HTTP/2 here.

use super::connection::serve_connection;
use super::limits::Limits;
use crate::state::AppState;
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls;

/// How long in-flight requests may take to finish after shutdown was asked (an event stream never
/// finishes by itself).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves the API on `listener` until `shutdown` completes, then finishes in-flight requests. Also runs
/// the batch scheduler for as long as it serves.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Batch runs happen when the clock passes their times, whether or not anyone is calling.
    let scheduler = crate::batch::spawn_scheduler(state.clone());
    let app = super::limits::apply(crate::api::router(state), limits);
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
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = super::limits::apply(crate::api::router_for_tls(state), limits);
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

/// A rustls configuration limited to TLS 1.2 and 1.3 (SPEC.md: TLS 1.2 or higher).
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

/// Completes on SIGINT or SIGTERM. The handlers are registered when this is called, not when the future
/// is first polled, so a signal that arrives right after the ready line is not lost (it would otherwise
/// kill the process with the default action).
pub fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt()).expect("SIGINT handler installs");
        let mut terminate = signal(SignalKind::terminate()).expect("SIGTERM handler installs");
        async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
