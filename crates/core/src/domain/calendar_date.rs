//! The interface's dates, `YYYY-MM-DD` (ISO 8601), read in one place for queries, payment bodies and mock
//! data. A text of the right form that names no day (`2026-02-30`, `2026-13-01`) is told apart from a
//! text of another form, because the fix differs: another day, not another format.

use super::DomainError;
use time::macros::format_description;
use time::{Date, Month};

/// Parses `text` as a date, or says which of the two it is not: of the form YYYY-MM-DD, or a calendar
/// date. The reason reads after the field's name: "dateFrom 2026-02-30 is not a calendar date (…)".
pub fn parse(text: &str) -> Result<Date, DomainError> {
    if let Ok(date) = Date::parse(text, format_description!("[year]-[month]-[day]")) {
        return Ok(date);
    }
    let text_form = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !text_form {
        return Err(DomainError::new(format!(
            "'{text}' is not a date of the form YYYY-MM-DD (ISO 8601)"
        )));
    }
    let number = |range: std::ops::Range<usize>| text[range].parse::<u16>().unwrap_or(0);
    let (year, month) = (number(0..4), number(5..7));
    let why = match u8::try_from(month)
        .ok()
        .and_then(|m| Month::try_from(m).ok())
    {
        None => format!("there is no month {month}"),
        Some(month) => format!("{month} {year} has {} days", month.length(i32::from(year))),
    };
    Err(DomainError::new(format!(
        "{text} is not a calendar date ({why})"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_that_does_not_exist_is_not_called_a_wrong_form() {
        let error = parse("2026-02-30").unwrap_err();
        assert_eq!(
            error.0,
            "2026-02-30 is not a calendar date (February 2026 has 28 days)"
        );
        let error = parse("2026-13-01").unwrap_err();
        assert!(error.0.contains("there is no month 13"), "{}", error.0);
    }

    #[test]
    fn another_form_is_named_as_such_and_real_days_are_read() {
        let error = parse("01.02.2026").unwrap_err();
        assert!(
            error.0.contains("is not a date of the form YYYY-MM-DD"),
            "{}",
            error.0
        );
        assert_eq!(
            parse("2028-02-29").unwrap(),
            time::macros::date!(2028 - 02 - 29)
        );
    }
}
