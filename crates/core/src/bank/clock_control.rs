//! Moving the sandbox's one clock, as trainers and testers do: set, advance, freeze or release it. A move
//! is stored, so simulated time survives a restart (a kill -9 too), and the batch runs it passes are
//! performed before the move returns, so "advance past a run, then read the status" is deterministic.

use crate::bank::events::EventKind;
use crate::bank::state::BankState;
use crate::domain::clock::{Clock, ClockReading, ClockState};
use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

/// One move of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockChange {
    /// Simulated time jumps to this instant (a frozen clock stays frozen there).
    SetTo(OffsetDateTime),
    /// Simulated time moves by this much (negative: back).
    Advance(Duration),
    /// Back to the machine's clock.
    Real,
    /// Time stands still at the current instant.
    Freeze,
}

/// The stored clock: one record under [`StoredClock::KEY`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredClock {
    pub id: String,
    pub state: ClockState,
}

impl StoredClock {
    pub const KEY: &'static str = "clock";
}

impl Record for StoredClock {
    const TREE: &'static str = "clock";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// Applies a move: checks its range, stores the new state, then performs the batch runs between the old
/// and the new instant. Blocking (a catch-up may run many batches): call it off the async threads.
pub fn change(state: &BankState, change: ClockChange) -> CoreResult<ClockReading> {
    state
        .store
        .as_event(EventKind::Clock, || move_clock(state, change))
}

fn move_clock(state: &BankState, change: ClockChange) -> CoreResult<ClockReading> {
    let clock = &state.clock;
    let before = clock.now();
    let moved = match change {
        ClockChange::SetTo(at) => clock.try_set(at).map_err(|r| Refusal::format("now", r)),
        ClockChange::Advance(by) => clock
            .try_advance(by)
            .map_err(|r| Refusal::format("advance", r)),
        ClockChange::Real => {
            clock.reset();
            Ok(())
        }
        ClockChange::Freeze => {
            clock.freeze();
            Ok(())
        }
    };
    moved?;
    save(&state.store, clock)?;
    state.events.publish(
        EventKind::Clock,
        clock.now(),
        serde_json::to_value(clock.reading()).unwrap_or_default(),
    );
    crate::bank::batch::run_due(&state.store, &state.events, Some(before), || clock.now())?;
    Ok(clock.reading())
}

/// Stores how the clock runs now.
pub fn save(store: &Store, clock: &Clock) -> CoreResult<()> {
    store.table::<StoredClock>()?.insert(&StoredClock {
        id: StoredClock::KEY.to_owned(),
        state: clock.state(),
    })?;
    Ok(())
}

/// Makes `clock` run as it was stored, if it was; true when a stored state was found.
pub fn restore(store: &Store, clock: &Clock) -> CoreResult<bool> {
    match store.table::<StoredClock>()?.get(StoredClock::KEY)? {
        Some(stored) => {
            clock.restore(stored.state);
            Ok(true)
        }
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_stored_clock_comes_back_as_it_was() {
        let store = Store::temporary().unwrap();
        let clock = Clock::frozen(datetime!(2026-01-01 12:00 UTC));
        save(&store, &clock).unwrap();
        let fresh = Clock::real();
        assert!(restore(&store, &fresh).unwrap());
        assert_eq!(fresh.now(), datetime!(2026-01-01 12:00 UTC));

        let shifted = Clock::real();
        shifted.advance(Duration::days(3));
        save(&store, &shifted).unwrap();
        let fresh = Clock::real();
        restore(&store, &fresh).unwrap();
        let ahead = fresh.now() - OffsetDateTime::now_utc();
        assert!(ahead > Duration::hours(71) && ahead < Duration::hours(73));
    }
}
