//! The shared state every request handler sees: storage, the one clock, the request gate and settings.

use crate::clock::Clock;
use crate::signing::verifier::Verifier;
use crate::store::Store;
use std::sync::Arc;

/// Switches a user sets at start or through the sandbox API.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Sign response bodies as the bank may (SPEC.md, Request signing rule 12).
    pub sign_responses: bool,
}

/// Cheap to clone; clones share everything.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub clock: Arc<Clock>,
    pub verifier: Arc<Verifier>,
    pub settings: Arc<Settings>,
    /// The bank's own key and certificate, for signing responses.
    pub bank: Option<Arc<crate::signing::signer::SigningCredentials>>,
    /// What happens, for live views.
    pub events: crate::events::Events,
}
