//! The ticker that performs the scheduled runs as simulated time passes: once a second it catches up every
//! run whose time has come ([`run_due`]), prunes old SCA records (`sca::retention`), and makes the writes
//! durable. A frozen clock never reaches a run by itself; moving it through `PUT /v1/sandbox/clock`
//! performs the runs it passes before answering.

use super::catch_up::run_due;
use crate::bank::sca::retention::{prune, PRUNED_PER_TICK};
use crate::bank::state::BankState;
use std::time::Duration;

/// Starts the ticker on the current tokio runtime. Runs happen on the blocking pool, since a run over many
/// payments is CPU work that must not stall request handling.
pub fn spawn_scheduler(state: BankState) -> tokio::task::JoinHandle<()> {
    // The schedule starts where the clock is now, before any request can move the clock: a first tick
    // that came after a move would otherwise start the schedule past the runs the move should perform.
    if let Err(error) = super::catch_up::start_schedule(&state.store, state.clock.now()) {
        tracing::error!(?error, "recording the schedule's start failed");
    }
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(Duration::from_secs(1));
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            ticker.tick().await;
            let (store, events, clock) = (
                state.store.clone(),
                state.events.clone(),
                state.clock.clone(),
            );
            let ran = tokio::task::spawn_blocking(move || {
                let ran = run_due(&store, &events, None, || clock.now());
                let now = clock.now();
                // Old SCA records go on the same tick (see `sca::retention`).
                if let Err(error) = prune(&store, now, PRUNED_PER_TICK) {
                    tracing::error!(?error, "pruning SCA records failed");
                }
                ran
            })
            .await;
            match ran {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => tracing::error!(?error, "scheduled batch run failed"),
                Err(error) => tracing::error!(%error, "scheduled batch run panicked"),
            }
            if let Err(error) = state.store.make_durable().await {
                tracing::error!(%error, "flushing after a batch run failed");
            }
        }
    })
}
