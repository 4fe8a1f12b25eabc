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

impl ClockChange {
    /// The move a request asked for: exactly one of `now` (an instant), `advance` (an ISO 8601 duration
    /// such as `PT1H`) or `mode` (`real` or `frozen`); anything else is FORMAT_ERROR at the field, or at
    /// `(body)` when none or several were given (docs/reference/mock-data.md#endpoints, docs/reference/clock-and-service.md).
    pub fn asked(
        now: Option<OffsetDateTime>,
        advance: Option<&str>,
        mode: Option<&str>,
    ) -> CoreResult<ClockChange> {
        match (now, advance, mode) {
            (Some(now), None, None) => Ok(ClockChange::SetTo(now)),
            (None, Some(duration), None) => parse_iso_duration(duration)
                .map(ClockChange::Advance)
                .map_err(|reason| Refusal::format("advance", reason)),
            (None, None, Some("real")) => Ok(ClockChange::Real),
            (None, None, Some("frozen")) => Ok(ClockChange::Freeze),
            (None, None, Some(mode)) => Err(Refusal::format(
                "mode",
                format!("mode must be 'real' or 'frozen'; got '{mode}'"),
            )),
            _ => Err(Refusal::format(
                "(body)",
                "give exactly one of now (RFC 3339), advance (ISO 8601 duration such as PT1H) or mode (real|frozen)",
            )),
        }
    }
}

/// Parses an ISO 8601 duration of weeks, days, hours, minutes and seconds (`P1D`, `PT90M`, `-PT1H`,
/// `P2DT3H4M5S`); the error says what was wrong in words.
pub fn parse_iso_duration(text: &str) -> Result<Duration, String> {
    let hint = || format!("'{text}' is not an ISO 8601 duration like PT1H, P1D or P2DT3H30M");
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let rest = rest.strip_prefix('P').ok_or_else(hint)?;
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, Some(t)),
        Some(_) => return Err(hint()),
        None => (rest, None),
    };
    let mut total = Duration::ZERO;
    let mut read = |part: &str, units: &[(char, i64)]| -> Result<(), String> {
        let mut number = String::new();
        let mut allowed = units.iter();
        for c in part.chars() {
            if c.is_ascii_digit() {
                number.push(c);
                continue;
            }
            let seconds = allowed
                .find(|(unit, _)| *unit == c)
                .map(|(_, s)| *s)
                .ok_or_else(hint)?;
            let n: i64 = number.parse().map_err(|_| hint())?;
            let part = Duration::seconds(n.checked_mul(seconds).ok_or_else(hint)?);
            total = total.checked_add(part).ok_or_else(hint)?;
            number.clear();
        }
        if number.is_empty() {
            Ok(())
        } else {
            Err(hint())
        }
    };
    read(date_part, &[('W', 604_800), ('D', 86_400)])?;
    if let Some(time_part) = time_part {
        read(time_part, &[('H', 3600), ('M', 60), ('S', 1)])?;
    }
    if date_part.is_empty() && time_part.is_none() {
        return Err(hint());
    }
    Ok(if negative { -total } else { total })
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

    #[test]
    fn iso_durations_parse() {
        assert_eq!(parse_iso_duration("PT1H").unwrap(), Duration::hours(1));
        assert_eq!(parse_iso_duration("P1D").unwrap(), Duration::days(1));
        assert_eq!(
            parse_iso_duration("P2DT3H30M5S").unwrap(),
            Duration::seconds(2 * 86400 + 3 * 3600 + 30 * 60 + 5)
        );
        assert_eq!(
            parse_iso_duration("-PT90M").unwrap(),
            -Duration::minutes(90)
        );
        for bad in [
            "",
            "P",
            "PT",
            "1H",
            "PT1D",
            "P1H",
            "PTH",
            "P99999999999999999D",
        ] {
            assert!(parse_iso_duration(bad).is_err(), "{bad}");
        }
    }

    /// The code and the field a refused move names, with its status.
    fn refused(
        now: Option<OffsetDateTime>,
        advance: Option<&str>,
        mode: Option<&str>,
    ) -> (u16, &'static str, Option<String>) {
        let refusal = ClockChange::asked(now, advance, mode).unwrap_err();
        (refusal.status(), refusal.code.as_str(), refusal.path)
    }

    #[test]
    fn a_move_is_exactly_one_of_now_advance_or_mode() {
        let at = datetime!(2026-01-01 12:00 UTC);
        assert_eq!(
            ClockChange::asked(Some(at), None, None).unwrap(),
            ClockChange::SetTo(at)
        );
        assert_eq!(
            ClockChange::asked(None, Some("PT1H"), None).unwrap(),
            ClockChange::Advance(Duration::hours(1))
        );
        assert_eq!(
            ClockChange::asked(None, None, Some("real")).unwrap(),
            ClockChange::Real
        );
        assert_eq!(
            ClockChange::asked(None, None, Some("frozen")).unwrap(),
            ClockChange::Freeze
        );
        let body = (400, "FORMAT_ERROR", Some("(body)".to_owned()));
        assert_eq!(refused(None, None, None), body);
        assert_eq!(refused(Some(at), Some("PT1H"), None), body);
        assert_eq!(refused(None, Some("PT1H"), Some("real")), body);
        assert_eq!(
            refused(None, Some("1H"), None),
            (400, "FORMAT_ERROR", Some("advance".to_owned()))
        );
        assert_eq!(
            refused(None, None, Some("paused")),
            (400, "FORMAT_ERROR", Some("mode".to_owned()))
        );
    }
}
