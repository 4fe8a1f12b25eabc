//! What a transaction listing asks (`bookingStatus`, `dateFrom`, `dateTo`, `limit`, `offset`), the rules
//! its values follow, and the page it selects: the same for account and card account transactions
//! (docs/reference/ais-sca.md#transaction-listings).
//!
//! Paging: the transactions the query selects (by booking date, or transaction date for pending card
//! transactions, both ends inclusive) are counted in listing order, `offset` are skipped and at most
//! `limit` returned. Without `limit` a page holds 200 (docs/interface.md#limits). Without the PSU present
//! the history starts 90 days back: a missing or earlier `dateFrom` is raised to that floor, with a
//! WARNING, so the listing as served (and its paging links) says exactly what was selected.

use crate::bank::mock::listing::{int32, DEFAULT_LIMIT};
use crate::bank::mock::model::format_date;
use crate::domain::calendar_date;
use crate::domain::refusal::{Code, CoreResult, Refusal, TppMessage};
use serde::Deserialize;
use time::Date;

/// The listing parameters as sent: text, so that a bad value is a FORMAT_ERROR naming its parameter.
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

/// `bookingStatus` of the account information listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookingStatus {
    Booked,
    Pending,
    /// `both`.
    Both,
    /// `all`: the same selection as `both` here (this bank has no `information` entries), but kept as
    /// sent, so the paging links repeat it.
    All,
}

impl BookingStatus {
    /// Required: missing is 400 QUERY_PARAMETER_REQUIRED, another value 400 FORMAT_ERROR.
    pub fn parse(value: Option<&str>) -> CoreResult<BookingStatus> {
        match value.map(str::trim) {
            None | Some("") => Err(Refusal::query_parameter_required("bookingStatus")),
            Some("booked") => Ok(BookingStatus::Booked),
            Some("pending") => Ok(BookingStatus::Pending),
            Some("both") => Ok(BookingStatus::Both),
            Some("all") => Ok(BookingStatus::All),
            Some(other) => Err(Refusal::format(
                "bookingStatus",
                format!(
                    "bookingStatus '{other}' is not supported; use booked, pending, both or all"
                ),
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BookingStatus::Booked => "booked",
            BookingStatus::Pending => "pending",
            BookingStatus::Both => "both",
            BookingStatus::All => "all",
        }
    }

    pub fn wants_booked(self) -> bool {
        self != BookingStatus::Pending
    }

    pub fn wants_pending(self) -> bool {
        self != BookingStatus::Booked
    }
}

/// A `YYYY-MM-DD` query value, else 400 FORMAT_ERROR naming the parameter.
fn date(name: &str, text: Option<&str>) -> CoreResult<Option<Date>> {
    text.map(|t| {
        calendar_date::parse(t.trim())
            .map_err(|reason| Refusal::format(name, format!("{name} {reason}.")))
    })
    .transpose()
}

/// The WARNING sent when a read without the PSU present asked for more than 90 days of history.
pub fn history_limited(floor: Date) -> TppMessage {
    TppMessage::warning(
        Code::AccessExceeded,
        Some("dateFrom"),
        format!(
            "Without the PSU present (no PSU-IP-Address) transaction history is limited to 90 days: \
             dateFrom was set to {}. Read with the PSU present for older transactions.",
            format_date(floor)
        ),
    )
}

/// A validated listing query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransactionListing {
    pub status: BookingStatus,
    pub from: Option<Date>,
    pub to: Option<Date>,
    pub limit: usize,
    pub offset: usize,
}

/// Where a page lies among the `total` selected items: what the paging links of the answer name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageWindow {
    pub total: usize,
    /// The offset of this page, as asked.
    pub offset: usize,
    /// The offset of the last page: 0 when nothing matches.
    pub last: usize,
    /// Only when more follow.
    pub next: Option<usize>,
    /// Only when `offset > 0`: one page back, never below 0.
    pub previous: Option<usize>,
}

/// The parameter sent whose name differs from `name` only in case, if one was.
fn case_twin<'q>(query: &'q TransactionQuery, name: &str) -> Option<&'q str> {
    query
        .others
        .keys()
        .find(|sent| sent.eq_ignore_ascii_case(name))
        .map(String::as_str)
}

impl TransactionListing {
    /// The query's values, each by its rule: bookingStatus required and closed, dates of the form
    /// YYYY-MM-DD with dateFrom not after dateTo, limit at least 1 (default 200), offset at least 0.
    pub fn parse(query: &TransactionQuery) -> CoreResult<TransactionListing> {
        let status = BookingStatus::parse(query.booking_status.as_deref()).map_err(|refusal| {
            match case_twin(query, "bookingStatus") {
                Some(sent) => Refusal {
                    text: format!(
                        "bookingStatus is required; '{sent}' was sent, which differs from it only in \
                         case (query parameter names are case-sensitive)"
                    ),
                    ..refusal
                },
                None => refusal,
            }
        })?;
        let from = date("dateFrom", query.date_from.as_deref())?;
        let to = date("dateTo", query.date_to.as_deref())?;
        if let (Some(from), Some(to)) = (from, to) {
            if from > to {
                return Err(Refusal::format(
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

    /// Where this page lies among `total` selected items.
    pub fn window(&self, total: usize) -> PageWindow {
        let last = if total == 0 {
            0
        } else {
            (total - 1) / self.limit * self.limit
        };
        PageWindow {
            total,
            offset: self.offset,
            last,
            next: (self.offset + self.limit < total).then_some(self.offset + self.limit),
            previous: (self.offset > 0).then(|| self.offset.saturating_sub(self.limit)),
        }
    }
}

#[cfg(test)]
mod tests;
