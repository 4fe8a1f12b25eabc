//! The Date header: RFC 7231 IMF-fixdate. The bank's own example ends in "UTC" rather than "GMT", so both
//! are read; the obsolete RFC 850 and asctime forms are read too, since RFC 7231 requires recipients to.

use std::time::SystemTime;
use time::OffsetDateTime;

/// Parses a Date header value.
pub fn parse(value: &str) -> Result<OffsetDateTime, String> {
    let trimmed = value.trim();
    let normalised = match trimmed.strip_suffix(" UTC") {
        Some(head) => format!("{head} GMT"),
        None => trimmed.to_owned(),
    };
    let system: SystemTime = httpdate::parse_http_date(&normalised).map_err(|_| {
        if let Some(weekday) = wrong_weekday(&normalised) {
            return format!("Date '{trimmed}' names the wrong weekday: that date is a {weekday}");
        }
        format!(
            "Date '{trimmed}' is not an RFC 7231 date; write it like '{}'",
            format(OffsetDateTime::now_utc())
        )
    })?;
    Ok(OffsetDateTime::from(system))
}

/// Formats an instant as an IMF-fixdate (`Sun, 17 May 2018 08:37:12 GMT`). Never panics, whatever
/// the year (httpdate's formatter does outside 1970..9999).
pub fn format(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    let description = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    at.format(&description).unwrap_or_else(|_| at.to_string())
}

/// When only the weekday is wrong (e.g. the bank's own example), the weekday the date really has.
fn wrong_weekday(value: &str) -> Option<&'static str> {
    let (_, rest) = value.split_once(", ")?;
    for day in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] {
        if httpdate::parse_http_date(&format!("{day}, {rest}")).is_ok() {
            return Some(day);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn gmt_and_the_spec_s_utc_form_are_both_read() {
        let expected = datetime!(2018-05-17 08:37:12 UTC);
        assert_eq!(parse("Thu, 17 May 2018 08:37:12 GMT").unwrap(), expected);
        assert_eq!(parse("Thu, 17 May 2018 08:37:12 UTC").unwrap(), expected);
    }

    #[test]
    fn iso_dates_are_refused_with_an_example() {
        let error = parse("2018-05-17T08:37:12Z").unwrap_err();
        assert!(error.contains("RFC 7231"), "{error}");
    }

    #[test]
    fn a_wrong_weekday_is_named() {
        // The bank's example: 17 May 2018 was a Thursday.
        let error = parse("Sun, 17 May 2018 08:37:12 UTC").unwrap_err();
        assert!(error.contains("Thu"), "{error}");
    }

    #[test]
    fn formatting_never_panics_for_odd_years() {
        assert!(format(time::macros::datetime!(1969-12-31 23:59:59 UTC)).ends_with("GMT"));
    }

    #[test]
    fn formatting_round_trips() {
        let at = datetime!(2026-11-22 10:00:05 UTC);
        assert_eq!(format(at), "Sun, 22 Nov 2026 10:00:05 GMT");
        assert_eq!(parse(&format(at)).unwrap(), at);
    }
}
