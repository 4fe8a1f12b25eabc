//! Running a flow against a sandbox: each request re-signed with the given certificate and the current
//! date, ids from earlier answers carried into later requests, the PSU's SCA done through the automation
//! endpoint, and each answer compared with the recorded one (see `flow::compare`).

use crate::flow::compare::{compare, Difference};
use crate::flow::ids::IdMap;
use crate::flow::junit::TemplateFor;
use crate::flow::model::{Exchange, Sca};
use crate::flow::{FlowFile, Step};
use crate::outbound::client::{self, Client};
use hyper::header::{HeaderMap, HeaderValue};
use serde_json::Value;
use std::time::{Duration, Instant};
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};

/// How one step went.
pub struct StepOutcome {
    pub label: String,
    /// Its JUnit test case name (`flow::junit::case_name`).
    pub case: String,
    pub differences: Vec<Difference>,
    /// Set when the step could not be played at all (connection refused, bad header).
    pub error: Option<String>,
    pub elapsed: Duration,
    /// Time spent waiting for the sandbox (the rest is the replay's own overhead).
    pub waiting: Duration,
}

impl StepOutcome {
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.differences.is_empty()
    }
}

/// Plays flows against one sandbox as one TPP.
pub struct Runner {
    client: Client,
    credentials: SigningCredentials,
    ids: IdMap,
    /// The sandbox clock minus the machine's (from /health), so requests are dated in the sandbox's time.
    offset: time::Duration,
    /// The interface's path template of a path (from the OpenAPI document, which `api/` owns), for
    /// naming each step's case; handed in so that this engine stays below `api/`.
    templates: TemplateFor,
    /// The sandbox's base URL (`http://host:port`), to tell its own redirects from others.
    base: String,
    /// Where the last page of the bank's SCA played sent the PSU's browser (this run's Location).
    last_location: Option<String>,
}

/// Requests under these paths pass the signature gate; the bank's pages do not.
fn signed(path: &str) -> bool {
    path.starts_with("/v1/") || path.starts_with("/api-sandbox/")
}

impl Runner {
    pub fn new(
        url: &str,
        credentials: SigningCredentials,
        templates: TemplateFor,
    ) -> Result<Runner, String> {
        Ok(Runner {
            client: Client::new(url)?,
            credentials,
            ids: IdMap::default(),
            offset: time::Duration::ZERO,
            templates,
            base: url.trim_end_matches('/').to_owned(),
            last_location: None,
        })
    }

    /// Learns the sandbox clock's time from `GET /health`, so that signed requests carry a Date the gate
    /// accepts even when the clock was moved or frozen (a fixture's clock usually is).
    pub async fn sync_clock(&mut self) -> Result<(), String> {
        let answer = self
            .client
            .send("GET", "/health", &HeaderMap::new(), Vec::new())
            .await?;
        let now = serde_json::from_slice::<Value>(&answer.body)
            .ok()
            .and_then(|v| v.get("now").and_then(Value::as_str).map(str::to_owned))
            .and_then(|t| {
                time::OffsetDateTime::parse(&t, &time::format_description::well_known::Rfc3339).ok()
            });
        if let Some(now) = now {
            self.offset = now - time::OffsetDateTime::now_utc();
        }
        Ok(())
    }

    /// Signs (where the gate wants it) and sends; answers status, body and the time waited.
    async fn send(
        &mut self,
        method: &str,
        path: &str,
        mut headers: HeaderMap,
        body: Vec<u8>,
    ) -> Result<(u16, String, Duration), String> {
        if signed(path) {
            self.credentials.sign(
                method,
                path,
                &mut headers,
                &body,
                time::OffsetDateTime::now_utc() + self.offset,
                &SignOptions::default(),
            );
        }
        let started = Instant::now();
        let answer = self.client.send(method, path, &headers, body).await?;
        Ok((answer.status, answer.text(), started.elapsed()))
    }

    async fn exchange(&mut self, e: &Exchange) -> Result<(Vec<Difference>, Duration), String> {
        let path = self.ids.apply(&e.request.path);
        let headers = client::header_map(&e.request.headers, |value| self.ids.apply(value))?;
        let body = e
            .request
            .body
            .as_deref()
            .map(|b| self.ids.apply(b).into_bytes())
            .unwrap_or_default();
        let (status, live, waited) = self.send(&e.request.method, &path, headers, body).await?;
        if let (Some(recorded), Ok(live)) = (
            e.response
                .body
                .as_deref()
                .and_then(|b| serde_json::from_str::<Value>(b).ok()),
            serde_json::from_str::<Value>(&live),
        ) {
            self.ids.learn(&recorded, &live);
        }
        let expected = e.response.body.as_deref().map(|b| self.ids.apply(b));
        Ok((
            compare(e.response.status, expected.as_deref(), status, &live),
            waited,
        ))
    }

    async fn sca(&mut self, s: &Sca) -> Result<(Vec<Difference>, Duration), String> {
        let id = self.ids.apply(&s.authorisation_id);
        let path = format!("/v1/sandbox/sca/{id}");
        let drive = if s.drive.is_null() {
            "{}".to_owned()
        } else {
            self.ids.apply(&s.drive.to_string())
        };
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        let (status, live, waited) = self
            .send("POST", &path, headers, drive.into_bytes())
            .await?;
        let mut differences = Vec::new();
        if status != 200 {
            differences.push(Difference {
                pointer: String::new(),
                expected: "status 200 from the SCA automation".into(),
                actual: format!("status {status}: {live}"),
            });
        }
        if let Ok(live) = serde_json::from_str::<Value>(&live) {
            // The ids the SCA gave the TPP, so that later PSU-ID and PSU-Corporate-ID headers follow them.
            for (recorded, member) in [
                (&s.psu_id, "psuId"),
                (&s.psu_corporate_id, "psuCorporateId"),
            ] {
                if let (Some(recorded), Some(given)) =
                    (recorded, live.get(member).and_then(Value::as_str))
                {
                    self.ids.learn_pair(recorded, given);
                }
            }
        }
        Ok((differences, waited))
    }

    /// The PSU's browser asking for a recorded page of the bank's SCA, or sending a recorded form: unsigned,
    /// with this run's ids. Where the recorded answer redirected, the live redirect teaches the ids it
    /// carries (the psu-id the bank gave in this run) and is kept for [`Runner::back_to_tpp`].
    pub async fn page(
        &mut self,
        e: &Exchange,
        recorded_location: Option<&str>,
    ) -> Result<(), String> {
        let path = self.ids.apply(&e.request.path);
        let headers = client::header_map(&e.request.headers, |value| self.ids.apply(value))?;
        let body = e
            .request
            .body
            .as_deref()
            .map(|b| self.ids.apply(b).into_bytes())
            .unwrap_or_default();
        let answer = self
            .client
            .send(&e.request.method, &path, &headers, body)
            .await?;
        let location = answer
            .headers
            .get(hyper::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let (Some(recorded), Some(live)) = (recorded_location, location.as_deref()) {
            self.ids.learn_text(recorded, live);
        }
        self.last_location = location;
        if answer.status != e.response.status {
            return Err(format!(
                "{} {path}: status {} where the recording had {}",
                e.request.method, answer.status, e.response.status
            ));
        }
        Ok(())
    }

    /// The PSU's browser arriving where this run's last page sent it, when that is on this sandbox (the
    /// workbench's callback, which records the PSU-ID for the persona).
    pub async fn back_to_tpp(&mut self) -> Result<(), String> {
        let location = self
            .last_location
            .clone()
            .ok_or("the bank's last page sent the PSU nowhere")?;
        let Some(path) = location
            .strip_prefix(&self.base)
            .filter(|p| p.starts_with('/'))
        else {
            return Err(format!("{location} is not on this sandbox"));
        };
        let answer = self
            .client
            .send("GET", path, &HeaderMap::new(), Vec::new())
            .await?;
        match answer.status {
            200 => Ok(()),
            status => Err(format!("GET {path}: status {status}")),
        }
    }

    /// Asks for a batch run now (`POST /v1/sandbox/batch-runs`, signed).
    pub async fn batch_run(&mut self) -> Result<(), String> {
        let (status, body, _) = self
            .send(
                "POST",
                "/v1/sandbox/batch-runs",
                HeaderMap::new(),
                Vec::new(),
            )
            .await?;
        match status {
            201 => Ok(()),
            _ => Err(format!(
                "POST /v1/sandbox/batch-runs: status {status}: {body}"
            )),
        }
    }

    /// Plays step `n` (from 1).
    pub async fn step(&mut self, n: usize, step: &Step) -> StepOutcome {
        let started = Instant::now();
        let result = match step {
            Step::Exchange(e) => self.exchange(e).await,
            Step::Sca(s) => self.sca(s).await,
        };
        let elapsed = started.elapsed();
        let (differences, error, waiting) = match result {
            Ok((d, w)) => (d, None, w),
            Err(e) => (Vec::new(), Some(e), elapsed),
        };
        StepOutcome {
            label: step.label(),
            case: crate::flow::junit::case_name(n, step, self.templates),
            differences,
            error,
            elapsed,
            waiting,
        }
    }

    /// Plays a whole flow; every step is played even after a failure, so the report shows them all.
    pub async fn run(&mut self, flow: &FlowFile) -> Vec<StepOutcome> {
        let mut outcomes = Vec::with_capacity(flow.steps.len());
        if let Err(error) = self.sync_clock().await {
            outcomes.push(StepOutcome {
                label: "GET /health (the sandbox's clock)".into(),
                case: "00 GET /health".into(),
                differences: Vec::new(),
                error: Some(error),
                elapsed: Duration::ZERO,
                waiting: Duration::ZERO,
            });
            return outcomes;
        }
        for (i, step) in flow.steps.iter().enumerate() {
            outcomes.push(self.step(i + 1, step).await);
        }
        outcomes
    }
}
