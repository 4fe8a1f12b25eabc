//! The query of both sandbox transaction listings: `fromDate`, `toDate`, `offset`, `limit`.
//!
//! Both listings filter by date (inclusive at both ends) and then page: `offset` items are skipped,
//! then at most `limit` are returned. Without `limit` a page holds 200 items (docs/interface.md#limits:
//! default page size). A malformed value is refused with 400 FORMAT_ERROR naming the parameter.

use super::input;
use crate::domain::refusal::Refusal;
use serde::Deserialize;
use time::Date;

/// Without pagination parameters a page holds 200 items (docs/interface.md#limits).
pub const DEFAULT_LIMIT: usize = 200;

/// The raw query parameters; all are text so that a bad value gets our error, not the extractor's.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListingQuery {
    pub from_date: Option<String>,
    pub to_date: Option<String>,
    pub offset: Option<String>,
    pub limit: Option<String>,
}

/// A validated listing query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    pub from: Option<Date>,
    pub to: Option<Date>,
    pub offset: usize,
    pub limit: usize,
}

impl Default for Listing {
    fn default() -> Self {
        Listing {
            from: None,
            to: None,
            offset: 0,
            limit: DEFAULT_LIMIT,
        }
    }
}

impl Listing {
    pub fn parse(query: &ListingQuery) -> Result<Listing, Refusal> {
        let from = query
            .from_date
            .as_deref()
            .map(|d| input::date("fromDate", d))
            .transpose()?;
        let to = query
            .to_date
            .as_deref()
            .map(|d| input::date("toDate", d))
            .transpose()?;
        if let (Some(from), Some(to)) = (from, to) {
            if from > to {
                return Err(Refusal::format(
                    "fromDate",
                    format!("fromDate {from} is after toDate {to}; no transaction can match"),
                ));
            }
        }
        let offset = match &query.offset {
            None => 0,
            Some(text) => int32("offset", text, 0)?,
        };
        let limit = match &query.limit {
            None => DEFAULT_LIMIT,
            Some(text) => int32("limit", text, 1)?,
        };
        Ok(Listing {
            from,
            to,
            offset,
            limit,
        })
    }

    /// Whether `date` lies within `fromDate..=toDate`.
    pub fn includes(&self, date: Date) -> bool {
        self.from.is_none_or(|from| date >= from) && self.to.is_none_or(|to| date <= to)
    }

    /// The page of `items` (already filtered and in order) this query asks for.
    pub fn page<T>(&self, items: impl IntoIterator<Item = T>) -> Vec<T> {
        items
            .into_iter()
            .skip(self.offset)
            .take(self.limit)
            .collect()
    }
}

/// An int32 query value of at least `min`, else 400 FORMAT_ERROR naming the parameter (also the account
/// information listings' `limit` and `offset`).
pub(crate) fn int32(name: &str, text: &str, min: i32) -> Result<usize, Refusal> {
    let value: i32 = text.trim().parse().map_err(|_| {
        Refusal::format(
            name,
            format!("{name} '{text}' is not a whole number (int32)"),
        )
    })?;
    if value < min {
        return Err(Refusal::format(
            name,
            format!("{name} is {value}, it must be at least {min}"),
        ));
    }
    Ok(value as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::refusal::Code;
    use time::macros::date;

    fn query(pairs: &[(&str, &str)]) -> ListingQuery {
        let mut q = ListingQuery::default();
        for (k, v) in pairs {
            let v = Some(v.to_string());
            match *k {
                "fromDate" => q.from_date = v,
                "toDate" => q.to_date = v,
                "offset" => q.offset = v,
                "limit" => q.limit = v,
                _ => unreachable!(),
            }
        }
        q
    }

    fn refused(pairs: &[(&str, &str)]) -> Refusal {
        Listing::parse(&query(pairs)).unwrap_err()
    }

    #[test]
    fn no_parameters_mean_everything_in_pages_of_200() {
        assert_eq!(Listing::parse(&query(&[])).unwrap(), Listing::default());
        assert_eq!(Listing::default().limit, 200);
    }

    #[test]
    fn limit_zero_is_a_format_error_at_limit() {
        let e = refused(&[("limit", "0")]);
        assert_eq!(e.status(), 400);
        assert_eq!(e.code, Code::FormatError);
        assert_eq!(e.path.as_deref(), Some("limit"));
    }

    #[test]
    fn negative_or_non_numeric_limit_is_refused() {
        assert_eq!(refused(&[("limit", "-5")]).path.as_deref(), Some("limit"));
        assert_eq!(refused(&[("limit", "ten")]).path.as_deref(), Some("limit"));
        assert_eq!(
            refused(&[("limit", "3000000000")]).path.as_deref(),
            Some("limit")
        );
    }

    #[test]
    fn negative_offset_is_refused_and_zero_accepted() {
        let e = refused(&[("offset", "-1")]);
        assert_eq!(
            (e.code, e.path.as_deref()),
            (Code::FormatError, Some("offset"))
        );
        assert_eq!(
            Listing::parse(&query(&[("offset", "0")])).unwrap().offset,
            0
        );
    }

    #[test]
    fn a_malformed_date_names_its_parameter() {
        let e = refused(&[("fromDate", "2024-13-01")]);
        assert_eq!(
            (e.code, e.path.as_deref()),
            (Code::FormatError, Some("fromDate"))
        );
        assert_eq!(
            refused(&[("toDate", "01.02.2024")]).path.as_deref(),
            Some("toDate")
        );
    }

    #[test]
    fn from_after_to_is_refused() {
        let e = refused(&[("fromDate", "2024-02-02"), ("toDate", "2024-02-01")]);
        assert_eq!(e.path.as_deref(), Some("fromDate"));
    }

    #[test]
    fn dates_are_inclusive_and_pages_skip_then_take() {
        let l = Listing::parse(&query(&[
            ("fromDate", "2024-01-02"),
            ("toDate", "2024-01-03"),
            ("offset", "1"),
            ("limit", "2"),
        ]))
        .unwrap();
        assert!(!l.includes(date!(2024 - 01 - 01)));
        assert!(l.includes(date!(2024 - 01 - 02)));
        assert!(l.includes(date!(2024 - 01 - 03)));
        assert!(!l.includes(date!(2024 - 01 - 04)));
        assert_eq!(l.page([1, 2, 3, 4]), vec![2, 3]);
    }
}
