//! The one place that turns settings into a running service: [`App::build`] opens the store, restores the
//! clock, seeds a fresh sandbox and builds the request gate; [`App::serve`] serves it on a listener until a
//! shutdown future completes. The headless CLI, the integration tests and the desktop shell all start the
//! service through here, so they run exactly the same thing.

use crate::api::limits::Limits;
use crate::api::workbench::reach::WorkbenchReach;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use time::OffsetDateTime;
use tokio::net::TcpListener;
use xs2a_core::bank::state::{AccessMode, Settings};
use xs2a_core::domain::clock::Clock;
use xs2a_core::signing::signer::SigningCredentials;
use xs2a_core::signing::trust::TrustStore;
use xs2a_core::signing::verifier::Verifier;
use xs2a_core::store::{Store, StoreError, CACHE_BYTES};
use xs2a_workbench::app_state::AppState;

/// Where the sandbox keeps its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataDir {
    /// A directory that outlives the process.
    At(PathBuf),
    /// A temporary store, deleted at exit.
    Ephemeral,
}

/// How the clock starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockStart {
    /// As it was left (a moved or frozen clock survives a restart), else the machine's time.
    #[default]
    AsStored,
    /// Frozen at this instant, whatever was stored.
    FrozenAt(OffsetDateTime),
}

/// Everything the service can be started with.
#[derive(Debug, Clone)]
pub struct AppConfig {
    pub data: DataDir,
    pub access: AccessMode,
    /// CA certificates (PEM) whose TPP certificates the gate trusts.
    pub trust_ca_pems: Vec<String>,
    /// Trust the bundled test CA; `None`: in loopback mode only (its private key is public).
    pub trust_test_ca: Option<bool>,
    pub sign_responses: bool,
    pub clock: ClockStart,
    pub limits: Limits,
    /// The operator credential; a fresh random one when `None`.
    pub operator_token: Option<String>,
    /// Changes to the traffic log's switch and caps; what is not given stays as stored (or the default).
    pub traffic: xs2a_workbench::traffic::store::TrafficOverrides,
    /// A state file (docs/fixtures.md) that replaces the stored state before anything else reads it.
    pub fixture: Option<PathBuf>,
    /// The most memory the store's page cache takes; `None`: [`xs2a_core::store::CACHE_BYTES`]. A smaller one
    /// keeps an embedding process (the desktop app) smaller at the price of more disk reads.
    pub store_cache_bytes: Option<u64>,
    /// Keep the change journal (docs/rewind.md); off, its records are dropped.
    pub journal: bool,
    /// The profile to play the bank in (docs/rehearsal.md), stored; `None`: as stored.
    pub profile: Option<xs2a_core::bank::rehearsal::Profile>,
    /// A fault plan (docs/rehearsal.md) that replaces the stored one.
    pub faults: Option<xs2a_core::bank::rehearsal::plan::Plan>,
    /// Which peers count as this machine for the workbench: loopback ones, or in a container the
    /// published port's (docs/reference/access.md).
    pub workbench_reach: WorkbenchReach,
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            data: DataDir::Ephemeral,
            access: AccessMode::Loopback,
            trust_ca_pems: Vec::new(),
            trust_test_ca: None,
            sign_responses: false,
            clock: ClockStart::AsStored,
            limits: Limits::default(),
            operator_token: None,
            traffic: Default::default(),
            fixture: None,
            store_cache_bytes: None,
            journal: true,
            profile: None,
            faults: None,
            workbench_reach: WorkbenchReach::ThisMachine,
        }
    }
}

/// A built service, ready to serve.
pub struct App {
    state: AppState,
    limits: Limits,
    workbench_reach: WorkbenchReach,
    data_dir: Option<PathBuf>,
}

/// The file in a data directory that says which process serves it, and where.
const INSTANCE_FILE: &str = "instance.json";

impl App {
    /// Opens the store, restores or starts the clock, seeds a fresh sandbox and builds the gate.
    pub fn build(config: AppConfig) -> Result<App, String> {
        let cache_bytes = config.store_cache_bytes.unwrap_or(CACHE_BYTES);
        let (store, data_dir) = match &config.data {
            DataDir::Ephemeral => (
                Store::temporary_with(xs2a_core::bank::migrations::active(), cache_bytes),
                None,
            ),
            DataDir::At(dir) => (
                Store::open_with(dir, xs2a_core::bank::migrations::active(), cache_bytes),
                Some(dir.clone()),
            ),
        };
        let store = store.map_err(|error| match (error, &data_dir) {
            (StoreError::Locked(_), Some(dir)) => already_running(dir),
            // These say what happened to the directory and what to do, whole.
            (
                StoreError::NewerFormat(text)
                | StoreError::Format(text)
                | StoreError::Migration(text),
                _,
            ) => text,
            (error, _) => format!("cannot open the data store: {error}"),
        })?;
        let store = if config.journal {
            store
        } else {
            store
                .without_journal()
                .map_err(|e| format!("cannot open the data store: {e}"))?
        };
        let unknown = store.unknown_trees();
        if !unknown.is_empty() {
            tracing::warn!(
                ?unknown,
                "the data directory holds trees this version does not know; they are left alone"
            );
        }
        if let Some(path) = &config.fixture {
            load_fixture(&store, path)?;
        }
        let clock = Arc::new(Clock::real());
        match config.clock {
            ClockStart::FrozenAt(at) => {
                clock.restore(xs2a_core::domain::clock::ClockState::Frozen { at });
                xs2a_core::bank::clock_control::save(&store, &clock).map_err(|e| e.to_string())?;
            }
            ClockStart::AsStored => {
                xs2a_core::bank::clock_control::restore(&store, &clock)
                    .map_err(|e| e.to_string())?;
            }
        }
        let trust_test_ca = config
            .trust_test_ca
            .unwrap_or(config.access == AccessMode::Loopback);
        let mut trust = if trust_test_ca {
            TrustStore::with_bundled_test_ca()
        } else {
            TrustStore::new()
        };
        for pem in &config.trust_ca_pems {
            trust.add_pem(pem)?;
        }
        let bank = SigningCredentials::from_pem(
            xs2a_core::signing::test_credentials::BANK_CERT_PEM,
            xs2a_core::signing::test_credentials::BANK_KEY_PEM,
        )?;
        let events = xs2a_core::bank::events::Events::default();
        let traffic = xs2a_workbench::traffic::TrafficLog::start(store.clone(), &events)
            .map_err(|e| format!("cannot open the traffic log: {e}"))?;
        if !config.traffic.is_empty() {
            traffic
                .set_settings(config.traffic.apply(traffic.settings()))
                .map_err(|e| format!("traffic log: {}", e.text))?;
        }
        let rehearsal = xs2a_core::bank::rehearsal::Rehearsal::load(&store)
            .map_err(|e| format!("cannot read the rehearsal settings: {}", e.text))?;
        if let Some(profile) = config.profile {
            rehearsal
                .set_profile(&store, profile)
                .map_err(|e| format!("cannot store the profile: {}", e.text))?;
        }
        if let Some(plan) = config.faults {
            rehearsal
                .update_plan(&store, |held| {
                    *held = plan;
                    Ok(())
                })
                .map_err(|e| format!("fault plan: {}", e.text))?;
        }
        let bank_state = xs2a_core::bank::state::BankState::new(xs2a_core::bank::state::Services {
            rehearsal: Arc::new(rehearsal),
            store,
            clock,
            verifier: Arc::new(Verifier::new(trust)),
            settings: Arc::new(Settings {
                sign_responses: config.sign_responses,
                access: config.access,
                operator_token: config
                    .operator_token
                    .unwrap_or_else(xs2a_core::bank::state::new_operator_token),
                data_dir: data_dir.as_ref().map(|d| d.display().to_string()),
            }),
            bank: Some(Arc::new(bank)),
            events,
            listening: Default::default(),
        });
        let state = AppState::new(bank_state, traffic);
        xs2a_core::bank::startup::prepare(&state)
            .map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
        // The initial state is on disk before the first request can see it.
        state
            .store
            .flush_now()
            .map_err(|e| format!("cannot write the data store: {e}"))?;
        Ok(App {
            state,
            limits: config.limits,
            workbench_reach: config.workbench_reach,
            data_dir,
        })
    }

    /// The service's state (for the workbench glue and tests that look inside).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The operator credential (the CLI prints it in the workbench URL; the desktop shell hands it over).
    pub fn operator_token(&self) -> &str {
        &self.state.settings.operator_token
    }

    pub fn access(&self) -> AccessMode {
        self.state.settings.access
    }

    /// The data directory, unless the store is ephemeral.
    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.as_deref()
    }

    /// Notes in the data directory that this process serves it at `url`, so that a second `serve` on the
    /// same directory can say where the running one is.
    pub fn announce(&self, url: &str) {
        if let Some(dir) = &self.data_dir {
            let note = serde_json::json!({"pid": std::process::id(), "url": url});
            let _ = std::fs::write(dir.join(INSTANCE_FILE), note.to_string());
        }
    }

    /// Serves HTTP on `listener` until `shutdown` completes, then finishes in-flight requests. The batch
    /// scheduler runs for as long as it serves.
    pub async fn serve(
        &self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        if let Ok(addr) = listener.local_addr() {
            let _ = self.state.listening.set(addr);
        }
        crate::api::server::serve(
            listener,
            self.state.clone(),
            self.limits,
            self.workbench_reach,
            shutdown,
        )
        .await
    }

    /// Serves HTTPS on `listener` with `tls` until `shutdown` completes.
    pub async fn serve_tls(
        &self,
        listener: TcpListener,
        tls: Arc<tokio_rustls::rustls::ServerConfig>,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        crate::api::server::serve_tls(
            listener,
            self.state.clone(),
            tls,
            self.limits,
            self.workbench_reach,
            shutdown,
        )
        .await
    }

    /// Makes every write durable and releases the data directory.
    pub fn close(&self) -> Result<(), String> {
        if let Some(dir) = &self.data_dir {
            let _ = std::fs::remove_file(dir.join(INSTANCE_FILE));
        }
        // The traffic log's queued entries are written first, and its writer then holds the store no more:
        // a store opened on this directory right after the App is dropped finds it free.
        self.state.traffic.settle(std::time::Duration::from_secs(5));
        self.state.store.close().map_err(|e| e.to_string())
    }
}

/// Replaces the state of `store` with the state file at `path`, all or nothing.
fn load_fixture(store: &Store, path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read the fixture {}: {e}", path.display()))?;
    xs2a_workbench::state_file::import(store, &bytes, xs2a_workbench::state_file::Mode::Replace)
        .map_err(|e| format!("the fixture {} was refused: {e}", path.display()))?;
    Ok(())
}

/// The message for a data directory another process holds.
fn already_running(dir: &Path) -> String {
    let running = std::fs::read_to_string(dir.join(INSTANCE_FILE))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    match running {
        Some(note) => format!(
            "a sandbox is already running on the data directory {} (process {}, {}); stop it, or start this one \
             with another --data DIR or --ephemeral",
            dir.display(),
            note["pid"],
            note["url"].as_str().unwrap_or("address unknown"),
        ),
        None => format!(
            "another process holds the data directory {} (a sandbox already running?); stop it, or start this \
             one with another --data DIR or --ephemeral",
            dir.display()
        ),
    }
}
