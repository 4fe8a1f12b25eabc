//! The filters of the traffic log's pages (docs/traffic-api.md): by TPP, PSU, status class, refusal,
//! resource, journey, kind and text, each checked before a page is read; the text search looks in an
//! exchange's summary, then, where it is not there, in its identifying headers and bodies.

use super::model::{Entry, Exchange, ExchangeSummary};
use super::Keep;
use serde::Deserialize;
use xs2a_core::domain::refusal::{CoreResult, Refusal};

const DEFAULT_LIMIT: usize = 200;
const MAX_LIMIT: usize = 1000;

/// The filters of a page of the timeline (docs/traffic-api.md), as the query gives them.
#[derive(Deserialize, Default)]
pub struct Filters {
    before: Option<u64>,
    limit: Option<usize>,
    tpp: Option<String>,
    psu: Option<String>,
    status: Option<String>,
    failed: Option<bool>,
    resource: Option<String>,
    journey: Option<String>,
    q: Option<String>,
    kind: Option<String>,
}

impl Filters {
    /// The page size asked for: 200 by default, between 1 and 1000.
    pub fn limit(&self) -> usize {
        self.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT)
    }

    /// Where the page starts: entries older than this id.
    pub fn before(&self) -> Option<u64> {
        self.before
    }

    /// 400 FORMAT_ERROR at `status` (not 2xx to 5xx), `kind` (not exchange or event) or `resource` (not
    /// `<kind>:<id>`).
    pub fn check(&self) -> CoreResult<()> {
        if let Some(status) = &self.status {
            if !matches!(status.as_str(), "2xx" | "3xx" | "4xx" | "5xx") {
                return Err(Refusal::format(
                    "status",
                    "status must be 2xx, 3xx, 4xx or 5xx",
                ));
            }
        }
        if let Some(kind) = &self.kind {
            if kind != "exchange" && kind != "event" {
                return Err(Refusal::format("kind", "kind must be exchange or event"));
            }
        }
        if let Some(resource) = &self.resource {
            if !resource.contains(':') {
                return Err(Refusal::format(
                    "resource",
                    "resource must be <kind>:<id>, e.g. payment:3f2…",
                ));
            }
        }
        Ok(())
    }

    /// Whether an entry passes every filter given, or needs its exchange read whole to decide: text
    /// (`q`) found nowhere in the summary may be in a body.
    pub fn keeps(&self, entry: &Entry) -> Keep {
        if !self.keeps_summary(entry) {
            return Keep::No;
        }
        match (entry, self.text()) {
            (Entry::Exchange(e), Some(q)) if !summary_holds(e, &q) => Keep::IfWhole,
            _ => Keep::Yes,
        }
    }

    /// The searched text, lower-cased (the search ignores case); none when empty.
    fn text(&self) -> Option<String> {
        self.q
            .as_deref()
            .filter(|q| !q.is_empty())
            .map(str::to_lowercase)
    }

    /// Whether an exchange's identifying request headers ([`SEARCHED_HEADERS`]) or its request or response
    /// body hold the searched text.
    pub fn whole_holds(&self, exchange: &Exchange) -> bool {
        let Some(q) = self.text() else {
            return true;
        };
        let headers_hold = exchange.request.headers.iter().any(|(name, value)| {
            SEARCHED_HEADERS
                .iter()
                .any(|searched| name.eq_ignore_ascii_case(searched))
                && value.to_lowercase().contains(&q)
        });
        headers_hold
            || [&exchange.request, &exchange.response]
                .iter()
                .any(|message| {
                    !message.body_base64
                        && message
                            .body
                            .as_deref()
                            .is_some_and(|body| body.to_lowercase().contains(&q))
                })
    }

    /// Whether an entry passes every filter but the text search of exchanges (events are searched whole:
    /// their data is in the summary).
    fn keeps_summary(&self, entry: &Entry) -> bool {
        if let Some(kind) = &self.kind {
            let is_exchange = matches!(entry, Entry::Exchange(_));
            if (kind == "exchange") != is_exchange {
                return false;
            }
        }
        if let Some(journey) = &self.journey {
            if !entry.journeys().iter().any(|j| j == journey) {
                return false;
            }
        }
        if let Some(resource) = &self.resource {
            let (kind, id) = resource.split_once(':').unwrap_or_default();
            if !entry
                .resources()
                .iter()
                .any(|r| r.kind == kind && r.id == id)
            {
                return false;
            }
        }
        let Entry::Exchange(e) = entry else {
            return self.tpp.is_none()
                && self.psu.is_none()
                && self.status.is_none()
                && self.failed != Some(true)
                && self.q.as_deref().is_none_or(|q| {
                    let Entry::Event(ev) = entry else {
                        return false;
                    };
                    ev.event.contains(q) || ev.data.to_string().contains(q)
                });
        };
        if let Some(tpp) = &self.tpp {
            if e.tpp.as_ref().is_none_or(|t| &t.organisation_id != tpp) {
                return false;
            }
        }
        if let Some(psu) = &self.psu {
            if e.psu_id.as_ref() != Some(psu) {
                return false;
            }
        }
        if let Some(status) = &self.status {
            if status.as_bytes()[0] != b'0' + (e.status / 100) as u8 {
                return false;
            }
        }
        if self.failed == Some(true) && !e.is_refused() {
            return false;
        }
        true
    }
}

/// The request headers the search looks in besides the summary: the ids a TPP developer has in their own
/// logs and pastes (X-Request-ID above all). Not every header: a short text would match inside the
/// certificate's base64 or a Signature.
const SEARCHED_HEADERS: [&str; 5] = [
    "x-request-id",
    "tpp-session-id",
    "psu-id",
    "psu-corporate-id",
    "consent-id",
];

/// Whether the searched text `q` (lower-cased) is in an exchange's method, path, query, code, TPP name,
/// PSU-ID, TPP-Session-ID or the ids of the resources it names (an authorisation's among them).
fn summary_holds(e: &ExchangeSummary, q: &str) -> bool {
    let hay = [
        e.method.as_str(),
        e.path.as_str(),
        e.query.as_deref().unwrap_or(""),
        e.code.as_deref().unwrap_or(""),
        e.tpp.as_ref().map_or("", |t| t.name.as_str()),
        e.psu_id.as_deref().unwrap_or(""),
        e.tpp_session_id.as_deref().unwrap_or(""),
    ];
    hay.iter().any(|h| h.to_lowercase().contains(q))
        || e.resources.iter().any(|r| r.id.to_lowercase().contains(q))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_core::domain::refusal::Code;

    fn filters(query: &str) -> Filters {
        serde_urlencoded::from_str(query).unwrap()
    }

    #[test]
    fn refuses_a_malformed_filter_at_its_parameter() {
        for (query, path) in [
            ("status=404", "status"),
            ("kind=events", "kind"),
            ("resource=payment", "resource"),
        ] {
            let refusal = filters(query).check().unwrap_err();
            assert_eq!(
                (refusal.status(), refusal.code, refusal.path.as_deref()),
                (400, Code::FormatError, Some(path)),
                "{query}"
            );
        }
        assert!(filters("status=4xx&kind=event&resource=payment:1")
            .check()
            .is_ok());
    }

    #[test]
    fn bounds_the_page_size() {
        assert_eq!(filters("").limit(), 200);
        assert_eq!(filters("limit=0").limit(), 1);
        assert_eq!(filters("limit=5000").limit(), 1000);
    }
}
