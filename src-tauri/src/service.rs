//! The embedded sandbox service: built through the same [`App`] as the CLI, served on loopback on Tauri's
//! async runtime, and stopped (in-flight requests finished, store closed) when the app exits.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::async_runtime::JoinHandle;
use tokio::sync::oneshot;
use xs2a_http::app::{App, AppConfig, DataDir};

/// How long the app waits on exit for requests in flight. Event streams are not waited for: the server
/// ends them as it stops (`Events::end_streams`), so an app whose window follows them ends at once.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub struct Service {
    app: Arc<App>,
    base_url: String,
    stop: Mutex<Option<oneshot::Sender<()>>>,
    serving: Mutex<Option<JoinHandle<std::io::Result<()>>>>,
}

impl Service {
    /// Opens the store and starts serving on `127.0.0.1:port` (a free port when `None`). Loopback mode, as
    /// `xs2a-sandbox serve` on loopback: the window is on this machine and so is every TPP it serves.
    pub fn start(data: DataDir, port: Option<u16>) -> Result<Service, String> {
        if let DataDir::At(dir) = &data {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
        }
        // Built inside Tauri's runtime (setup runs on the GUI thread, outside it): the traffic log follows
        // the sandbox's events (payment statuses, batch runs, SCA steps, the clock) with a task on the
        // current runtime, and without one the inspector and the flow view would show exchanges only.
        let app = tauri::async_runtime::block_on(async move {
            App::build(AppConfig {
                data,
                store_cache_bytes: Some(crate::memory::STORE_CACHE_BYTES),
                ..AppConfig::default()
            })
        })?;
        // Bound here, before the window exists, so the page is handed the real address.
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port.unwrap_or(0)));
        let listener = std::net::TcpListener::bind(addr)
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        let app = Arc::new(app);
        let (stop, stopped) = oneshot::channel::<()>();
        let serving_app = app.clone();
        let serving = tauri::async_runtime::spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            let result = serving_app
                .serve(listener, async move {
                    let _ = stopped.await;
                })
                .await;
            if let Err(error) = &result {
                tracing::error!(%error, "the sandbox service stopped");
            }
            result
        });
        Ok(Service {
            app,
            base_url: format!("http://{bound}"),
            stop: Mutex::new(Some(stop)),
            serving: Mutex::new(Some(serving)),
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn token(&self) -> &str {
        self.app.operator_token()
    }

    /// The data directory, unless the store is ephemeral.
    pub fn data_dir(&self) -> Option<&std::path::Path> {
        self.app.data_dir()
    }

    /// Says where the service is: on stdout as `xs2a-sandbox serve` does (the same tokenised workbench URL
    /// works in a browser beside the window), and in the data directory for a second copy of the app.
    pub fn announce(&self) {
        use std::io::Write;
        let data = match self.app.data_dir() {
            Some(dir) => dir.display().to_string(),
            None => "ephemeral".to_owned(),
        };
        let _ = write!(
            std::io::stdout().lock(),
            "xs2a-desktop: sandbox listening on {base}\ndata: {data}\nworkbench: {base}/workbench/?token={token}\n",
            base = self.base_url,
            token = self.token(),
        );
        let _ = std::io::stdout().flush();
        self.app.announce(&self.base_url);
    }

    /// Stops serving, waits a moment for requests in flight and closes the store. Idempotent.
    pub fn stop(&self) {
        let Some(stop) = self.stop.lock().ok().and_then(|mut s| s.take()) else {
            return;
        };
        let _ = stop.send(());
        if let Some(serving) = self.serving.lock().ok().and_then(|mut s| s.take()) {
            // The timer is made inside the runtime: this runs on the GUI thread, outside any.
            let waited = tauri::async_runtime::block_on(async move {
                tokio::time::timeout(STOP_GRACE, serving).await
            });
            if waited.is_err() {
                tracing::warn!(
                    "requests still in flight after {STOP_GRACE:?}; closing the store anyway"
                );
            }
        }
        if let Err(error) = self.app.close() {
            eprintln!("xs2a-desktop: closing the data store failed: {error}");
        }
    }
}
