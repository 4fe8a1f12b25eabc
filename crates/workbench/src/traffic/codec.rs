//! The stored form of a whole exchange: a binary record (`xs2a_core::store::codec`), written by the log's writer into
//! a segment ([`super::segment`]). Strings and bodies are length-prefixed bytes (no escaping, no field
//! names), numbers are varints, and long header values (the TPP's certificate above all, the same in
//! nearly every request) are kept once per segment in its dictionary and referred to by number. Records of
//! the first version (one per sled record, read only to carry an earlier log over) had no dictionary, and
//! earlier still they were JSON.

use super::model::{Exchange, ExchangeSummary, GateStep, GateVerdict, Message, Resource, TppRef};
use super::raw::RawMessage;
use super::Captured;
use base64::Engine;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use xs2a_core::store::codec::{Reader, Writer};

/// The first byte of a first-version record (a JSON one starts with `{`).
pub const VERSION: u8 = 1;

/// Header values, gate rules and bodies at least this long go to the segment's dictionary.
const DICTIONARY_FROM: usize = 64;

/// A segment's long values, each kept once (borrowed from the entries being written): the TPP's
/// certificate, the gate's rule texts, and answers that repeat (a TPP polling a status). Values are
/// found by their CRC-32 and length (the CPU computes it at several bytes per cycle, so hashing an answer
/// costs less than writing it) and compared whole before one is shared.
#[derive(Default)]
pub struct Dictionary<'a> {
    numbers: HashMap<u64, Vec<u64>, BuildHasherDefault<Prehashed>>,
    values: Vec<&'a [u8]>,
}

impl<'a> Dictionary<'a> {
    /// The values, in the order of their numbers.
    pub fn values(&self) -> &[&'a [u8]] {
        &self.values
    }

    fn number(&mut self, value: &'a [u8]) -> u64 {
        let key = (u64::from(crc32fast::hash(value)) << 32) | (value.len() as u64 & 0xffff_ffff);
        let values = &mut self.values;
        let same_key = self.numbers.entry(key).or_default();
        if let Some(&n) = same_key.iter().find(|&&n| values[n as usize] == value) {
            return n;
        }
        let n = values.len() as u64;
        values.push(value);
        same_key.push(n);
        n
    }
}

/// The dictionary's keys are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Appends the record of a captured exchange to `out`, its long header values going to `dictionary`.
pub fn encode_captured<'a>(
    out: &mut Vec<u8>,
    captured: &'a Captured,
    dictionary: &mut Dictionary<'a>,
) {
    let mut w = Writer::continuing(std::mem::take(out));
    summary(&mut w, &captured.summary);
    raw_message(&mut w, &captured.request, dictionary);
    raw_message(&mut w, &captured.response, dictionary);
    tail(
        &mut w,
        captured.gate.as_ref(),
        &captured.tpp_messages,
        captured.composer_signing_string.as_deref(),
        Some(dictionary),
    );
    *out = w.finish();
}

/// Appends the record of an exchange read back (an earlier log carried over) to `out`.
pub fn encode_exchange<'a>(
    out: &mut Vec<u8>,
    exchange: &'a Exchange,
    dictionary: &mut Dictionary<'a>,
) {
    let mut w = Writer::continuing(std::mem::take(out));
    summary(&mut w, &exchange.summary);
    for message in [&exchange.request, &exchange.response] {
        headers(
            &mut w,
            message.headers.len(),
            message
                .headers
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_bytes())),
            dictionary,
        );
        body(
            &mut w,
            message.body.as_deref(),
            message.body_base64,
            message.body_bytes,
            dictionary,
        );
    }
    tail(
        &mut w,
        exchange.gate.as_ref(),
        &exchange.tpp_messages,
        exchange.composer_signing_string.as_deref(),
        Some(dictionary),
    );
    *out = w.finish();
}

/// The exchange of a record written by [`encode_captured`] or [`encode_exchange`], with the segment's
/// dictionary.
pub fn decode_with(record: &[u8], dictionary: &[&[u8]]) -> Result<Exchange, String> {
    let mut r = Reader::of(record);
    let summary = read_summary(&mut r)?;
    let request = read_message_with(&mut r, dictionary)?;
    let response = read_message_with(&mut r, dictionary)?;
    let exchange = read_tail(&mut r, summary, request, response, Some(dictionary))?;
    r.end()?;
    Ok(exchange)
}

/// Only the summary of a record (what the list shows): the rest is not read.
pub fn decode_summary(record: &[u8]) -> Result<ExchangeSummary, String> {
    read_summary(&mut Reader::of(record))
}

/// The exchange of a first-version record, binary or JSON (an earlier log being carried over).
pub fn decode(bytes: &[u8]) -> Result<Exchange, String> {
    match bytes.first() {
        Some(b'{') => serde_json::from_slice(bytes).map_err(|e| e.to_string()),
        Some(&VERSION) => {
            let mut r = Reader::of(&bytes[1..]);
            let summary = read_summary(&mut r)?;
            let request = read_message(&mut r)?;
            let response = read_message(&mut r)?;
            let exchange = read_tail(&mut r, summary, request, response, None)?;
            r.end()?;
            Ok(exchange)
        }
        Some(other) => Err(format!("unknown exchange record version {other}")),
        None => Err("empty exchange record".into()),
    }
}

fn raw_message<'a>(w: &mut Writer, message: &'a RawMessage, dictionary: &mut Dictionary<'a>) {
    headers(w, message.headers.len(), message.headers.iter(), dictionary);
    match message.body.as_deref() {
        None | Some([]) => body(w, None, false, message.body_bytes(), dictionary),
        // Kept as it came: whether it is text is decided when it is read, not for every exchange written.
        Some(bytes) => {
            w.u8(BODY_UNCHECKED);
            long(w, bytes, dictionary);
            w.u64(bytes.len() as u64);
            w.bool(false);
        }
    }
}

/// Header lines: the name, then a value given inline (0 and its bytes) or by its dictionary number + 1.
fn headers<'a>(
    w: &mut Writer,
    count: usize,
    lines: impl Iterator<Item = (&'a str, &'a [u8])>,
    dictionary: &mut Dictionary<'a>,
) {
    w.u64(count as u64);
    for (name, value) in lines {
        w.str(name);
        long(w, value, dictionary);
    }
}

/// A value that may be long: 0 and its bytes, or its dictionary number + 1.
fn long<'a>(w: &mut Writer, value: &'a [u8], dictionary: &mut Dictionary<'a>) {
    if value.len() >= DICTIONARY_FROM {
        w.u64(dictionary.number(value) + 1);
    } else {
        w.u8(0);
        w.bytes(value);
    }
}

fn read_long<'o, 'r: 'o, 'd: 'o>(
    r: &mut Reader<'r>,
    dictionary: &[&'d [u8]],
) -> Result<&'o [u8], String> {
    match r.u64()? {
        0 => r.bytes(),
        n => dictionary
            .get((n - 1) as usize)
            .copied()
            .ok_or_else(|| "a value names a dictionary entry the segment does not have".into()),
    }
}

fn read_long_text(r: &mut Reader, dictionary: &[&[u8]]) -> Result<String, String> {
    std::str::from_utf8(read_long(r, dictionary)?)
        .map(str::to_owned)
        .map_err(|e| e.to_string())
}

/// A body that is present and text, and one present as it came (text if it reads as UTF-8, otherwise
/// shown as base64).
const BODY_TEXT: u8 = 1;
const BODY_UNCHECKED: u8 = 2;

/// A body: absent (0), or present and then long.
fn body<'a>(
    w: &mut Writer,
    text: Option<&'a str>,
    base64: bool,
    bytes: usize,
    dictionary: &mut Dictionary<'a>,
) {
    match text {
        None => w.u8(0),
        Some(text) => {
            w.u8(BODY_TEXT);
            long(w, text.as_bytes(), dictionary);
        }
    }
    w.u64(bytes as u64);
    w.bool(base64);
}

fn read_message_with(r: &mut Reader, dictionary: &[&[u8]]) -> Result<Message, String> {
    let headers = r.list(|r| {
        let name = r.str()?;
        let value = read_long(r, dictionary)?;
        Ok((name, String::from_utf8_lossy(value).into_owned()))
    })?;
    let (body, unchecked) = match r.u8()? {
        0 => (None, false),
        BODY_TEXT => (Some(read_long_text(r, dictionary)?), false),
        BODY_UNCHECKED => {
            let bytes = read_long(r, dictionary)?;
            match std::str::from_utf8(bytes) {
                Ok(text) => (Some(text.to_owned()), false),
                Err(_) => (
                    Some(base64::engine::general_purpose::STANDARD.encode(bytes)),
                    true,
                ),
            }
        }
        other => return Err(format!("a body in the exchange record is marked {other}")),
    };
    let body_bytes = r.usize()?;
    let body_base64 = r.bool()? || unchecked;
    Ok(Message {
        headers,
        body,
        body_bytes,
        body_base64,
    })
}

/// What follows the messages in either version: the gate's verdict, the tppMessages, the composer's
/// signing string.
fn tail<'a>(
    w: &mut Writer,
    gate: Option<&'a GateVerdict>,
    tpp_messages: &[serde_json::Value],
    composer_signing_string: Option<&str>,
    mut dictionary: Option<&mut Dictionary<'a>>,
) {
    w.option(gate, |w, gate| {
        // A count and the steps (not `Writer::list`: a rule goes to the dictionary, which borrows it).
        w.u64(gate.steps.len() as u64);
        for step in &gate.steps {
            w.str(&step.step);
            w.str(&step.outcome);
            w.opt_str(step.header.as_deref());
            // The rules are the same few texts in every exchange.
            match dictionary.as_deref_mut() {
                Some(dictionary) => long(w, step.rule.as_bytes(), dictionary),
                None => w.str(&step.rule),
            }
            w.opt_str(step.detail.as_deref());
        }
        w.opt_str(gate.signing_string.as_deref());
        w.list(&gate.signed_headers, |w, name| w.str(name));
        w.opt_str(gate.likely_cause.as_deref());
    });
    w.list(tpp_messages, |w, message| {
        w.bytes(&serde_json::to_vec(message).unwrap_or_default());
    });
    w.opt_str(composer_signing_string);
}

fn summary(w: &mut Writer, s: &ExchangeSummary) {
    w.u64(s.id);
    w.instant_fixed(s.at);
    w.u64(s.duration_ms);
    w.str(&s.method);
    w.str(&s.path);
    w.opt_str(s.query.as_deref());
    w.u64(s.status.into());
    w.str(&s.area);
    w.str(&s.source);
    w.option(s.tpp.as_ref(), |w, tpp| {
        w.str(&tpp.organisation_id);
        w.str(&tpp.name);
        w.str(&tpp.subject);
    });
    w.opt_str(s.psu_id.as_deref());
    w.opt_str(s.tpp_session_id.as_deref());
    w.opt_str(s.failed_step.as_deref());
    w.opt_str(s.code.as_deref());
    w.list(&s.resources, |w, resource| {
        w.str(&resource.kind);
        w.str(&resource.id);
    });
    w.list(&s.journeys, |w, journey| w.str(journey));
}

fn read_tail(
    r: &mut Reader,
    summary: ExchangeSummary,
    request: Message,
    response: Message,
    dictionary: Option<&[&[u8]]>,
) -> Result<Exchange, String> {
    let gate = r.option(|r| {
        Ok(GateVerdict {
            steps: r.list(|r| {
                Ok(GateStep {
                    step: r.str()?.into(),
                    outcome: r.str()?.into(),
                    header: r.opt_str()?.map(Into::into),
                    rule: match dictionary {
                        Some(dictionary) => read_long_text(r, dictionary)?.into(),
                        None => r.str()?.into(),
                    },
                    detail: r.opt_str()?.map(Into::into),
                })
            })?,
            signing_string: r.opt_str()?,
            signed_headers: r.list(Reader::str)?,
            likely_cause: r.opt_str()?,
        })
    })?;
    let tpp_messages = r.list(|r| serde_json::from_slice(r.bytes()?).map_err(|e| e.to_string()))?;
    Ok(Exchange {
        summary,
        request,
        response,
        gate,
        tpp_messages,
        composer_signing_string: r.opt_str()?,
    })
}

fn read_summary(r: &mut Reader) -> Result<ExchangeSummary, String> {
    Ok(ExchangeSummary {
        id: r.u64()?,
        at: r.instant_fixed()?,
        duration_ms: r.u64()?,
        method: r.str()?,
        path: r.str()?,
        query: r.opt_str()?,
        status: u16::try_from(r.u64()?).map_err(|e| e.to_string())?,
        area: r.str()?,
        source: r.str()?,
        tpp: r.option(|r| {
            Ok(TppRef {
                organisation_id: r.str()?,
                name: r.str()?,
                subject: r.str()?,
            })
        })?,
        psu_id: r.opt_str()?,
        tpp_session_id: r.opt_str()?,
        failed_step: r.opt_str()?,
        code: r.opt_str()?,
        resources: r.list(|r| {
            Ok(Resource {
                kind: r.str()?,
                id: r.str()?,
            })
        })?,
        journeys: r.list(Reader::str)?,
    })
}

fn read_message(r: &mut Reader) -> Result<Message, String> {
    Ok(Message {
        headers: r.list(|r| Ok((r.str()?, r.str()?)))?,
        body: r.opt_str()?,
        body_bytes: r.usize()?,
        body_base64: r.bool()?,
    })
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

    /// A first-version record, as earlier versions wrote them one per sled record.
    fn encode_v1(exchange: &Exchange) -> Vec<u8> {
        let mut w = Writer::new(VERSION, 1024);
        summary(&mut w, &exchange.summary);
        message(&mut w, &exchange.request);
        message(&mut w, &exchange.response);
        tail(
            &mut w,
            exchange.gate.as_ref(),
            &exchange.tpp_messages,
            exchange.composer_signing_string.as_deref(),
            None,
        );
        w.finish()
    }

    fn message(w: &mut Writer, m: &Message) {
        w.list(&m.headers, |w, (name, value)| {
            w.str(name);
            w.str(value);
        });
        w.opt_str(m.body.as_deref());
        w.u64(m.body_bytes as u64);
        w.bool(m.body_base64);
    }

    fn round_trip(exchange: &Exchange) -> (Exchange, usize) {
        let mut dictionary = Dictionary::default();
        let mut record = Vec::new();
        encode_exchange(&mut record, exchange, &mut dictionary);
        let values = dictionary.values().to_vec();
        assert_eq!(decode_summary(&record).unwrap(), exchange.summary);
        (decode_with(&record, &values).unwrap(), values.len())
    }

    #[test]
    fn an_exchange_reads_back_as_it_was_written() {
        let whole = exchange();
        assert_eq!(round_trip(&whole).0, whole);
        let mut bare = whole.clone();
        bare.gate = None;
        bare.summary.tpp = None;
        bare.request.body = None;
        bare.tpp_messages.clear();
        assert_eq!(round_trip(&bare).0, bare);
    }

    #[test]
    fn a_long_header_value_is_kept_once_in_the_dictionary() {
        let certificate = "MII".to_owned() + &"A".repeat(1500);
        let mut whole = exchange();
        whole
            .request
            .headers
            .push(("tpp-signature-certificate".into(), certificate.clone()));
        whole
            .response
            .headers
            .push(("x-echo".into(), certificate.clone()));
        let mut dictionary = Dictionary::default();
        let mut record = Vec::new();
        encode_exchange(&mut record, &whole, &mut dictionary);
        assert_eq!(dictionary.values(), [certificate.as_bytes()]);
        assert!(record.len() < 1000, "the value is not in the record itself");
        let values = dictionary.values().to_vec();
        assert_eq!(decode_with(&record, &values).unwrap(), whole);
        assert!(
            decode_with(&record, &[]).is_err(),
            "a missing entry is an error"
        );
    }

    #[test]
    fn a_captured_body_that_is_not_text_is_kept_as_base64() {
        let mut request = RawMessage::default();
        request
            .headers
            .push("date", b"Sun, 22 Nov 2026 10:00:00 GMT");
        request.body = Some(bytes::Bytes::from_static(b"{\"a\": 1}"));
        let response = RawMessage {
            headers: Default::default(),
            body: Some(bytes::Bytes::from_static(&[0xff, 0xfe, 0])),
        };
        let whole = exchange();
        let captured = Captured {
            summary: whole.summary.clone(),
            request,
            response,
            gate: None,
            tpp_messages: Vec::new(),
            composer_signing_string: Some("date: x".into()),
            answer: None,
        };
        let mut dictionary = Dictionary::default();
        let mut record = Vec::new();
        encode_captured(&mut record, &captured, &mut dictionary);
        let read = decode_with(&record, &[]).unwrap();
        assert_eq!(read.request.headers, whole.request.headers);
        assert_eq!(read.request.body.as_deref(), Some("{\"a\": 1}"));
        assert_eq!(read.response.body.as_deref(), Some("//4A"));
        assert!(read.response.body_base64);
        assert_eq!(read.response.body_bytes, 3);
        assert_eq!(read.composer_signing_string.as_deref(), Some("date: x"));
    }

    #[test]
    fn records_of_earlier_versions_still_read() {
        let whole = exchange();
        assert_eq!(decode(&encode_v1(&whole)).unwrap(), whole);
        assert_eq!(decode(&serde_json::to_vec(&whole).unwrap()).unwrap(), whole);
    }

    #[test]
    fn a_damaged_record_is_refused_not_misread() {
        let record = encode_v1(&exchange());
        assert!(decode(&record[..record.len() - 1]).is_err());
        assert!(decode(&[9, 1, 2]).is_err());
        assert!(decode(&[]).is_err());
        let (mut dictionary, mut record) = (Dictionary::default(), Vec::new());
        encode_exchange(&mut record, &exchange(), &mut dictionary);
        assert!(decode_with(&record[..record.len() - 1], &[]).is_err());
    }
}
