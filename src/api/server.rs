//! Serving HTTP: the same [`serve`] for the headless CLI, the desktop shell and the tests (through
//! `app::App`), over
//! plain HTTP, and [`serve_tls`] for TPP apps that insist on https (rustls, TLS 1.2 and 1.3 only).

use super::limits::Limits;
use crate::state::AppState;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_rustls::rustls;

/// Serves the API on `listener` until `shutdown` completes, then finishes in-flight requests. Also runs
/// the batch scheduler for as long as it serves.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let _ = limits;
    // Batch runs happen when the clock passes their times, whether or not anyone is calling.
    let scheduler = crate::batch::spawn_scheduler(state.clone());
    let app = crate::api::router(state);
    // The peer's address reaches the handlers (the workbench is for this machine only).
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    scheduler.abort();
    served
}

/// Serves the API over TLS on `listener` until `shutdown` completes, then lets in-flight requests finish
/// (for at most ten seconds).
pub async fn serve_tls(
    listener: TcpListener,
    state: AppState,
    tls: Arc<rustls::ServerConfig>,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let _ = limits;
    let app = crate::api::router_for_tls(state);
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => accepted?,
            () = &mut shutdown => break,
        };
        let acceptor = acceptor.clone();
        let service = TowerToHyperService::new(app.clone());
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            let stream = match acceptor.accept(stream).await {
                Ok(stream) => stream,
                Err(error) => {
                    tracing::debug!(%peer, %error, "TLS handshake failed");
                    return;
                }
            };
            let builder = auto::Builder::new(TokioExecutor::new());
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            if let Err(error) = watcher.watch(connection.into_owned()).await {
                tracing::debug!(%peer, %error, "TLS connection ended with an error");
            }
        });
    }
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), graceful.shutdown()).await;
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
