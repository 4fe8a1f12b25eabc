//! Unit tests of the rules: synthetic exchanges, signed for real with the fixture TPP where signing
//! matters, graded, and each rule's verdict and evidence asserted.

mod headers;
mod payments;
mod report;
mod robustness;
mod sca;
mod signing;

use super::model::{Report, Verdict};
use super::observed::{Area, Item, Observed, Selection};
use super::{grade, About};
use crate::traffic::model::{GateStep, GateVerdict};
use serde_json::{json, Value};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use xs2a_core::signing::headers::HeaderList;
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};

pub const T0: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);
pub const REDIRECT: &str = "https://tpp.example/callback";
pub const STRAKS: &str = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";

/// The fixture TPP's credentials.
pub fn credentials(name: &str) -> SigningCredentials {
    SigningCredentials::from_dir(
        &std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures/certs")
            .join(name),
    )
    .expect("fixture credentials")
}

/// The gate's nine steps, all passed.
fn gate_passed() -> GateVerdict {
    let steps = [
        "required headers",
        "date",
        "certificate",
        "signature header",
        "keyId",
        "algorithm",
        "signed headers",
        "digest",
        "signature",
    ];
    GateVerdict {
        steps: steps
            .iter()
            .map(|s| GateStep {
                step: (*s).into(),
                outcome: "passed".into(),
                header: None,
                rule: "".into(),
                detail: None,
            })
            .collect(),
        signing_string: None,
        signed_headers: Vec::new(),
        likely_cause: None,
    }
}

/// An exchange under construction.
pub struct X(pub Observed);

/// A request to `path`, answered 200, at the start of the test's time.
pub fn x(method: &str, path: &str) -> X {
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p.to_owned(), Some(q.to_owned())),
        None => (path.to_owned(), None),
    };
    X(Observed {
        exchange_id: None,
        step: None,
        at: Some(T0),
        duration_ms: Some(5),
        method: method.to_owned(),
        area: Area::of_path(&path),
        path,
        query,
        status: 200,
        request_headers: Vec::new(),
        request_body: None,
        request_body_binary: false,
        response_headers: Vec::new(),
        response_body: None,
        gate: None,
        journeys: Vec::new(),
    })
}

impl X {
    /// At this many seconds after [`T0`].
    pub fn at(mut self, seconds: f64) -> X {
        self.0.at = Some(T0 + Duration::seconds_f64(seconds));
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> X {
        self.0.request_headers.push((name.into(), value.into()));
        self
    }

    /// The headers an app sends on a payment or basket call, for a PSU in session `s1`.
    pub fn b_p(self) -> X {
        self.header("x-accept-fix", "amount-as-string")
            .header("TPP-Session-ID", "s1")
            .header("TPP-Redirect-URI", REDIRECT)
            .header("PSU-IP-Address", "192.0.2.10")
    }

    /// AIS headers with the PSU present.
    pub fn ais(self, psu: &str) -> X {
        self.header("TPP-Session-ID", "s1")
            .header("TPP-Redirect-URI", REDIRECT)
            .header("PSU-IP-Address", "192.0.2.10")
            .header("PSU-ID", psu)
    }

    pub fn body(mut self, body: Value) -> X {
        self.0.request_body = Some(body.to_string());
        self.0
            .request_headers
            .push(("Content-Type".into(), "application/json".into()));
        self
    }

    pub fn status(mut self, status: u16) -> X {
        self.0.status = status;
        self
    }

    pub fn answer(mut self, body: Value) -> X {
        self.0.response_body = Some(body.to_string());
        self
    }

    pub fn answer_header(mut self, name: &str, value: &str) -> X {
        self.0.response_headers.push((name.into(), value.into()));
        self
    }

    pub fn duration(mut self, ms: u64) -> X {
        self.0.duration_ms = Some(ms);
        self
    }

    /// Refused with one ERROR message.
    pub fn refused(self, status: u16, code: &str, path: &str, text: &str) -> X {
        self.status(status).answer(json!({"tppMessages": [
            {"category": "ERROR", "code": code, "path": path, "text": text}]}))
    }

    /// Asks for SCA: 401 and a scaRedirect to authorisation `auth`.
    pub fn asks_sca(self, auth: &str, code: &str) -> X {
        self.status(401).answer(json!({
            "tppMessages": [{"category": "ERROR", "code": code, "text": "SCA needed"}],
            "_links": {"scaRedirect": {"href": format!("http://127.0.0.1:8080/sca/{auth}"), "verbs": ["GET"]}}}))
    }

    /// Signs with the fixture TPP at the exchange's time, and the gate passes every step.
    pub fn signed(self) -> X {
        self.signed_with(SignOptions::default(), 0)
    }

    /// Signs with `options`, with a Date `skew` seconds off the exchange's time.
    pub fn signed_with(mut self, options: SignOptions, skew: i64) -> X {
        let mut headers = HeaderList::from_pairs(
            self.0
                .request_headers
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str())),
        );
        let body = self.0.request_body.clone().unwrap_or_default();
        credentials("aisp-pisp").sign(
            &self.0.method,
            &self.0.target(),
            &mut headers,
            body.as_bytes(),
            self.0.at.expect("a time") + Duration::seconds(skew),
            &options,
        );
        self.0.request_headers = headers
            .0
            .into_iter()
            .map(|(n, v)| (n, String::from_utf8(v).expect("ASCII headers")))
            .collect();
        self.0.gate = Some(gate_passed());
        self
    }

    /// The gate refused the request at `step` (400, BAD_REQUEST).
    pub fn gate_refused(mut self, step: &str, text: &str) -> X {
        let mut gate = self.0.gate.take().unwrap_or_else(gate_passed);
        let mut after = false;
        for s in &mut gate.steps {
            if after {
                s.outcome = "skipped".into();
            } else if s.step == step {
                s.outcome = "failed".into();
                s.detail = Some(text.to_owned().into());
                after = true;
            }
        }
        self.0.gate = Some(gate);
        let full = format!("Request signature check failed at step '{step}': {text}");
        self.refused(400, "BAD_REQUEST", "Signature", &full)
    }
}

/// The PSU's SCA of `auth`, automated: how it ended and what the redirect said.
pub fn automated_sca(auth: &str, outcome: &str, psu: &str, session: &str, context: &str) -> X {
    let redirect = if outcome == "SUCCEEDED" {
        format!("{REDIRECT}?psu-id={psu}&tpp-session-id={session}&context={context}")
    } else {
        format!("{REDIRECT}?system=X&status=401&code=SCA_INVALID&message=The%20PSU%20cancelled")
    };
    x("POST", &format!("/v1/sandbox/sca/{auth}"))
        .body(json!({"nationalId": "14838510036"}))
        .answer(
            json!({"authorisationId": auth, "outcome": outcome, "redirect": redirect,
            "psuId": psu, "tppSessionId": session, "context": context}),
        )
}

/// A straks payment's body.
pub fn payment(amount: Value) -> Value {
    json!({"instructedAmount": {"currency": "NOK", "amount": amount},
        "debtorAccount": {"bban": "12051000003", "currency": "NOK"},
        "creditorName": "Ola Nordmann",
        "creditorAccount": {"bban": "12051001018", "currency": "NOK"},
        "creditorAddress": {"townName": "Oslo", "country": "NO"},
        "remittanceInformationUnstructured": "Middag"})
}

/// The selection of these exchanges, numbered 1, 2, ... in order.
pub fn selection(exchanges: Vec<X>) -> Selection {
    Selection {
        items: exchanges
            .into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                e.0.exchange_id = Some(i as u64 + 1);
                Item::Exchange(e.0)
            })
            .collect(),
        timed: true,
        signed: true,
    }
}

pub fn report_of(exchanges: Vec<X>) -> Report {
    grade(&selection(exchanges), About::default(), T0)
}

/// Rule `id`'s verdict and the exchange ids of its evidence.
pub fn verdict(report: &Report, id: &str) -> (Verdict, Vec<u64>) {
    let rule = report.rule(id).unwrap_or_else(|| panic!("no rule {id}"));
    (
        rule.verdict,
        rule.evidence.iter().filter_map(|e| e.exchange_id).collect(),
    )
}

/// The rules that are neither PASSED nor NOT EXERCISED, with their verdicts.
pub fn findings(report: &Report) -> Vec<(String, Verdict)> {
    report
        .results()
        .filter(|r| !matches!(r.verdict, Verdict::Passed | Verdict::NotExercised))
        .map(|r| (r.id.clone(), r.verdict))
        .collect()
}
