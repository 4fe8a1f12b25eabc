//! Waiting for the traffic log as an event, not for a time: a watch made before a request hears each
//! entry the log's writer announces once stored, so a test reads an exchange as soon as it is there and
//! however long a loaded machine makes the writer take. No sleep, no deadline.

use crate::helpers::{workbench_api as call, TestApp};
use reqwest::Method;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;
use xs2a_workbench::traffic::model::{Entry, ExchangeSummary};

/// Listens to the log from the moment it is made.
pub struct TrafficWatch {
    live: Receiver<Arc<Entry>>,
}

impl TestApp {
    /// Starts listening to the traffic log: make it before the request whose exchange you want.
    pub fn watch_traffic(&self) -> TrafficWatch {
        TrafficWatch {
            live: self.state.traffic.subscribe(),
        }
    }
}

impl TrafficWatch {
    /// The next stored exchange `wanted` accepts, whole (as `GET /workbench/api/traffic/{id}` serves it).
    pub async fn exchange(
        &mut self,
        app: &TestApp,
        wanted: impl Fn(&ExchangeSummary) -> bool,
    ) -> Value {
        let summary = self.summary(app, wanted).await;
        let (status, whole) =
            call(app, Method::GET, &format!("/traffic/{}", summary.id), None).await;
        assert_eq!(status, 200, "{whole}");
        whole
    }

    /// The next stored exchange `wanted` accepts, as the list shows it.
    pub async fn summary(
        &mut self,
        app: &TestApp,
        wanted: impl Fn(&ExchangeSummary) -> bool,
    ) -> ExchangeSummary {
        loop {
            match self.live.recv().await.as_deref() {
                Ok(Entry::Exchange(summary)) if wanted(summary) => return summary.clone(),
                Ok(_) => {}
                // Announcements were missed (the listener fell behind): what was announced is stored,
                // so the stored log has it.
                Err(RecvError::Lagged(_)) => {
                    let stored = app
                        .state
                        .traffic
                        .page(None, 10_000, |_| true)
                        .expect("the log reads");
                    if let Some(summary) = stored.into_iter().find_map(|entry| match entry {
                        Entry::Exchange(summary) if wanted(&summary) => Some(summary),
                        _ => None,
                    }) {
                        return summary;
                    }
                }
                Err(RecvError::Closed) => panic!("the traffic log stopped before the exchange"),
            }
        }
    }
}

impl TestApp {
    /// Waits until everything handed to the traffic log so far is stored, however long that takes: an
    /// exchange is handed over before its answer leaves, so after an answer its exchange is readable.
    pub async fn traffic_settled(&self) {
        let log = self.state.traffic.clone();
        // No limit: a barrier through the writer's queue is answered once what came before it is stored.
        let settled = tokio::task::spawn_blocking(move || log.settle(std::time::Duration::MAX))
            .await
            .unwrap();
        assert!(settled, "the traffic log's writer stopped");
    }
}

impl TestApp {
    /// Runs `check` until it finds what it looks for, running it again each time the traffic log stores
    /// something new: for what reaches the log after its request answered (a payment's status change, a
    /// batch run's event), however long that takes. Listening starts before the first check, so nothing
    /// stored in between is missed. Ends when `check` finds it (or the log stops).
    pub async fn when_logged<T, F, Fut>(&self, mut check: F) -> T
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Option<T>>,
    {
        let mut live = self.state.traffic.subscribe();
        loop {
            if let Some(found) = check().await {
                return found;
            }
            match live.recv().await {
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => {
                    panic!("the traffic log stopped before it held what was awaited")
                }
            }
        }
    }
}
