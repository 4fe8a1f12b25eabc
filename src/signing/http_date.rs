//! The Date header: RFC 7231 IMF-fixdate. SPEC.md's own example ends in "UTC" rather than "GMT", so both
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
        format!(
            "Date '{trimmed}' is not an RFC 7231 date; write it like '{}'",
            format(OffsetDateTime::now_utc())
        )
    })?;
    Ok(OffsetDateTime::from(system))
}

/// Formats an instant as an IMF-fixdate (`Sun, 17 May 2018 08:37:12 GMT`).
pub fn format(at: OffsetDateTime) -> String {
    httpdate::fmt_http_date(SystemTime::from(at))
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
    fn formatting_round_trips() {
        let at = datetime!(2026-11-22 10:00:05 UTC);
        assert_eq!(format(at), "Sun, 22 Nov 2026 10:00:05 GMT");
        assert_eq!(parse(&format(at)).unwrap(), at);
    }
}
