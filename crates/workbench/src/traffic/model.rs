//! What the traffic log records (docs/traffic-api.md): exchanges (one per request that reached the port)
//! and events (batch runs, payment status changes, SCA steps, clock moves) on one numbered timeline, each
//! with the resources it touched and the journeys it belongs to.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use time::OffsetDateTime;

/// A resource an entry touched or created.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema,
)]
pub struct Resource {
    /// consent, payment, basket, authorisation, session, batch-run, account, customer.
    #[schema(schema_with = super::schema::resource_kind)]
    pub kind: String,
    pub id: String,
}

impl Resource {
    pub fn new(kind: &str, id: &str) -> Self {
        Resource {
            kind: kind.to_owned(),
            id: id.to_owned(),
        }
    }
}

/// The TPP a request came from, as its certificate names it (even when the request was refused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TppRef {
    pub organisation_id: String,
    pub name: String,
    pub subject: String,
}

/// One line of the list: what the inspector shows without opening the exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeSummary {
    pub id: u64,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    pub duration_ms: u64,
    pub method: String,
    pub path: String,
    #[schema(required = true)]
    pub query: Option<String>,
    pub status: u16,
    /// bank, sandbox, sca-page or other.
    #[schema(schema_with = super::schema::area)]
    pub area: String,
    /// composer or external.
    #[schema(schema_with = super::schema::source)]
    pub source: String,
    #[schema(required = true)]
    pub tpp: Option<TppRef>,
    #[schema(required = true)]
    pub psu_id: Option<String>,
    #[schema(required = true)]
    pub tpp_session_id: Option<String>,
    /// The gate step that refused the request.
    #[schema(required = true)]
    pub failed_step: Option<String>,
    /// The first code of an error answer.
    #[schema(required = true)]
    pub code: Option<String>,
    pub resources: Vec<Resource>,
    pub journeys: Vec<String>,
}

impl ExchangeSummary {
    /// A 401 that asks for SCA: the bank's answer carried a scaRedirect (the authorisation it names is
    /// among the resources) and no gate step refused the request. It is how every consent and payment
    /// journey starts, so the inspector's "failed only" leaves it out (docs/reference/ais-sca.md).
    pub fn asks_for_sca(&self) -> bool {
        self.status == 401
            && self.failed_step.is_none()
            && self.resources.iter().any(|r| r.kind == "authorisation")
    }

    /// Refused: an error status other than a 401 that asks for SCA, or a failed gate step.
    pub fn is_refused(&self) -> bool {
        self.failed_step.is_some() || (self.status >= 400 && !self.asks_for_sca())
    }
}

/// A request or a response as recorded: headers in order, the body as text (or base64 when it is not
/// UTF-8), whole — views cut long bodies, storage does not.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub headers: Vec<(String, String)>,
    #[schema(required = true)]
    pub body: Option<String>,
    pub body_bytes: usize,
    pub body_base64: bool,
}

/// One step of the request gate as the inspector's checklist shows it. The names and rules are fixed
/// texts: the gate lends them (no copy per request); read back from storage they are owned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GateStep {
    pub step: Cow<'static, str>,
    /// passed, failed, warning or skipped.
    #[schema(schema_with = super::schema::gate_outcome)]
    pub outcome: Cow<'static, str>,
    #[schema(required = true)]
    pub header: Option<Cow<'static, str>>,
    pub rule: Cow<'static, str>,
    #[schema(required = true)]
    pub detail: Option<Cow<'static, str>>,
}

/// The gate's verdict on a signed request, step by step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GateVerdict {
    pub steps: Vec<GateStep>,
    #[schema(required = true)]
    pub signing_string: Option<String>,
    pub signed_headers: Vec<String>,
    #[schema(required = true)]
    pub likely_cause: Option<String>,
}

/// A whole exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Exchange {
    #[serde(flatten)]
    pub summary: ExchangeSummary,
    pub request: Message,
    pub response: Message,
    #[schema(required = true)]
    pub gate: Option<GateVerdict>,
    #[schema(schema_with = super::schema::tpp_messages)]
    pub tpp_messages: Vec<serde_json::Value>,
    #[schema(required = true)]
    pub composer_signing_string: Option<String>,
}

/// An event on the timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventEntry {
    pub id: u64,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    #[schema(schema_with = super::schema::timeline_event)]
    pub event: String,
    #[schema(schema_with = super::schema::timeline_event_data)]
    pub data: serde_json::Value,
    pub resources: Vec<Resource>,
    pub journeys: Vec<String>,
}

/// A timeline entry as the list shows it. (Exchange summaries are most entries, so they are not boxed.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Entry {
    Exchange(ExchangeSummary),
    Event(EventEntry),
}

impl Entry {
    pub fn id(&self) -> u64 {
        match self {
            Entry::Exchange(e) => e.id,
            Entry::Event(e) => e.id,
        }
    }

    pub fn at(&self) -> OffsetDateTime {
        match self {
            Entry::Exchange(e) => e.at,
            Entry::Event(e) => e.at,
        }
    }

    pub fn resources(&self) -> &[Resource] {
        match self {
            Entry::Exchange(e) => &e.resources,
            Entry::Event(e) => &e.resources,
        }
    }

    pub fn journeys(&self) -> &[String] {
        match self {
            Entry::Exchange(e) => &e.journeys,
            Entry::Event(e) => &e.journeys,
        }
    }

    pub fn journeys_mut(&mut self) -> &mut Vec<String> {
        match self {
            Entry::Exchange(e) => &mut e.journeys,
            Entry::Event(e) => &mut e.journeys,
        }
    }
}

/// One journey: the entries of one consent, payment, basket or user lookup and its SCA.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Journey {
    pub id: String,
    #[schema(schema_with = super::schema::journey_kind)]
    pub kind: String,
    pub title: String,
    #[schema(required = true)]
    pub tpp: Option<String>,
    #[schema(required = true)]
    pub tpp_session_id: Option<String>,
    #[schema(required = true)]
    pub status: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_at: OffsetDateTime,
    pub entries: usize,
    /// When the sandbox was initialised after this journey began (`POST /v1/sandbox/initialize`, the
    /// workbench's Initialise): the consent, payment or basket it shows no longer exists, and its status
    /// is the last one it had before the reset. Null for a journey of the current sandbox.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub before_reset: Option<OffsetDateTime>,
}
