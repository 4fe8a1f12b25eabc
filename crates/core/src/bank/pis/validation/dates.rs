//! Dates in payment bodies (`requestedExecutionDate`, `startDate`, `endDate`): ISO 8601 `YYYY-MM-DD`,
//! judged against "today", the calendar date of the sandbox clock's `now` in UTC.
//!
//! A requested execution date in the past, or more than one year ahead, is 400
//! EXECUTION_DATE_INVALID; instant payments execute at once, so theirs must be absent or today.

use super::fields::{at, opt_str, Object};
use super::Ctx;
use crate::domain::refusal::{Code, Refusal};
use time::Date;

/// Parses `YYYY-MM-DD` at `path`; a malformed date is a FORMAT_ERROR (not an execution-date error).
pub fn parse_date(path: &str, text: &str) -> Result<Date, Refusal> {
    crate::domain::calendar_date::parse(text)
        .map_err(|reason| Refusal::format(path, format!("{path} {reason}.")))
}

/// An optional date field.
pub fn opt_date(object: &Object, prefix: &str, name: &str) -> Result<Option<Date>, Refusal> {
    opt_str(object, prefix, name)?
        .map(|text| parse_date(&at(prefix, name), text))
        .transpose()
}

/// 400 EXECUTION_DATE_INVALID at `path`.
pub fn invalid(path: &str, text: impl Into<String>) -> Refusal {
    Refusal::new(Code::ExecutionDateInvalid, Some(path), text)
}

/// The last date a payment may be requested for: one year from today (28 February when today is
/// 29 February).
pub fn latest(today: Date) -> Date {
    today
        .replace_year(today.year() + 1)
        .or_else(|_| {
            today
                .replace_day(28)
                .and_then(|d| d.replace_year(today.year() + 1))
        })
        .expect("28 February exists every year")
}

/// Refuses a date before today.
pub fn not_in_past(ctx: &Ctx, path: &str, date: Date) -> Result<(), Refusal> {
    if date < ctx.today {
        return Err(invalid(
            path,
            format!(
                "{path} {date} is in the past; today is {} (UTC). Use today or a later date.",
                ctx.today
            ),
        ));
    }
    Ok(())
}

/// `requestedExecutionDate` at `prefix`, checked against today and the product.
pub fn requested_execution_date(
    ctx: &Ctx,
    object: &Object,
    prefix: &str,
) -> Result<Option<Date>, Refusal> {
    let path = at(prefix, "requestedExecutionDate");
    let Some(date) = opt_date(object, prefix, "requestedExecutionDate")? else {
        return Ok(None);
    };
    not_in_past(ctx, &path, date)?;
    if ctx.product.is_instant() && date != ctx.today {
        return Err(invalid(
            &path,
            format!(
                "{path} {date} is not today ({}): instant payments execute at once, so leave \
                 requestedExecutionDate out or set it to today.",
                ctx.today
            ),
        ));
    }
    let latest = latest(ctx.today);
    if date > latest {
        return Err(invalid(
            &path,
            format!("{path} {date} is more than a year ahead; the latest date is {latest}."),
        ));
    }
    Ok(Some(date))
}
