//! The standing-order part of a periodic payment (`/v1/periodic-payments/...`), in the Berlin Group
//! shape: `startDate` (required, not in the past), `endDate` (optional, not before `startDate`),
//! `frequency` (required, a Berlin Group frequency code), `dayOfExecution` (optional, "1".."31";
//! the integer form is accepted too) and `executionRule` (optional, `following` or `preceding`;
//! validated, not stored: the sandbox executes periodic payments on the calendar date).

use super::dates::{invalid, not_in_past, opt_date};
use super::fields::{at, get, missing, opt_str, wrong_type, Object};
use super::Ctx;
use crate::bank::pis::model::{Frequency, Schedule};
use crate::domain::refusal::Refusal;
use serde_json::Value;

/// Berlin Group `frequencyCode` values the sandbox runs, with their model value. `MonthlyVariable`
/// (also in Berlin Group) is not offered.
pub const FREQUENCIES: [(&str, Frequency); 8] = [
    ("Daily", Frequency::Daily),
    ("Weekly", Frequency::Weekly),
    ("EveryTwoWeeks", Frequency::EveryTwoWeeks),
    ("Monthly", Frequency::Monthly),
    ("EveryTwoMonths", Frequency::EveryTwoMonths),
    ("Quarterly", Frequency::Quarterly),
    ("SemiAnnual", Frequency::SemiAnnual),
    ("Annual", Frequency::Annual),
];

/// Berlin Group `executionRule` values.
pub const EXECUTION_RULES: [&str; 2] = ["following", "preceding"];

/// The schedule of a periodic payment body.
pub fn schedule(ctx: &Ctx, object: &Object) -> Result<Schedule, Refusal> {
    let start_date =
        opt_date(object, "", "startDate")?.ok_or_else(|| missing(object, "", "startDate"))?;
    not_in_past(ctx, "startDate", start_date)?;
    let end_date = opt_date(object, "", "endDate")?;
    if let Some(end) = end_date.filter(|end| *end < start_date) {
        return Err(invalid(
            "endDate",
            format!("endDate {end} is before startDate {start_date}."),
        ));
    }
    let frequency = frequency(object)?;
    let day_of_execution = day_of_execution(object)?;
    if let Some(rule) = opt_str(object, "", "executionRule")? {
        if !EXECUTION_RULES.contains(&rule) {
            return Err(Refusal::format(
                "executionRule",
                format!("executionRule '{rule}' is not one of following, preceding."),
            ));
        }
    }
    Ok(Schedule {
        start_date,
        end_date,
        frequency,
        day_of_execution,
    })
}

/// `frequency`: required, one of [`FREQUENCIES`] (case as Berlin Group writes them).
fn frequency(object: &Object) -> Result<Frequency, Refusal> {
    let text = opt_str(object, "", "frequency")?.ok_or_else(|| missing(object, "", "frequency"))?;
    FREQUENCIES
        .iter()
        .find(|(code, _)| *code == text)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let codes: Vec<&str> = FREQUENCIES.iter().map(|(c, _)| *c).collect();
            Refusal::format(
                "frequency",
                format!("frequency '{text}' is not one of {}.", codes.join(", ")),
            )
        })
}

/// `dayOfExecution`: Berlin Group writes it as a string "1".."31" without leading zeroes; an
/// integer 1..=31 is accepted as well, since clients often send one.
fn day_of_execution(object: &Object) -> Result<Option<u8>, Refusal> {
    let path = at("", "dayOfExecution");
    let refuse = |shown: String| {
        Refusal::format(
            &path,
            format!("dayOfExecution {shown} is not a day of the month: use \"1\" to \"31\" (31 is the last day of the month)."),
        )
    };
    let day = match get(object, "dayOfExecution") {
        None => return Ok(None),
        Some(Value::String(s)) => {
            if s.starts_with('0') || s.len() > 2 {
                return Err(refuse(format!("'{s}'")));
            }
            s.parse::<u8>().map_err(|_| refuse(format!("'{s}'")))?
        }
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| refuse(n.to_string()))?,
        Some(other) => return Err(wrong_type(&path, "a string such as \"15\"", other)),
    };
    if !(1..=31).contains(&day) {
        return Err(refuse(day.to_string()));
    }
    Ok(Some(day))
}
