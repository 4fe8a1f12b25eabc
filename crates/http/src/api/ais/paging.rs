//! The query of the transaction listings (`bookingStatus`, `dateFrom`, `dateTo`, `limit`, `offset`) and
//! the pagination links of the answer.
//!
//! Paging: the transactions the query selects (by booking date, or transaction date for pending card
//! transactions, both ends inclusive) are counted in listing order, `offset` are skipped and at most
//! `limit` returned. Without `limit` a page holds 200 (docs/interface.md#limits).
//!
//! Links (`_links` of `transactions` / `cardTransactions`, each `{href, verbs: ["GET"]}`): `self` (this
//! page), `first` (offset 0), `last` (the offset of the last page, 0 when nothing matches), `next` only
//! when more follow, `previous` only when `offset > 0`, plus `account` / `cardAccount` (the account's
//! details). Every paging href states `limit` and `offset` explicitly — with no pagination parameters it
//! says `limit=200` (docs/reference/ais-sca.md#the-rules-each-with-a-test) — followed by the request's
//! other parameters in a fixed order: `bookingStatus`, `dateFrom`, `dateTo`. When the history was limited
//! to 90 days (PSU not present) `dateFrom` is the limited date, so the links describe exactly what was
//! served.

use super::views::{date, history_limited, int32, BookingStatus};
use crate::api::error::{ApiError, ApiResult};
use crate::api::links::Links;
use serde::Deserialize;
use time::Date;
use xs2a_core::bank::mock::model::format_date;
use xs2a_core::domain::refusal::TppMessage;

/// Without pagination parameters a page holds 200 transactions (docs/interface.md#limits).
pub const DEFAULT_LIMIT: usize = 200;

/// The raw parameters; text, so a bad value is our FORMAT_ERROR naming it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionQuery {
    pub booking_status: Option<String>,
    pub date_from: Option<String>,
    pub date_to: Option<String>,
    pub limit: Option<String>,
    pub offset: Option<String>,
    /// Every other parameter, kept to tell a name that differs only in case (`BookingStatus`).
    #[serde(flatten)]
    pub others: std::collections::BTreeMap<String, String>,
}

/// The names [`TransactionQuery`] reads.
const NAMES: [&str; 5] = ["bookingStatus", "dateFrom", "dateTo", "limit", "offset"];

/// A validated listing query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransactionListing {
    pub status: BookingStatus,
    pub from: Option<Date>,
    pub to: Option<Date>,
    pub limit: usize,
    pub offset: usize,
}

/// The parameter sent whose name differs from `name` only in case, if one was.
fn case_twin<'q>(query: &'q TransactionQuery, name: &str) -> Option<&'q str> {
    debug_assert!(NAMES.contains(&name));
    query
        .others
        .keys()
        .find(|sent| sent.eq_ignore_ascii_case(name))
        .map(String::as_str)
}

impl TransactionListing {
    pub fn parse(query: &TransactionQuery) -> ApiResult<TransactionListing> {
        let status = BookingStatus::parse(query.booking_status.as_deref()).map_err(|error| {
            match case_twin(query, "bookingStatus") {
                Some(sent) => {
                    let mut error = error;
                    error.refusal.text = format!(
                        "bookingStatus is required; '{sent}' was sent, which differs from it only in \
                         case (query parameter names are case-sensitive)"
                    );
                    error
                }
                None => error,
            }
        })?;
        let from = date("dateFrom", query.date_from.as_deref())?;
        let to = date("dateTo", query.date_to.as_deref())?;
        if let (Some(from), Some(to)) = (from, to) {
            if from > to {
                return Err(ApiError::format(
                    "dateFrom",
                    format!("dateFrom {from} is after dateTo {to}; no transaction can match"),
                ));
            }
        }
        let limit = match &query.limit {
            None => DEFAULT_LIMIT,
            Some(text) => int32("limit", text, 1)?,
        };
        let offset = match &query.offset {
            None => 0,
            Some(text) => int32("offset", text, 0)?,
        };
        Ok(TransactionListing {
            status,
            from,
            to,
            limit,
            offset,
        })
    }

    /// Without the PSU present the history starts at `floor`: a missing or earlier `dateFrom` is raised
    /// to it, with a WARNING saying so.
    pub fn limit_history(&mut self, floor: Option<Date>) -> Option<TppMessage> {
        let floor = floor?;
        if self.from.is_some_and(|from| from >= floor) {
            return None;
        }
        self.from = Some(floor);
        Some(history_limited(floor))
    }

    /// Whether `date` lies within `dateFrom..=dateTo`.
    pub fn includes(&self, date: Date) -> bool {
        self.from.is_none_or(|from| date >= from) && self.to.is_none_or(|to| date <= to)
    }

    /// This page of the selected items.
    pub fn page<T>(&self, items: Vec<T>) -> Vec<T> {
        items
            .into_iter()
            .skip(self.offset)
            .take(self.limit)
            .collect()
    }

    fn href(&self, path: &str, offset: usize) -> String {
        let mut pairs: Vec<(&str, String)> = vec![("bookingStatus", self.status.as_str().into())];
        if let Some(from) = self.from {
            pairs.push(("dateFrom", format_date(from)));
        }
        if let Some(to) = self.to {
            pairs.push(("dateTo", format_date(to)));
        }
        pairs.push(("limit", self.limit.to_string()));
        pairs.push(("offset", offset.to_string()));
        let query = serde_urlencoded::to_string(&pairs).expect("string pairs encode");
        format!("{path}?{query}")
    }

    /// The links of a page of `total` selected items listed at `path`; `owner` names the account link.
    pub fn links(&self, path: &str, total: usize, owner: (&'static str, String)) -> Links {
        let last = if total == 0 {
            0
        } else {
            (total - 1) / self.limit * self.limit
        };
        let mut links = Links::new()
            .get(owner.0, owner.1)
            .get("self", self.href(path, self.offset))
            .get("first", self.href(path, 0))
            .get("last", self.href(path, last));
        if self.offset + self.limit < total {
            links = links.get("next", self.href(path, self.offset + self.limit));
        }
        if self.offset > 0 {
            let previous = self.offset.saturating_sub(self.limit);
            links = links.get("previous", self.href(path, previous));
        }
        links
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn listing(pairs: &[(&str, &str)]) -> ApiResult<TransactionListing> {
        let text = serde_urlencoded::to_string(pairs).unwrap();
        TransactionListing::parse(&serde_urlencoded::from_str(&text).unwrap())
    }

    fn hrefs(links: &Links) -> serde_json::Value {
        serde_json::to_value(links).unwrap()
    }

    #[test]
    fn without_pagination_parameters_links_state_limit_200() {
        let l = listing(&[("bookingStatus", "booked")]).unwrap();
        assert_eq!(l.limit, 200);
        let links = hrefs(&l.links(
            "/v1/accounts/a/transactions",
            450,
            ("account", "/v1/accounts/a".into()),
        ));
        assert_eq!(
            links["self"]["href"],
            "/v1/accounts/a/transactions?bookingStatus=booked&limit=200&offset=0"
        );
        assert_eq!(
            links["next"]["href"],
            "/v1/accounts/a/transactions?bookingStatus=booked&limit=200&offset=200"
        );
        assert_eq!(
            links["last"]["href"],
            "/v1/accounts/a/transactions?bookingStatus=booked&limit=200&offset=400"
        );
        assert!(links.get("previous").is_none());
        assert_eq!(links["self"]["verbs"], serde_json::json!(["GET"]));
    }

    #[test]
    fn a_middle_page_links_both_ways_and_keeps_the_dates() {
        let l = listing(&[
            ("bookingStatus", "both"),
            ("dateFrom", "2026-01-01"),
            ("limit", "10"),
            ("offset", "15"),
        ])
        .unwrap();
        let links = hrefs(&l.links("/p", 30, ("account", "/a".into())));
        assert_eq!(
            links["previous"]["href"],
            "/p?bookingStatus=both&dateFrom=2026-01-01&limit=10&offset=5"
        );
        assert_eq!(
            links["next"]["href"],
            "/p?bookingStatus=both&dateFrom=2026-01-01&limit=10&offset=25"
        );
        let end = hrefs(&l.links("/p", 25, ("account", "/a".into())));
        assert!(end.get("next").is_none());
    }

    #[test]
    fn refusals_name_their_parameter() {
        let cases: [(&[(&str, &str)], &str); 5] = [
            (&[], "bookingStatus"),
            (&[("bookingStatus", "booked"), ("limit", "0")], "limit"),
            (&[("bookingStatus", "booked"), ("offset", "-1")], "offset"),
            (
                &[("bookingStatus", "booked"), ("dateFrom", "1.1.2026")],
                "dateFrom",
            ),
            (
                &[
                    ("bookingStatus", "booked"),
                    ("dateFrom", "2026-02-02"),
                    ("dateTo", "2026-02-01"),
                ],
                "dateFrom",
            ),
        ];
        for (pairs, path) in cases {
            assert_eq!(
                listing(pairs).unwrap_err().refusal.path.as_deref(),
                Some(path),
                "{pairs:?}"
            );
        }
    }

    #[test]
    fn history_is_raised_to_the_floor_only_when_earlier() {
        let floor = date!(2026 - 03 - 03);
        let mut open = listing(&[("bookingStatus", "booked")]).unwrap();
        assert!(open.limit_history(Some(floor)).is_some());
        assert_eq!(open.from, Some(floor));
        let mut recent =
            listing(&[("bookingStatus", "booked"), ("dateFrom", "2026-04-01")]).unwrap();
        assert!(recent.limit_history(Some(floor)).is_none());
        assert!(recent.limit_history(None).is_none());
        assert_eq!(recent.from, Some(date!(2026 - 04 - 01)));
    }
}
