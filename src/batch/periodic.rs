//! Standing-order dates: when the next instance of a periodic payment is due.
//!
//! Monthly-based frequencies keep the day of execution (`dayOfExecution`, else the start date's day) and
//! cap it to the month's last day, so a payment on the 31st runs on 30 April and 28 (29) February and
//! returns to the 31st in May.

use crate::payments::model::{Frequency, Schedule};
use time::{Date, Duration, Month};

/// The due date after `current`.
pub fn next_execution(schedule: &Schedule, current: Date) -> Date {
    let months = match schedule.frequency {
        Frequency::Daily => return current + Duration::days(1),
        Frequency::Weekly => return current + Duration::weeks(1),
        Frequency::EveryTwoWeeks => return current + Duration::weeks(2),
        Frequency::Monthly => 1,
        Frequency::EveryTwoMonths => 2,
        Frequency::Quarterly => 3,
        Frequency::SemiAnnual => 6,
        Frequency::Annual => 12,
    };
    let day = schedule
        .day_of_execution
        .unwrap_or(schedule.start_date.day())
        .clamp(1, 31);
    add_months(current, months, day)
}

/// The date `months` after `from`'s month, on `day` capped to that month's length.
fn add_months(from: Date, months: i32, day: u8) -> Date {
    let index = from.year() * 12 + i32::from(u8::from(from.month())) - 1 + months;
    let (year, month) = (index.div_euclid(12), index.rem_euclid(12) as u8 + 1);
    let month = Month::try_from(month).expect("1..=12");
    let day = day.min(month.length(year));
    Date::from_calendar_date(year, month, day).expect("a capped day exists")
}

/// The first due date of a schedule: the start date, or for monthly frequencies with a day of execution
/// the first such day on or after it.
pub fn first_execution(schedule: &Schedule) -> Date {
    let start = schedule.start_date;
    match (schedule.frequency, schedule.day_of_execution) {
        (Frequency::Daily | Frequency::Weekly | Frequency::EveryTwoWeeks, _) | (_, None) => start,
        (_, Some(day)) => {
            let this_month = add_months(start, 0, day);
            if this_month >= start {
                this_month
            } else {
                add_months(start, 1, day)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn schedule(frequency: Frequency, start: Date, day: Option<u8>) -> Schedule {
        Schedule {
            start_date: start,
            end_date: None,
            frequency,
            day_of_execution: day,
        }
    }

    #[test]
    fn monthly_dates_are_capped_to_the_month_end_and_come_back() {
        let s = schedule(Frequency::Monthly, date!(2026 - 01 - 31), Some(31));
        let feb = next_execution(&s, date!(2026 - 01 - 31));
        assert_eq!(feb, date!(2026 - 02 - 28));
        assert_eq!(next_execution(&s, feb), date!(2026 - 03 - 31));
        assert_eq!(
            next_execution(&s, date!(2026 - 12 - 31)),
            date!(2027 - 01 - 31)
        );
        let leap = schedule(Frequency::Monthly, date!(2028 - 01 - 30), None);
        assert_eq!(
            next_execution(&leap, date!(2028 - 01 - 30)),
            date!(2028 - 02 - 29)
        );
    }

    #[test]
    fn other_frequencies_step_by_their_period() {
        let start = date!(2026 - 06 - 01);
        let next = |f| next_execution(&schedule(f, start, None), start);
        assert_eq!(next(Frequency::Daily), date!(2026 - 06 - 02));
        assert_eq!(next(Frequency::Weekly), date!(2026 - 06 - 08));
        assert_eq!(next(Frequency::EveryTwoWeeks), date!(2026 - 06 - 15));
        assert_eq!(next(Frequency::Quarterly), date!(2026 - 09 - 01));
        assert_eq!(next(Frequency::SemiAnnual), date!(2026 - 12 - 01));
        assert_eq!(next(Frequency::Annual), date!(2027 - 06 - 01));
    }

    #[test]
    fn the_first_execution_waits_for_the_day_of_execution() {
        let s = schedule(Frequency::Monthly, date!(2026 - 06 - 20), Some(5));
        assert_eq!(first_execution(&s), date!(2026 - 07 - 05));
        let s = schedule(Frequency::Monthly, date!(2026 - 06 - 02), Some(5));
        assert_eq!(first_execution(&s), date!(2026 - 06 - 05));
    }
}
