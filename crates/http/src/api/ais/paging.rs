//! The pagination links of the transaction listings; which transactions a page holds, and where it lies
//! among them, is the core's (`xs2a_core::bank::ais::listing`).
//!
//! Links (`_links` of `transactions` / `cardTransactions`, each `{href, verbs: ["GET"]}`): `self` (this
//! page), `first` (offset 0), `last` (the offset of the last page, 0 when nothing matches), `next` only
//! when more follow, `previous` only when `offset > 0`, plus `account` / `cardAccount` (the account's
//! details). Every paging href states `limit` and `offset` explicitly — with no pagination parameters it
//! says `limit=200` (docs/reference/ais-sca.md#the-rules-each-with-a-test) — followed by the request's
//! other parameters in a fixed order: `bookingStatus`, `dateFrom`, `dateTo`. When the history was limited
//! to 90 days (PSU not present) `dateFrom` is the limited date, so the links describe exactly what was
//! served.

use crate::api::links::Links;
use xs2a_core::bank::ais::listing::TransactionListing;
use xs2a_core::bank::mock::model::format_date;

fn href(listing: &TransactionListing, path: &str, offset: usize) -> String {
    let mut pairs: Vec<(&str, String)> = vec![("bookingStatus", listing.status.as_str().into())];
    if let Some(from) = listing.from {
        pairs.push(("dateFrom", format_date(from)));
    }
    if let Some(to) = listing.to {
        pairs.push(("dateTo", format_date(to)));
    }
    pairs.push(("limit", listing.limit.to_string()));
    pairs.push(("offset", offset.to_string()));
    let query = serde_urlencoded::to_string(&pairs).expect("string pairs encode");
    format!("{path}?{query}")
}

/// The links of a page of `selected` items listed at `path`; `owner` names the account link.
pub fn links(
    listing: &TransactionListing,
    path: &str,
    selected: usize,
    owner: (&'static str, String),
) -> Links {
    let window = listing.window(selected);
    let mut links = Links::new()
        .get(owner.0, owner.1)
        .get("self", href(listing, path, window.offset))
        .get("first", href(listing, path, 0))
        .get("last", href(listing, path, window.last));
    if let Some(next) = window.next {
        links = links.get("next", href(listing, path, next));
    }
    if let Some(previous) = window.previous {
        links = links.get("previous", href(listing, path, previous));
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_core::bank::ais::listing::TransactionQuery;

    fn listing(pairs: &[(&str, &str)]) -> TransactionListing {
        let text = serde_urlencoded::to_string(pairs).unwrap();
        let query: TransactionQuery = serde_urlencoded::from_str(&text).unwrap();
        TransactionListing::parse(&query).unwrap()
    }

    fn hrefs(links: &Links) -> serde_json::Value {
        serde_json::to_value(links).unwrap()
    }

    #[test]
    fn without_pagination_parameters_links_state_limit_200() {
        let l = listing(&[("bookingStatus", "booked")]);
        let links = hrefs(&links(
            &l,
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
        assert_eq!(links["account"]["href"], "/v1/accounts/a");
    }

    #[test]
    fn a_middle_page_links_both_ways_and_keeps_the_dates() {
        let l = listing(&[
            ("bookingStatus", "both"),
            ("dateFrom", "2026-01-01"),
            ("dateTo", "2026-12-31"),
            ("limit", "10"),
            ("offset", "15"),
        ]);
        let middle = hrefs(&links(&l, "/p", 30, ("account", "/a".into())));
        assert_eq!(
            middle["previous"]["href"],
            "/p?bookingStatus=both&dateFrom=2026-01-01&dateTo=2026-12-31&limit=10&offset=5"
        );
        assert_eq!(
            middle["next"]["href"],
            "/p?bookingStatus=both&dateFrom=2026-01-01&dateTo=2026-12-31&limit=10&offset=25"
        );
        let end = hrefs(&links(&l, "/p", 25, ("account", "/a".into())));
        assert!(end.get("next").is_none());
    }
}
