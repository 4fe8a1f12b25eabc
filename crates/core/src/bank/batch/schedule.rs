//! The batch schedule: five runs per simulated day at fixed times (payment batch processing runs five
//! times a day: docs/reference/payments.md#sca-states-batch-runs).
//!
//! The times are in UTC. The sandbox clock is UTC throughout (`Clock::now` is UTC, every stored instant
//! is UTC), and a schedule in Europe/Oslo would shift by an hour twice a year and need a time-zone
//! database for no gain in a simulator: 05:00, 08:00, 11:00, 14:00 and 18:00 UTC spread the runs over the
//! Norwegian business day (06:00/07:00 to 19:00/20:00 local) with the last run after business hours,
//! where payments still lacking funds are rejected.

use time::{Date, Duration, OffsetDateTime, Time};

/// The run times of every day, ascending (UTC).
pub const RUN_TIMES: [Time; 5] = [
    time::macros::time!(05:00),
    time::macros::time!(08:00),
    time::macros::time!(11:00),
    time::macros::time!(14:00),
    time::macros::time!(18:00),
];

/// The scheduled runs of `date`, ascending.
pub fn runs_of_day(date: Date) -> impl Iterator<Item = OffsetDateTime> {
    RUN_TIMES
        .into_iter()
        .map(move |t| date.with_time(t).assume_utc())
}

/// The first scheduled run strictly after `t`.
pub fn next_run_after(t: OffsetDateTime) -> OffsetDateTime {
    let t = t.to_offset(time::UtcOffset::UTC);
    let mut date = t.date();
    loop {
        if let Some(run) = runs_of_day(date).find(|run| *run > t) {
            return run;
        }
        date = date.next_day().unwrap_or(date + Duration::days(1));
    }
}

/// The scheduled runs `r` with `a < r <= b`, ascending: the runs that came due when time moved from `a`
/// to `b`. Empty when `b <= a`.
pub fn runs_between(a: OffsetDateTime, b: OffsetDateTime) -> Vec<OffsetDateTime> {
    let mut runs = Vec::new();
    let mut run = next_run_after(a);
    while run <= b {
        runs.push(run);
        run = next_run_after(run);
    }
    runs
}

/// True when `t` is at or after the day's last scheduled run: payments still short of funds are rejected
/// then rather than carried into the next day.
pub fn is_last_run_of_day(t: OffsetDateTime) -> bool {
    let t = t.to_offset(time::UtcOffset::UTC);
    t.time() >= RUN_TIMES[RUN_TIMES.len() - 1]
}

/// The next `n` scheduled runs after `t` (for `GET /v1/sandbox/batch-runs`).
pub fn upcoming(t: OffsetDateTime, n: usize) -> Vec<OffsetDateTime> {
    let mut runs = Vec::with_capacity(n);
    let mut at = t;
    for _ in 0..n {
        at = next_run_after(at);
        runs.push(at);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn the_next_run_is_strictly_after_the_given_instant() {
        assert_eq!(
            next_run_after(datetime!(2026-06-01 12:00 UTC)),
            datetime!(2026-06-01 14:00 UTC)
        );
        assert_eq!(
            next_run_after(datetime!(2026-06-01 14:00 UTC)),
            datetime!(2026-06-01 18:00 UTC)
        );
        assert_eq!(
            next_run_after(datetime!(2026-06-01 18:00 UTC)),
            datetime!(2026-06-02 05:00 UTC)
        );
        assert_eq!(
            next_run_after(datetime!(2026-12-31 23:59 UTC)),
            datetime!(2027-01-01 05:00 UTC)
        );
    }

    #[test]
    fn instants_in_other_offsets_are_read_as_utc() {
        // 15:30 in Oslo summer time is 13:30 UTC: the next run is 14:00 UTC.
        assert_eq!(
            next_run_after(datetime!(2026-06-01 15:30 +02:00)),
            datetime!(2026-06-01 14:00 UTC)
        );
    }

    #[test]
    fn runs_between_counts_five_a_day_and_includes_the_end() {
        let start = datetime!(2026-06-01 12:00 UTC);
        assert_eq!(
            runs_between(start, datetime!(2026-06-01 14:00 UTC)),
            [datetime!(2026-06-01 14:00 UTC)]
        );
        assert!(runs_between(start, start).is_empty());
        assert!(runs_between(start, start - Duration::hours(5)).is_empty());
        assert_eq!(runs_between(start, start + Duration::days(1)).len(), 5);
        assert_eq!(runs_between(start, start + Duration::days(31)).len(), 155);
    }

    #[test]
    fn only_the_evening_run_is_the_last_of_the_day() {
        assert!(is_last_run_of_day(datetime!(2026-06-01 18:00 UTC)));
        assert!(is_last_run_of_day(datetime!(2026-06-01 23:00 UTC)));
        assert!(!is_last_run_of_day(datetime!(2026-06-01 14:00 UTC)));
        assert!(!is_last_run_of_day(datetime!(2026-06-01 04:00 UTC)));
    }

    #[test]
    fn upcoming_lists_the_next_runs_in_order() {
        let next = upcoming(datetime!(2026-06-01 17:00 UTC), 3);
        assert_eq!(
            next,
            [
                datetime!(2026-06-01 18:00 UTC),
                datetime!(2026-06-02 05:00 UTC),
                datetime!(2026-06-02 08:00 UTC)
            ]
        );
    }
}
