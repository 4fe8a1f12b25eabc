//! The stored form of a whole exchange: a compact binary record, written once per request by the log's
//! writer. Strings and bodies are length-prefixed bytes (no escaping, no field names), numbers are
//! varints. The first byte is the format's version; records stored as JSON by earlier versions start
//! with `{` and still read.

use super::model::{Exchange, ExchangeSummary, GateStep, GateVerdict, Message, Resource, TppRef};
use time::{OffsetDateTime, UtcOffset};

/// The first byte of a binary exchange record (a JSON one starts with `{`).
pub const VERSION: u8 = 1;

/// The record of `exchange`.
pub fn encode(exchange: &Exchange) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(
        1024 + exchange.request.body_bytes + exchange.response.body_bytes,
    ));
    w.0.push(VERSION);
    summary(&mut w, &exchange.summary);
    message(&mut w, &exchange.request);
    message(&mut w, &exchange.response);
    match &exchange.gate {
        None => w.0.push(0),
        Some(gate) => {
            w.0.push(1);
            w.uint(gate.steps.len() as u64);
            for step in &gate.steps {
                w.str(&step.step);
                w.str(&step.outcome);
                w.opt(step.header.as_deref());
                w.str(&step.rule);
                w.opt(step.detail.as_deref());
            }
            w.opt(gate.signing_string.as_deref());
            w.strs(&gate.signed_headers);
            w.opt(gate.likely_cause.as_deref());
        }
    }
    w.uint(exchange.tpp_messages.len() as u64);
    for message in &exchange.tpp_messages {
        w.bytes(&serde_json::to_vec(message).unwrap_or_default());
    }
    w.opt(exchange.composer_signing_string.as_deref());
    w.0
}

/// The exchange of a record, binary or (stored by an earlier version) JSON.
pub fn decode(bytes: &[u8]) -> Result<Exchange, String> {
    match bytes.first() {
        Some(b'{') => serde_json::from_slice(bytes).map_err(|e| e.to_string()),
        Some(&VERSION) => {
            let mut r = Reader(&bytes[1..]);
            let exchange = read_exchange(&mut r)?;
            if !r.0.is_empty() {
                return Err("trailing bytes after the exchange".into());
            }
            Ok(exchange)
        }
        Some(other) => Err(format!("unknown exchange record version {other}")),
        None => Err("empty exchange record".into()),
    }
}

fn summary(w: &mut Writer, s: &ExchangeSummary) {
    w.uint(s.id);
    w.0.extend_from_slice(&s.at.unix_timestamp_nanos().to_le_bytes());
    w.int(s.at.offset().whole_seconds().into());
    w.uint(s.duration_ms);
    w.str(&s.method);
    w.str(&s.path);
    w.opt(s.query.as_deref());
    w.uint(s.status.into());
    w.str(&s.area);
    w.str(&s.source);
    match &s.tpp {
        None => w.0.push(0),
        Some(tpp) => {
            w.0.push(1);
            w.str(&tpp.organisation_id);
            w.str(&tpp.name);
            w.str(&tpp.subject);
        }
    }
    w.opt(s.psu_id.as_deref());
    w.opt(s.tpp_session_id.as_deref());
    w.opt(s.failed_step.as_deref());
    w.opt(s.code.as_deref());
    w.uint(s.resources.len() as u64);
    for resource in &s.resources {
        w.str(&resource.kind);
        w.str(&resource.id);
    }
    w.strs(&s.journeys);
}

fn message(w: &mut Writer, m: &Message) {
    w.uint(m.headers.len() as u64);
    for (name, value) in &m.headers {
        w.str(name);
        w.str(value);
    }
    w.opt(m.body.as_deref());
    w.uint(m.body_bytes as u64);
    w.0.push(m.body_base64.into());
}

fn read_exchange(r: &mut Reader) -> Result<Exchange, String> {
    let summary = read_summary(r)?;
    let request = read_message(r)?;
    let response = read_message(r)?;
    let gate = if r.flag()? {
        let count = r.len()?;
        let mut steps = Vec::with_capacity(count.min(64));
        for _ in 0..count {
            steps.push(GateStep {
                step: r.str()?.into(),
                outcome: r.str()?.into(),
                header: r.opt()?.map(Into::into),
                rule: r.str()?.into(),
                detail: r.opt()?,
            });
        }
        Some(GateVerdict {
            steps,
            signing_string: r.opt()?,
            signed_headers: r.strs()?,
            likely_cause: r.opt()?,
        })
    } else {
        None
    };
    let count = r.len()?;
    let mut tpp_messages = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        tpp_messages.push(serde_json::from_slice(r.bytes()?).map_err(|e| e.to_string())?);
    }
    Ok(Exchange {
        summary,
        request,
        response,
        gate,
        tpp_messages,
        composer_signing_string: r.opt()?,
    })
}

fn read_summary(r: &mut Reader) -> Result<ExchangeSummary, String> {
    let id = r.uint()?;
    let nanos = i128::from_le_bytes(r.take(16)?.try_into().expect("16 bytes"));
    let offset = i32::try_from(r.int()?).map_err(|e| e.to_string())?;
    let at = OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .map_err(|e| e.to_string())?
        .to_offset(UtcOffset::from_whole_seconds(offset).map_err(|e| e.to_string())?);
    Ok(ExchangeSummary {
        id,
        at,
        duration_ms: r.uint()?,
        method: r.str()?,
        path: r.str()?,
        query: r.opt()?,
        status: u16::try_from(r.uint()?).map_err(|e| e.to_string())?,
        area: r.str()?,
        source: r.str()?,
        tpp: if r.flag()? {
            Some(TppRef {
                organisation_id: r.str()?,
                name: r.str()?,
                subject: r.str()?,
            })
        } else {
            None
        },
        psu_id: r.opt()?,
        tpp_session_id: r.opt()?,
        failed_step: r.opt()?,
        code: r.opt()?,
        resources: {
            let count = r.len()?;
            let mut resources = Vec::with_capacity(count.min(64));
            for _ in 0..count {
                resources.push(Resource {
                    kind: r.str()?,
                    id: r.str()?,
                });
            }
            resources
        },
        journeys: r.strs()?,
    })
}

fn read_message(r: &mut Reader) -> Result<Message, String> {
    let count = r.len()?;
    let mut headers = Vec::with_capacity(count.min(256));
    for _ in 0..count {
        headers.push((r.str()?, r.str()?));
    }
    Ok(Message {
        headers,
        body: r.opt()?,
        body_bytes: usize::try_from(r.uint()?).map_err(|e| e.to_string())?,
        body_base64: r.flag()?,
    })
}

struct Writer(Vec<u8>);

impl Writer {
    /// LEB128.
    fn uint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    /// Zigzag, then LEB128.
    fn int(&mut self, value: i64) {
        self.uint(((value << 1) ^ (value >> 63)) as u64);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.uint(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    fn str(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    fn opt(&mut self, text: Option<&str>) {
        match text {
            None => self.0.push(0),
            Some(text) => {
                self.0.push(1);
                self.str(text);
            }
        }
    }

    fn strs(&mut self, texts: &[String]) {
        self.uint(texts.len() as u64);
        for text in texts {
            self.str(text);
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("the exchange record ends early".into());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn uint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.take(1)?[0];
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a number in the exchange record is too long".into())
    }

    fn int(&mut self) -> Result<i64, String> {
        let raw = self.uint()?;
        Ok(((raw >> 1) as i64) ^ -((raw & 1) as i64))
    }

    fn len(&mut self) -> Result<usize, String> {
        let n = usize::try_from(self.uint()?).map_err(|e| e.to_string())?;
        if n > self.0.len() {
            return Err("a count in the exchange record exceeds the record".into());
        }
        Ok(n)
    }

    fn flag(&mut self) -> Result<bool, String> {
        match self.take(1)?[0] {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(format!("a flag in the exchange record is {other}")),
        }
    }

    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.len()?;
        self.take(n)
    }

    fn str(&mut self) -> Result<String, String> {
        std::str::from_utf8(self.bytes()?)
            .map(str::to_owned)
            .map_err(|e| e.to_string())
    }

    fn opt(&mut self) -> Result<Option<String>, String> {
        if self.flag()? {
            self.str().map(Some)
        } else {
            Ok(None)
        }
    }

    fn strs(&mut self) -> Result<Vec<String>, String> {
        let count = self.len()?;
        let mut texts = Vec::with_capacity(count.min(256));
        for _ in 0..count {
            texts.push(self.str()?);
        }
        Ok(texts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow;

    fn exchange() -> Exchange {
        Exchange {
            summary: ExchangeSummary {
                id: 300,
                at: time::macros::datetime!(2026-11-22 10:00:00.123456789 +01:00),
                duration_ms: 3,
                method: "POST".into(),
                path: "/v1/payments/straks/p1".into(),
                query: Some("a=1".into()),
                status: 401,
                area: "bank".into(),
                source: "external".into(),
                tpp: Some(TppRef {
                    organisation_id: "PSDNO-FSA-ABCDEF".into(),
                    name: "Acme, Tromsø".into(),
                    subject: "CN=Acme".into(),
                }),
                psu_id: Some("12345678901".into()),
                tpp_session_id: None,
                failed_step: Some("signature".into()),
                code: Some("SIGNATURE_INVALID".into()),
                resources: vec![Resource::new("payment", "p1")],
                journeys: vec!["payment:p1".into()],
            },
            request: Message {
                headers: vec![("date".into(), "Sun, 22 Nov 2026 10:00:00 GMT".into())],
                body: Some("{\"a\": \"b\\n\"}".into()),
                body_bytes: 12,
                body_base64: false,
            },
            response: Message {
                headers: vec![],
                body: Some("AAEC".into()),
                body_bytes: 3,
                body_base64: true,
            },
            gate: Some(GateVerdict {
                steps: vec![GateStep {
                    step: Cow::Borrowed("date"),
                    outcome: "passed".into(),
                    header: Some("Date".into()),
                    rule: "The Date header is ...".into(),
                    detail: None,
                }],
                signing_string: Some("date: x".into()),
                signed_headers: vec!["date".into()],
                likely_cause: None,
            }),
            tpp_messages: vec![json!({"category": "ERROR", "code": "SIGNATURE_INVALID"})],
            composer_signing_string: None,
        }
    }

    #[test]
    fn an_exchange_reads_back_as_it_was_written() {
        let whole = exchange();
        let record = encode(&whole);
        assert_eq!(record[0], VERSION);
        assert_eq!(decode(&record).unwrap(), whole);
        let mut bare = whole.clone();
        bare.gate = None;
        bare.summary.tpp = None;
        bare.request.body = None;
        bare.tpp_messages.clear();
        assert_eq!(decode(&encode(&bare)).unwrap(), bare);
    }

    #[test]
    fn records_stored_as_json_by_earlier_versions_still_read() {
        let whole = exchange();
        assert_eq!(decode(&serde_json::to_vec(&whole).unwrap()).unwrap(), whole);
    }

    #[test]
    fn a_damaged_record_is_refused_not_misread() {
        let record = encode(&exchange());
        assert!(decode(&record[..record.len() - 1]).is_err());
        assert!(decode(&[9, 1, 2]).is_err());
        assert!(decode(&[]).is_err());
    }
}
