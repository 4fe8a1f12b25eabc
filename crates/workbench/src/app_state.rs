//! The application state the workbench and the HTTP layer see: the bank's state ([`BankState`]) and, beside
//! it, the traffic log every request and event is recorded in. It lives here, above the tools, because the
//! bank's rules must not know the log exists (docs/architecture.md).

use crate::traffic::TrafficLog;
use std::sync::Arc;
use xs2a_core::bank::state::BankState;

/// What the application shares: the bank's state (`core`) and the traffic log.
pub struct AppServices {
    pub core: BankState,
    /// Every request and event, for the inspector and the flow view.
    pub traffic: TrafficLog,
}

/// The shared state: one reference count to clone, as every layer and handler of every request clones it.
/// It dereferences to the bank's services (`state.store`, `state.clock`), so a function of the core that
/// takes `&BankState` takes `&state` as it is.
#[derive(Clone)]
pub struct AppState(Arc<AppServices>);

impl AppState {
    pub fn new(core: BankState, traffic: TrafficLog) -> Self {
        AppState(Arc::new(AppServices { core, traffic }))
    }

    /// The bank's state, for what the core starts on its own (the batch scheduler).
    pub fn core(&self) -> &BankState {
        &self.0.core
    }
}

impl std::ops::Deref for AppState {
    type Target = AppServices;
    fn deref(&self) -> &AppServices {
        &self.0
    }
}

impl std::ops::Deref for AppServices {
    type Target = BankState;
    fn deref(&self) -> &BankState {
        &self.core
    }
}
