//! What every rule needs, computed once over a selection: each exchange with its operation and parsed
//! bodies (a [`Call`]), the SCAs started (the scaRedirects the TPP received) and how each ended (the PSU's
//! page requests, the automation endpoint, or a flow file's SCA step), and the time between two calls.

use super::model::Evidence;
use super::observed::{json_of, Area, Item, Observed, Selection};
use super::operation::Op;
use serde_json::Value;
use std::collections::HashMap;
use time::OffsetDateTime;
use xs2a_core::signing::certificate::{decode_certificate_header, TppCertificate};

mod sca_endings;

/// One exchange and what the rules ask of it.
#[derive(Debug)]
pub struct Call<'a> {
    /// Its place in the selection (comparable with [`ScaEnding::pos`]).
    pub pos: usize,
    pub x: &'a Observed,
    pub op: Op,
    pub request: Option<Value>,
    pub response: Option<Value>,
}

fn find<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

impl Call<'_> {
    /// A request header, by name in any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        find(&self.x.request_headers, name)
    }

    pub fn has(&self, name: &str) -> bool {
        self.header(name).is_some()
    }

    pub fn response_header(&self, name: &str) -> Option<&str> {
        find(&self.x.response_headers, name)
    }

    pub fn is_bank(&self) -> bool {
        self.x.area == Area::Bank
    }

    /// The PSU takes part in real time: PSU-IP-Address is sent then, and only then
    /// (docs/interface.md#strong-customer-authentication-and-tpp-sessions).
    pub fn psu_present(&self) -> bool {
        self.has("PSU-IP-Address")
    }

    /// The answer's error messages: (code, path, text).
    pub fn errors(&self) -> Vec<(&str, &str, &str)> {
        self.response
            .as_ref()
            .and_then(|b| b["tppMessages"].as_array())
            .into_iter()
            .flatten()
            .filter(|m| m["category"] == "ERROR")
            .map(|m| {
                (
                    m["code"].as_str().unwrap_or_default(),
                    m["path"].as_str().unwrap_or_default(),
                    m["text"].as_str().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// The first error code of the answer.
    pub fn code(&self) -> Option<&str> {
        self.errors().first().map(|(code, _, _)| *code)
    }

    /// The answer's warnings' texts.
    pub fn warnings(&self) -> Vec<&str> {
        self.response
            .as_ref()
            .and_then(|b| b["tppMessages"].as_array())
            .into_iter()
            .flatten()
            .filter(|m| m["category"] == "WARNING")
            .filter_map(|m| m["text"].as_str())
            .collect()
    }

    /// The authorisation id of the scaRedirect the answer carries.
    pub fn sca_redirect(&self) -> Option<String> {
        let href = self.response.as_ref()?["_links"]["scaRedirect"]["href"].as_str()?;
        let path = href.split('?').next()?;
        let id = path.rsplit('/').next()?;
        (path.contains("/sca/") && !id.is_empty()).then(|| id.to_owned())
    }

    /// The gate refused the request at this step.
    pub fn refused_at(&self) -> Option<&str> {
        let gate = self.x.gate.as_ref()?;
        gate.steps
            .iter()
            .find(|s| s.outcome == "failed")
            .map(|s| s.step.as_ref())
    }

    /// What the gate found at `step` when that step failed (the step's own text, without the summary of
    /// the other steps that the refusal's first message carries under the sandbox profile).
    pub fn failed_at(&self, step: &str) -> Option<&str> {
        let gate = self.x.gate.as_ref()?;
        gate.steps
            .iter()
            .find(|s| s.outcome == "failed" && s.step == step)
            .map(|s| s.detail.as_deref().unwrap_or_default())
    }

    /// The gate's warnings (accepted, but production might refuse): their texts.
    pub fn gate_warnings(&self) -> Vec<&str> {
        self.x
            .gate
            .iter()
            .flat_map(|g| g.steps.iter())
            .filter(|s| s.outcome == "warning")
            .filter_map(|s| s.detail.as_deref())
            .collect()
    }

    /// When the answer left (the request's time plus its duration).
    pub fn answered_at(&self) -> Option<OffsetDateTime> {
        let at = self.x.at?;
        Some(at + time::Duration::milliseconds(self.x.duration_ms.unwrap_or(0) as i64))
    }

    /// This exchange as evidence, with a sentence.
    pub fn evidence(&self, note: impl Into<String>) -> Evidence {
        Evidence {
            exchange_id: self.x.exchange_id,
            step: self.x.step,
            at: self.x.at,
            method: self.x.method.clone(),
            path: self.x.target(),
            status: self.x.status,
            journeys: self.x.journeys.clone(),
            note: note.into(),
        }
    }
}

/// How an SCA ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaOutcome {
    Succeeded,
    Cancelled,
    Failed,
}

/// An SCA that ended, wherever the traffic shows it.
#[derive(Debug, Clone)]
pub struct ScaEnding {
    pub pos: usize,
    pub authorisation: String,
    pub outcome: ScaOutcome,
    pub psu_id: Option<String>,
    pub corporate_id: Option<String>,
    pub session: Option<String>,
    /// PRIVATE or CORPORATE.
    pub context: Option<String>,
    /// The national identity number the PSU gave (or the TPP preset with X-PSU-IDENTITY).
    pub national_id: Option<String>,
    pub at: Option<OffsetDateTime>,
    pub evidence: Evidence,
}

/// The time between two moments of the traffic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Elapsed {
    /// No times (a flow file).
    Unknown,
    /// The sandbox clock stood still (frozen): the log cannot tell how long passed.
    StoodStill,
    Seconds(f64),
}

/// Everything the rules read.
pub struct Context<'a> {
    pub calls: Vec<Call<'a>>,
    pub scas: Vec<ScaEnding>,
    /// The call whose answer carried each authorisation's scaRedirect (its index in `calls`).
    pub sca_started_by: HashMap<String, usize>,
    /// Authorisations the PSU's browser (or the automation) reached at all.
    pub sca_reached: HashMap<String, usize>,
    /// Each certificate sent (by its header value), parsed; None when it does not parse.
    pub certificates: HashMap<String, Option<TppCertificate>>,
    pub timed: bool,
    pub signed: bool,
}

impl<'a> Context<'a> {
    pub fn new(selection: &'a Selection) -> Context<'a> {
        let mut calls = Vec::new();
        let mut recorded = Vec::new();
        for (pos, item) in selection.items.iter().enumerate() {
            match item {
                Item::Exchange(x) => calls.push(Call {
                    pos,
                    op: Op::of(&x.method, &x.path, x.area),
                    request: json_of(x.request_body.as_deref()),
                    response: json_of(x.response_body.as_deref()),
                    x,
                }),
                Item::Sca(sca) => recorded.push((pos, sca)),
            }
        }
        let mut sca_started_by = HashMap::new();
        for (index, call) in calls.iter().enumerate() {
            if let Some(auth) = call.sca_redirect() {
                sca_started_by.entry(auth).or_insert(index);
            }
        }
        let mut context = Context {
            calls,
            scas: Vec::new(),
            sca_started_by,
            sca_reached: HashMap::new(),
            certificates: HashMap::new(),
            timed: selection.timed,
            signed: selection.signed,
        };
        context.scas = sca_endings::find(&context, &recorded);
        for call in &context.calls {
            if let Some(value) = call.header("TPP-Signature-Certificate") {
                if !context.certificates.contains_key(value) {
                    let parsed = decode_certificate_header(value)
                        .ok()
                        .and_then(|d| TppCertificate::from_der(&d.der).ok());
                    context.certificates.insert(value.to_owned(), parsed);
                }
            }
        }
        for (index, call) in context.calls.iter().enumerate() {
            if let Op::ScaPage { authorisation, .. } | Op::ScaAutomation { authorisation } =
                &call.op
            {
                context
                    .sca_reached
                    .entry(authorisation.clone())
                    .or_insert(index);
            }
        }
        for (_, sca) in &recorded {
            context
                .sca_reached
                .entry(sca.authorisation_id.clone())
                .or_insert(usize::MAX);
        }
        context
    }

    /// The calls to the bank's interface: what production would see, and what the rules grade.
    pub fn bank(&self) -> impl Iterator<Item = &Call<'a>> {
        self.calls.iter().filter(|c| c.is_bank())
    }

    /// The time from the answer of `earlier` to the request of `later`.
    pub fn between(&self, earlier: &Call, later: &Call) -> Elapsed {
        match (earlier.answered_at(), later.x.at, earlier.x.at) {
            (Some(answered), Some(next), Some(asked)) => {
                if next == asked {
                    Elapsed::StoodStill
                } else {
                    Elapsed::Seconds((next - answered).as_seconds_f64().max(0.0))
                }
            }
            _ => Elapsed::Unknown,
        }
    }

    /// The successful SCAs, with the psu-id each gave.
    pub fn completed(&self) -> impl Iterator<Item = &ScaEnding> {
        self.scas
            .iter()
            .filter(|s| s.outcome == ScaOutcome::Succeeded)
    }

    /// The certificate a call was signed with, parsed.
    pub fn certificate(&self, call: &Call) -> Option<&TppCertificate> {
        self.certificates
            .get(call.header("TPP-Signature-Certificate")?)?
            .as_ref()
    }

    /// The PSU a call is for: its PSU-ID header.
    pub fn psu_of(&self, call: &Call) -> Option<String> {
        call.header("PSU-ID").map(str::to_owned)
    }
}

/// The query parameters of a URL.
pub fn query_of(url: &str) -> Vec<(String, String)> {
    let without_fragment = url.split('#').next().unwrap_or_default();
    let Some((_, query)) = without_fragment.split_once('?') else {
        return Vec::new();
    };
    serde_urlencoded::from_str(query).unwrap_or_default()
}
