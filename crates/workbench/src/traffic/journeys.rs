//! Which journey an entry belongs to: the consent, payment, basket or user lookup it is part of, with the
//! SCA that authorised it. A journey is keyed by its resource (`payment:<id>`, `basket:<id>`,
//! `consent:<authorisation id>`, `user-lookup:<authorisation id>`); exchanges are matched to it by the
//! resources they name (path, answer, scaRedirect) and, for account reads after a consent, by the TPP and
//! its TPP-Session-ID. The index is rebuilt from the kept entries at start-up.

use super::model::{Entry, ExchangeSummary, Journey, Resource};
use std::collections::HashMap;
use time::OffsetDateTime;
use xs2a_core::bank::events::EventKind;

/// What classification reads besides the summary: the bodies it takes ids and titles from.
pub struct Bodies<'a> {
    pub request: Option<&'a serde_json::Value>,
    pub response: Option<&'a serde_json::Value>,
}

#[derive(Default)]
pub struct Index {
    pub journeys: HashMap<String, Journey>,
    by_authorisation: HashMap<String, String>,
    by_payment: HashMap<String, Vec<String>>,
    by_session: HashMap<(String, String), String>,
    /// Entries counted into a payment journey before the exchange that opens it was recorded: the
    /// creation's RCVD event is published while the request is still being answered. Bounded.
    early: HashMap<String, usize>,
}

/// The most journeys [`Index::early`] remembers (one per payment being created at that moment).
const EARLY_KEPT: usize = 1024;

/// The resources an exchange names in its path.
pub fn path_resources(path: &str) -> Vec<Resource> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let mut found = Vec::new();
    let v1 = match parts.first() {
        Some(&"v1") => &parts[1..],
        Some(&"api-sandbox") if parts.get(1) == Some(&"v1") => &parts[2..],
        Some(&"sca") => {
            if let Some(id) = parts.get(1) {
                found.push(Resource::new("authorisation", id));
            }
            return found;
        }
        _ => return found,
    };
    match v1 {
        ["payments" | "periodic-payments" | "bulk-payments", _product, id, rest @ ..]
            if *id != "fee-information" =>
        {
            found.push(Resource::new("payment", id));
            if let ["authorisations", auth, ..] = rest {
                found.push(Resource::new("authorisation", auth));
            }
        }
        ["signing-baskets", id, rest @ ..] => {
            found.push(Resource::new("basket", id));
            if let ["authorisations", auth, ..] = rest {
                found.push(Resource::new("authorisation", auth));
            }
        }
        ["sandbox", "sca", id, ..] => found.push(Resource::new("authorisation", id)),
        ["accounts" | "card-accounts", id, ..] => found.push(Resource::new("account", id)),
        ["sandbox", "payments", id, ..] => found.push(Resource::new("payment", id)),
        _ => {}
    }
    found
}

/// The authorisation id at the end of an SCA link.
fn authorisation_of(href: &str) -> Option<&str> {
    let path = href.split('?').next()?;
    let tail = path.rsplit('/').next()?;
    (path.contains("/sca/") && !tail.is_empty()).then_some(tail)
}

/// True when an answer may name something classification needs (so only those are parsed): a payment, a
/// basket, an SCA link, a status, or messages. It runs on every logged answer, so it looks only after each
/// `"` rather than comparing every marker at every position; and all of those are keys of the answer's
/// top-level object, so an answer that is a list (mock-data listings) needs no look at all.
pub fn worth_parsing(body: &[u8]) -> bool {
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return false;
    }
    const MARKERS: [&[u8]; 5] = [
        b"paymentId\"",
        b"basketId\"",
        b"scaRedirect\"",
        b"transactionStatus\"",
        b"tppMessages\"",
    ];
    let mut rest = body;
    while let Some(quote) = rest.iter().position(|&b| b == b'"') {
        rest = &rest[quote + 1..];
        if matches!(rest.first(), Some(b'p' | b'b' | b's' | b't'))
            && MARKERS.iter().any(|m| rest.starts_with(m))
        {
            return true;
        }
    }
    false
}

/// The resources an answer names: a created payment or basket, the authorisation of its SCA link.
pub fn body_resources(body: &serde_json::Value) -> Vec<Resource> {
    let mut found = Vec::new();
    if let Some(id) = body["paymentId"].as_str() {
        found.push(Resource::new("payment", id));
    }
    if let Some(id) = body["basketId"].as_str() {
        found.push(Resource::new("basket", id));
    }
    if let Some(href) = body["_links"]["scaRedirect"]["href"].as_str() {
        if let Some(id) = authorisation_of(href) {
            found.push(Resource::new("authorisation", id));
        }
    }
    found
}

/// Whether a request to `path` that was answered `status` initialised the sandbox (the mock-data API's
/// `POST …/sandbox/initialize`, on the interface or the workbench's API).
fn is_initialise(path: &str, status: u16) -> bool {
    path.ends_with("/sandbox/initialize") && (200..300).contains(&status)
}

fn short_product(path: &str) -> &'static str {
    if path.contains("straks") {
        "Straks payment"
    } else if path.contains("periodic") {
        "Standing order"
    } else if path.contains("bulk") {
        "Bulk payment"
    } else if path.contains("sepa") {
        "SEPA payment"
    } else if path.contains("cross-border") {
        "Cross-border payment"
    } else {
        "Domestic payment"
    }
}

fn payment_title(path: &str, request: Option<&serde_json::Value>) -> String {
    let product = short_product(path);
    let Some(body) = request else {
        return product.to_owned();
    };
    let amount = &body["instructedAmount"];
    match (
        amount["amount"].as_str(),
        amount["currency"].as_str(),
        body["creditorName"].as_str(),
    ) {
        (Some(a), Some(c), Some(to)) => format!("{product} {a} {c} to {to}"),
        _ => match body["payments"].as_array() {
            Some(orders) => format!("{product} of {} orders", orders.len()),
            None => product.to_owned(),
        },
    }
}

impl Index {
    fn open(&mut self, id: &str, kind: &str, title: String, entry: &ExchangeSummary) {
        let early = if self.journeys.contains_key(id) {
            0
        } else {
            self.early.remove(id).unwrap_or(0)
        };
        self.journeys
            .entry(id.to_owned())
            .or_insert_with(|| Journey {
                id: id.to_owned(),
                kind: kind.to_owned(),
                title,
                tpp: entry.tpp.as_ref().map(|t| t.name.clone()),
                tpp_session_id: entry.tpp_session_id.clone(),
                status: None,
                started_at: entry.at,
                last_at: entry.at,
                entries: early,
                before_reset: None,
            });
    }

    /// The sandbox was initialised at `at`: every journey so far is marked as before the reset (its
    /// resources are gone), and none of them takes in later traffic (a TPP session or an id of before the
    /// reset starts a journey of its own). The journeys stay listed with their entries: the traffic log
    /// keeps what happened.
    fn reset(&mut self, at: OffsetDateTime) {
        for journey in self.journeys.values_mut() {
            journey.before_reset.get_or_insert(at);
        }
        self.by_authorisation.clear();
        self.by_payment.clear();
        self.by_session.clear();
        self.early.clear();
    }

    /// Classifies an exchange: fills its resources (from path and bodies) and journeys, opening journeys
    /// it starts.
    pub fn classify_exchange(&mut self, summary: &mut ExchangeSummary, bodies: Bodies) {
        if summary.method == "POST"
            && summary.area == "sandbox"
            && is_initialise(&summary.path, summary.status)
        {
            self.reset(summary.at);
        }
        let mut resources = path_resources(&summary.path);
        if let Some(body) = bodies.response {
            resources.extend(body_resources(body));
        }
        resources.sort();
        resources.dedup();
        let created_payment = summary.method == "POST"
            && summary.area == "bank"
            && (summary.path.contains("/payments/")
                || summary.path.contains("/periodic-payments/")
                || summary.path.contains("/bulk-payments/"))
            && !summary.path.contains("/authorisations");
        let mut journeys: Vec<String> = Vec::new();
        for r in &resources {
            match r.kind.as_str() {
                "payment" => {
                    let id = format!("payment:{}", r.id);
                    if created_payment {
                        self.open(
                            &id,
                            "payment",
                            payment_title(&summary.path, bodies.request),
                            summary,
                        );
                    }
                    if self.journeys.contains_key(&id) {
                        journeys.push(id.clone());
                    }
                    journeys.extend(self.by_payment.get(&r.id).cloned().unwrap_or_default());
                }
                "basket" => {
                    let id = format!("basket:{}", r.id);
                    if summary.method == "POST" && summary.path.ends_with("/signing-baskets") {
                        let payments: Vec<String> = bodies
                            .request
                            .and_then(|b| b["paymentIds"].as_array())
                            .map(|ids| {
                                ids.iter()
                                    .filter_map(|i| i.as_str().map(str::to_owned))
                                    .collect()
                            })
                            .unwrap_or_default();
                        self.open(
                            &id,
                            "basket",
                            format!("Signing basket of {} payments", payments.len()),
                            summary,
                        );
                        for payment in payments {
                            self.by_payment.entry(payment).or_default().push(id.clone());
                        }
                    }
                    if self.journeys.contains_key(&id) {
                        journeys.push(id);
                    }
                }
                _ => {}
            }
        }
        for r in resources.iter().filter(|r| r.kind == "authorisation") {
            if let Some(known) = self.by_authorisation.get(&r.id) {
                journeys.push(known.clone());
            } else if let Some(first) = journeys.first().cloned() {
                self.by_authorisation.insert(r.id.clone(), first);
            } else if summary.area == "bank" {
                // An SCA that is not a payment's: a consent, or a user lookup.
                let (kind, title) =
                    if summary.path.ends_with("/users") || summary.path.ends_with("/user") {
                        ("user-lookup", "User lookup".to_owned())
                    } else {
                        let tpp = summary
                            .tpp
                            .as_ref()
                            .map(|t| t.name.clone())
                            .unwrap_or_default();
                        ("consent", format!("Consent for {tpp}").trim().to_owned())
                    };
                let id = format!("{kind}:{}", r.id);
                self.open(&id, kind, title, summary);
                self.by_authorisation.insert(r.id.clone(), id.clone());
                journeys.push(id);
            }
        }
        if let (Some(tpp), Some(session)) = (&summary.tpp, &summary.tpp_session_id) {
            let key = (tpp.organisation_id.clone(), session.clone());
            match journeys
                .iter()
                .find(|j| j.starts_with("consent:") || j.starts_with("user-lookup:"))
            {
                Some(consent) => {
                    self.by_session.insert(key, consent.clone());
                }
                None if journeys.is_empty() && summary.area == "bank" => {
                    if let Some(consent) = self.by_session.get(&key) {
                        journeys.push(consent.clone());
                    }
                }
                None => {}
            }
        }
        journeys.sort();
        journeys.dedup();
        // The answer's status is the journey's latest state where it says one.
        if let Some(status) = bodies
            .response
            .and_then(|b| b["transactionStatus"].as_str())
        {
            for j in journeys.iter().filter(|j| !j.starts_with("consent:")) {
                if let Some(journey) = self.journeys.get_mut(j) {
                    journey.status = Some(status.to_owned());
                }
            }
        }
        if summary.area == "sca-page" && summary.status == 303 {
            for j in &journeys {
                if let Some(journey) = self.journeys.get_mut(j) {
                    if journey.kind == "consent" || journey.kind == "user-lookup" {
                        journey.status = Some("SCA done".to_owned());
                    }
                }
            }
        }
        summary.resources = resources;
        summary.journeys = journeys;
    }

    /// Classifies an event: payment status changes belong to the payment's journeys.
    pub fn classify_event(
        &mut self,
        event: &str,
        at: OffsetDateTime,
        data: &serde_json::Value,
    ) -> (Vec<Resource>, Vec<String>) {
        // The workbench's Initialise is a workbench request: its state change is the event that shows it.
        if event == EventKind::StateChange.name()
            && data["what"] == "workbench"
            && data["method"] == "POST"
            && is_initialise(
                data["path"].as_str().unwrap_or_default(),
                data["status"]
                    .as_u64()
                    .and_then(|s| u16::try_from(s).ok())
                    .unwrap_or_default(),
            )
        {
            self.reset(at);
        }
        let mut resources = Vec::new();
        let mut journeys = Vec::new();
        if let Some(id) = data["paymentId"].as_str() {
            resources.push(Resource::new("payment", id));
            let own = format!("payment:{id}");
            // The creation's RCVD event comes before the exchange that opens the journey is recorded
            // (it is published while the request is being answered); it belongs to it all the same.
            let creation =
                event == EventKind::PaymentStatus.name() && data["transactionStatus"] == "RCVD";
            if self.journeys.contains_key(&own) || creation {
                journeys.push(own);
            }
            journeys.extend(self.by_payment.get(id).cloned().unwrap_or_default());
            let status = data["after"]
                .as_str()
                .or(data["transactionStatus"].as_str());
            if let Some(status) = status {
                for j in &journeys {
                    if let Some(journey) = self.journeys.get_mut(j) {
                        journey.status = Some(status.to_owned());
                    }
                }
            }
        }
        if event == EventKind::BatchRun.name() {
            if let Some(id) = data["id"].as_str() {
                resources.push(Resource::new("batch-run", id));
            }
        }
        if let Some(id) = data["batchRunId"].as_str() {
            resources.push(Resource::new("batch-run", id));
        }
        (resources, journeys)
    }

    /// Counts an entry into its journeys.
    pub fn count(&mut self, entry: &Entry) {
        for j in entry.journeys() {
            if let Some(journey) = self.journeys.get_mut(j) {
                journey.entries += 1;
                journey.last_at = journey.last_at.max(entry.at());
            } else if j.starts_with("payment:") {
                if self.early.len() >= EARLY_KEPT {
                    self.early.clear();
                }
                *self.early.entry(j.clone()).or_default() += 1;
            }
        }
    }

    /// Counts an entry out of a journey; a journey none of whose entries is kept any more is forgotten,
    /// with everything that pointed at it, so the index is bounded by the log's caps.
    pub fn forget(&mut self, journey: &str) {
        let Some(j) = self.journeys.get_mut(journey) else {
            return;
        };
        j.entries = j.entries.saturating_sub(1);
        if j.entries > 0 {
            return;
        }
        self.journeys.remove(journey);
        self.by_authorisation.retain(|_, j| j != journey);
        self.by_session.retain(|_, j| j != journey);
        self.by_payment.retain(|_, js| {
            js.retain(|j| j != journey);
            !js.is_empty()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_answers_naming_a_marker_are_worth_parsing() {
        assert!(worth_parsing(
            br#"{"transactionStatus": "RCVD", "paymentId": "p1"}"#
        ));
        assert!(worth_parsing(br#"{"tppMessages": []}"#));
        assert!(worth_parsing(
            br#"{"_links": {"scaRedirect": {"href": "x"}}}"#
        ));
        assert!(!worth_parsing(
            br#"{"customers": [{"paymentIdentifier": "x", "basketId ": 1}]}"#
        ));
        assert!(!worth_parsing(b"paymentId\" without a quote before it"));
        assert!(
            !worth_parsing(br#"[{"paymentId": "p1"}]"#),
            "a list names no top-level key"
        );
        assert!(worth_parsing(b" \n{\"paymentId\": \"p1\"}"));
        assert!(!worth_parsing(b""));
        assert!(!worth_parsing(b"\""));
    }

    #[test]
    fn paths_name_payments_baskets_and_authorisations() {
        assert_eq!(
            path_resources("/v1/payments/norwegian-domestic-credit-transfers/p1/authorisations/a1"),
            [
                Resource::new("payment", "p1"),
                Resource::new("authorisation", "a1")
            ]
        );
        assert_eq!(
            path_resources("/sca/a2/confirm"),
            [Resource::new("authorisation", "a2")]
        );
        assert_eq!(
            path_resources("/api-sandbox/v1/signing-baskets/b1"),
            [Resource::new("basket", "b1")]
        );
        assert!(path_resources(
            "/v1/payments/instant-norwegian-credit-transfers-straks/fee-information"
        )
        .is_empty());
    }

    #[test]
    fn the_creation_event_published_before_its_exchange_is_recorded_joins_the_payment_journey() {
        let mut index = Index::default();
        let data = serde_json::json!({"paymentId": "p7", "transactionStatus": "RCVD"});
        let at = time::OffsetDateTime::UNIX_EPOCH;
        let (_, journeys) = index.classify_event("payment.status", at, &data);
        assert_eq!(journeys, ["payment:p7"]);
        let event = Entry::Event(crate::traffic::model::EventEntry {
            id: 1,
            at,
            event: "payment.status".into(),
            data,
            resources: vec![Resource::new("payment", "p7")],
            journeys,
        });
        index.count(&event);
        let mut created: ExchangeSummary = serde_json::from_value(serde_json::json!({
            "id": 2, "at": "1970-01-01T00:00:00Z", "durationMs": 1, "method": "POST",
            "path": "/v1/payments/instant-norwegian-domestic-credit-transfers-straks",
            "status": 201, "area": "bank", "source": "external", "resources": [], "journeys": []
        }))
        .unwrap();
        let answer = serde_json::json!({"paymentId": "p7", "transactionStatus": "RCVD"});
        index.classify_exchange(
            &mut created,
            Bodies {
                request: None,
                response: Some(&answer),
            },
        );
        assert_eq!(created.journeys, ["payment:p7"]);
        index.count(&Entry::Exchange(created));
        assert_eq!(index.journeys["payment:p7"].entries, 2);
    }

    /// An exchange summary of the bank's interface, as the capture makes one.
    fn exchange(id: u64, method: &str, path: &str, status: u16, area: &str) -> ExchangeSummary {
        serde_json::from_value(serde_json::json!({
            "id": id, "at": "1970-01-01T00:00:00Z", "durationMs": 1, "method": method, "path": path,
            "status": status, "area": area, "source": "external", "resources": [], "journeys": [],
            "tpp": {"organisationId": "PSDNO-FSA-1", "name": "T", "subject": "CN=T"},
            "tppSessionId": "session-1"
        }))
        .unwrap()
    }

    #[test]
    fn an_initialise_marks_the_journeys_before_it_and_later_traffic_starts_afresh() {
        let mut index = Index::default();
        let consent = |index: &mut Index, id: u64| {
            let mut asked = exchange(id, "POST", "/v1/bank-offered-consents", 401, "bank");
            let answer = serde_json::json!({"_links": {"scaRedirect": {"href": format!("http://x/sca/a{id}")}}});
            index.classify_exchange(
                &mut asked,
                Bodies {
                    request: None,
                    response: Some(&answer),
                },
            );
            index.count(&Entry::Exchange(asked.clone()));
            asked.journeys
        };
        assert_eq!(consent(&mut index, 1), ["consent:a1"]);
        // The workbench's Initialise (a state change) and the interface's both reset.
        let at = time::OffsetDateTime::UNIX_EPOCH + time::Duration::hours(1);
        let data = serde_json::json!({"what": "workbench", "method": "POST",
            "path": "/sandbox/initialize", "status": 200});
        index.classify_event("state.change", at, &data);
        assert_eq!(index.journeys["consent:a1"].before_reset, Some(at));
        // An account read in the old TPP session joins no journey of before the reset.
        let mut read = exchange(2, "GET", "/v1/accounts", 401, "bank");
        index.classify_exchange(
            &mut read,
            Bodies {
                request: None,
                response: None,
            },
        );
        assert!(read.journeys.is_empty(), "{:?}", read.journeys);
        assert_eq!(consent(&mut index, 3), ["consent:a3"]);
        assert_eq!(index.journeys["consent:a3"].before_reset, None);
        // A refused initialise resets nothing; the interface's own one does.
        let mut refused = exchange(4, "POST", "/v1/sandbox/initialize", 401, "sandbox");
        index.classify_exchange(
            &mut refused,
            Bodies {
                request: None,
                response: None,
            },
        );
        assert_eq!(index.journeys["consent:a3"].before_reset, None);
        let mut done = exchange(5, "POST", "/v1/sandbox/initialize", 200, "sandbox");
        index.classify_exchange(
            &mut done,
            Bodies {
                request: None,
                response: None,
            },
        );
        assert!(index.journeys["consent:a3"].before_reset.is_some());
        assert_eq!(
            index.journeys["consent:a1"].before_reset,
            Some(at),
            "the first reset is kept"
        );
    }

    #[test]
    fn answers_name_what_they_created_and_their_sca() {
        let body = serde_json::json!({"paymentId": "p9", "_links": {"scaRedirect": {"href": "http://x/sca/a9"}}});
        assert_eq!(
            body_resources(&body),
            [
                Resource::new("payment", "p9"),
                Resource::new("authorisation", "a9")
            ]
        );
    }
}
