//! The bank's shared state every operation sees: storage, the one clock, the request gate, the event
//! broadcast and the settings the service was started with. The workbench's application state wraps it
//! (`xs2a_workbench::app_state`), adding the traffic log; the service builds both in one place (`xs2a_http::app`).

use crate::domain::clock::Clock;
use crate::signing::verifier::Verifier;
use crate::store::Store;
use std::sync::Arc;

/// Who the sandbox is open to (docs/reference/access.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AccessMode {
    /// One developer's machine, bound to loopback: every signed TPP may use the bank-side controls, and
    /// the bundled test CA is trusted.
    #[default]
    Loopback,
    /// A sandbox shared by a team: bank-side controls need the operator credential, and the bundled test
    /// CA (whose private key is public) is trusted only when the operator names it.
    Shared,
}

impl AccessMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AccessMode::Loopback => "loopback",
            AccessMode::Shared => "shared",
        }
    }
}

/// What the service was started with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Sign response bodies as the bank may (docs/reference/clock-and-service.md).
    pub sign_responses: bool,
    pub access: AccessMode,
    /// The operator credential: the CLI, the workbench and a shared sandbox's operator hold it.
    pub operator_token: String,
    /// Where the data lives; `None` for an ephemeral store.
    pub data_dir: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            sign_responses: false,
            access: AccessMode::default(),
            operator_token: new_operator_token(),
            data_dir: None,
        }
    }
}

/// A fresh operator credential: 32 random bytes as hex.
pub fn new_operator_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What every operation sees, shared: [`BankState`] is a handle to it.
pub struct Services {
    pub store: Store,
    pub clock: Arc<Clock>,
    pub verifier: Arc<Verifier>,
    pub settings: Arc<Settings>,
    /// The bank's own key and certificate, for signing responses.
    pub bank: Option<Arc<crate::signing::signer::SigningCredentials>>,
    /// What happens, for live views.
    pub events: crate::bank::events::Events,
    /// The address the service listens on, once it does (the composer sends to it, links name it).
    pub listening: Arc<std::sync::OnceLock<std::net::SocketAddr>>,
    /// The profile and the fault plan (docs/rehearsal.md).
    pub rehearsal: Arc<crate::bank::rehearsal::Rehearsal>,
}

/// The shared state. One reference count to clone: every layer and handler of every request clones it,
/// and cloning each of the services' own handles there cost more CPU than the request's handler.
#[derive(Clone)]
pub struct BankState(Arc<Services>);

impl BankState {
    pub fn new(services: Services) -> Self {
        BankState(Arc::new(services))
    }
}

impl std::ops::Deref for BankState {
    type Target = Services;
    fn deref(&self) -> &Services {
        &self.0
    }
}

impl BankState {
    /// The service's own base URL as this machine reaches it (`http://127.0.0.1:<port>` for a service
    /// bound to every interface); `http://127.0.0.1` before it listens.
    pub fn base_url(&self) -> String {
        match self.listening.get() {
            Some(addr) if addr.ip().is_unspecified() => format!("http://127.0.0.1:{}", addr.port()),
            Some(addr) => format!("http://{addr}"),
            None => "http://127.0.0.1".to_owned(),
        }
    }
}
