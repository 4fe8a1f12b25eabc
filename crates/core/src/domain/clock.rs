//! The one source of time. Everything that depends on "now" — the Date header window, certificate
//! validity, SCA windows, access limits, batch schedules — reads it from here, so that tests and trainers
//! can set or advance it without touching the machine's clock.

use std::sync::RwLock;
use time::{Duration, OffsetDateTime};

/// How the clock derives "now".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The machine's clock.
    Real,
    /// The machine's clock shifted by a fixed offset: simulated time keeps running, so that a trainer who
    /// advances by a day still sees seconds pass.
    Shifted(Duration),
    /// Time stands still at this instant until changed (deterministic tests).
    Frozen(OffsetDateTime),
}

/// A clock that is real by default and can be set, advanced or frozen.
#[derive(Debug)]
pub struct Clock {
    mode: RwLock<Mode>,
}

/// The range simulated time may be moved within. Far outside it, date arithmetic and RFC 7231 dates
/// stop being representable; a sandbox has no use for them.
pub const EARLIEST: OffsetDateTime = time::macros::datetime!(2000-01-01 0:00 UTC);
pub const LATEST: OffsetDateTime = time::macros::datetime!(2100-12-31 23:59:59 UTC);

/// A serialisable description of the clock for the API and the UI.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClockReading {
    #[serde(with = "time::serde::rfc3339")]
    pub now: OffsetDateTime,
    /// "real", "shifted" or "frozen".
    pub mode: &'static str,
    /// Seconds between simulated and real time (0 for real).
    pub offset_seconds: i64,
}

impl Default for Clock {
    fn default() -> Self {
        Self::real()
    }
}

impl Clock {
    /// A clock that follows the machine.
    pub fn real() -> Self {
        Clock {
            mode: RwLock::new(Mode::Real),
        }
    }

    /// A clock frozen at `at`; it only moves when set or advanced.
    pub fn frozen(at: OffsetDateTime) -> Self {
        Clock {
            mode: RwLock::new(Mode::Frozen(at)),
        }
    }

    /// The current instant, in UTC.
    pub fn now(&self) -> OffsetDateTime {
        match *self.mode.read().expect("clock lock poisoned") {
            Mode::Real => OffsetDateTime::now_utc(),
            Mode::Shifted(offset) => OffsetDateTime::now_utc() + offset,
            Mode::Frozen(at) => at,
        }
    }

    /// The machine's time as the clock sees it: real time when the clock runs (shifted or not), the frozen
    /// instant when frozen (so frozen tests stay deterministic). TPP apps sign with their machine's time,
    /// so the Date window also accepts this reference after a trainer has moved the clock.
    pub fn machine_now(&self) -> OffsetDateTime {
        match *self.mode.read().expect("clock lock poisoned") {
            Mode::Frozen(at) => at,
            _ => OffsetDateTime::now_utc(),
        }
    }

    /// Moves simulated time to `at` if it lies within [`EARLIEST`]..=[`LATEST`]; says why not otherwise.
    pub fn try_set(&self, at: OffsetDateTime) -> Result<(), String> {
        check_range(Some(at))?;
        self.set(at);
        Ok(())
    }

    /// Moves simulated time by `by` if the result lies within [`EARLIEST`]..=[`LATEST`].
    pub fn try_advance(&self, by: Duration) -> Result<(), String> {
        check_range(self.now().checked_add(by))?;
        self.advance(by);
        Ok(())
    }

    /// Moves simulated time to `at`. A frozen clock stays frozen; otherwise time keeps running from `at`.
    pub fn set(&self, at: OffsetDateTime) {
        let mut mode = self.mode.write().expect("clock lock poisoned");
        *mode = match *mode {
            Mode::Frozen(_) => Mode::Frozen(at),
            _ => Mode::Shifted(at - OffsetDateTime::now_utc()),
        };
    }

    /// Moves simulated time forward (or back, with a negative duration).
    pub fn advance(&self, by: Duration) {
        let mut mode = self.mode.write().expect("clock lock poisoned");
        *mode = match *mode {
            Mode::Real => Mode::Shifted(by),
            Mode::Shifted(offset) => Mode::Shifted(offset + by),
            Mode::Frozen(at) => Mode::Frozen(at + by),
        };
    }

    /// Stops time at the current instant.
    pub fn freeze(&self) {
        let now = self.now();
        *self.mode.write().expect("clock lock poisoned") = Mode::Frozen(now);
    }

    /// Returns to the machine's clock.
    pub fn reset(&self) {
        *self.mode.write().expect("clock lock poisoned") = Mode::Real;
    }

    /// The current reading, for display.
    pub fn reading(&self) -> ClockReading {
        let mode = *self.mode.read().expect("clock lock poisoned");
        let now = self.now();
        let (name, offset) = match mode {
            Mode::Real => ("real", 0),
            Mode::Shifted(offset) => ("shifted", offset.whole_seconds()),
            Mode::Frozen(at) => ("frozen", (at - OffsetDateTime::now_utc()).whole_seconds()),
        };
        ClockReading {
            now,
            mode: name,
            offset_seconds: offset,
        }
    }
}

/// How the clock runs, in a form that can be stored so that a restart keeps simulated time.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(tag = "mode", rename_all = "camelCase")]
pub enum ClockState {
    Real,
    /// Simulated time runs this many seconds ahead of (or behind) the machine's.
    Shifted {
        offset_seconds: i64,
    },
    Frozen {
        #[serde(with = "time::serde::rfc3339")]
        at: OffsetDateTime,
    },
}

impl Clock {
    /// How the clock runs now.
    pub fn state(&self) -> ClockState {
        match *self.mode.read().expect("clock lock poisoned") {
            Mode::Real => ClockState::Real,
            Mode::Shifted(offset) => ClockState::Shifted {
                offset_seconds: offset.whole_seconds(),
            },
            Mode::Frozen(at) => ClockState::Frozen { at },
        }
    }

    /// Makes the clock run as `state` says.
    pub fn restore(&self, state: ClockState) {
        *self.mode.write().expect("clock lock poisoned") = match state {
            ClockState::Real => Mode::Real,
            ClockState::Shifted { offset_seconds } => {
                Mode::Shifted(Duration::seconds(offset_seconds))
            }
            ClockState::Frozen { at } => Mode::Frozen(at),
        };
    }
}

fn check_range(at: Option<OffsetDateTime>) -> Result<(), String> {
    match at {
        Some(at) if (EARLIEST..=LATEST).contains(&at) => Ok(()),
        _ => Err(format!(
            "the sandbox clock can be moved between {EARLIEST} and {LATEST}; that would leave this range"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_frozen_clock_moves_only_when_advanced() {
        let clock = Clock::frozen(datetime!(2026-01-01 12:00 UTC));
        assert_eq!(clock.now(), datetime!(2026-01-01 12:00 UTC));
        clock.advance(Duration::hours(1));
        assert_eq!(clock.now(), datetime!(2026-01-01 13:00 UTC));
        clock.set(datetime!(2030-05-05 00:00 UTC));
        assert_eq!(clock.now(), datetime!(2030-05-05 00:00 UTC));
    }

    #[test]
    fn the_clock_refuses_to_leave_its_range() {
        let clock = Clock::frozen(datetime!(2026-01-01 12:00 UTC));
        assert!(clock.try_advance(Duration::days(3_000_000)).is_err());
        assert!(clock.try_set(datetime!(1969-12-31 0:00 UTC)).is_err());
        assert_eq!(
            clock.now(),
            datetime!(2026-01-01 12:00 UTC),
            "unchanged after a refusal"
        );
        assert!(clock.try_advance(Duration::days(1)).is_ok());
    }

    #[test]
    fn an_advanced_real_clock_keeps_running_ahead_of_the_machine() {
        let clock = Clock::real();
        clock.advance(Duration::days(2));
        let ahead = clock.now() - OffsetDateTime::now_utc();
        assert!(ahead > Duration::hours(47) && ahead < Duration::hours(49));
        assert_eq!(clock.reading().mode, "shifted");
        clock.reset();
        assert!((clock.now() - OffsetDateTime::now_utc()).abs() < Duration::seconds(5));
    }
}
