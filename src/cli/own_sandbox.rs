//! `replay --fixture STATE`: a sandbox of the replay's own, started in this process from a state file in a
//! temporary data directory on a free loopback port, and stopped when the replay ends. One command then
//! does what `serve --fixture STATE &` and `replay --url …` do, with no port to choose, nothing to wait
//! for and nothing left running.

use std::path::Path;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use xs2a_http::app::{App, AppConfig};

/// A running sandbox started from a state file.
pub struct OwnSandbox {
    app: std::sync::Arc<App>,
    stop: watch::Sender<bool>,
    serving: JoinHandle<std::io::Result<()>>,
    /// Its base URL, `http://127.0.0.1:<port>`.
    pub base: String,
}

impl OwnSandbox {
    /// Starts a sandbox whose state is `fixture`'s (the whole file checked first, as `serve --fixture`
    /// does), listening before this returns.
    pub async fn start(fixture: &Path) -> Result<OwnSandbox, String> {
        let app = App::build(AppConfig {
            fixture: Some(fixture.to_path_buf()),
            ..AppConfig::default()
        })
        .map_err(|e| format!("--fixture {}: {e}", fixture.display()))?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot listen on a loopback port: {e}"))?;
        let base = format!(
            "http://{}",
            listener.local_addr().map_err(|e| e.to_string())?
        );
        let app = std::sync::Arc::new(app);
        let (stop, mut stopped) = watch::channel(false);
        let serving_app = app.clone();
        let serving = tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            };
            serving_app.serve(listener, shutdown).await
        });
        Ok(OwnSandbox {
            app,
            stop,
            serving,
            base,
        })
    }

    /// Stops serving (requests in flight are finished) and closes the store.
    pub async fn stop(self) -> Result<(), String> {
        let _ = self.stop.send(true);
        self.serving
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        self.app.close()
    }
}
