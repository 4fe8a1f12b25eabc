//! One segment of the traffic log: the entries one write of the log's writer stores, together. Storing
//! many entries at once is what keeps the log cheap under load (one append to a chunk file and one small
//! index record per write, long header values kept once per segment); the in-memory list of segments
//! ([`super::shelf`]) finds an entry's segment by its number.
//!
//! A segment: the format's version (2), its sequence number, its dictionary of long header values, then
//! its entries in number order, each as its number, its kind, its weight for the byte cap and its record
//! (an exchange in [`super::codec`]'s form, or an event as JSON).

use super::chunks::Location;
use super::codec::{self, Dictionary};
use super::model::{Entry, EventEntry, Exchange};
use super::Captured;
use serde::{Deserialize, Serialize};
use xs2a_core::store::codec::{Reader, Writer};
use xs2a_core::store::Record;

/// The first byte of a segment.
pub const VERSION: u8 = 2;
const EXCHANGE: u8 = 0;
const EVENT: u8 = 1;
/// Set in an entry's kind when it belongs to a journey (pruning then reads it to count it out).
const IN_JOURNEY: u8 = 0x80;

/// Where a segment sits in the log, what it holds and where its bytes are: the segment's index record
/// (in sled, under its sequence number) and what the shelf keeps in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentInfo {
    /// Segments are numbered in the order they were written; the oldest is pruned first.
    pub seq: u64,
    /// The lowest and the highest entry number it holds. Pruning part of a segment raises `min`: its
    /// entries below are gone, though its bytes still hold them.
    pub min: u64,
    pub max: u64,
    pub count: u64,
    /// The sum of its entries' weights (for the byte cap).
    pub weight: u64,
    pub chunk: u64,
    pub offset: u64,
    pub len: u64,
}

impl SegmentInfo {
    pub fn location(&self) -> Location {
        Location {
            chunk: self.chunk,
            offset: self.offset,
            len: self.len,
        }
    }
}

impl Record for SegmentInfo {
    const TREE: &'static str = "traffic-segments";

    /// The sequence number, fixed-width hex, so that keys sort in write order.
    fn key(&self) -> String {
        format!("{:016x}", self.seq)
    }
}

/// An entry to be written into a segment, with its weight.
pub enum Item<'a> {
    Captured(&'a Captured, u64),
    /// An exchange read back (an earlier log carried over).
    Exchange(&'a Exchange, u64),
    Event(&'a EventEntry, u64),
}

impl Item<'_> {
    fn in_journey(&self) -> bool {
        match self {
            Item::Captured(c, _) => !c.summary.journeys.is_empty(),
            Item::Exchange(e, _) => !e.summary.journeys.is_empty(),
            Item::Event(e, _) => !e.journeys.is_empty(),
        }
    }

    fn id(&self) -> u64 {
        match self {
            Item::Captured(c, _) => c.summary.id,
            Item::Exchange(e, _) => e.summary.id,
            Item::Event(e, _) => e.id,
        }
    }
}

/// A segment's bytes, with what its index record says of them.
#[derive(Debug, Clone)]
pub struct Segment {
    pub seq: u64,
    pub min: u64,
    pub max: u64,
    pub count: u64,
    pub weight: u64,
    pub bytes: Vec<u8>,
}

impl Segment {
    /// The segment numbered `seq` holding `items` (at least one), in number order.
    pub fn build(seq: u64, mut items: Vec<Item<'_>>) -> Segment {
        items.sort_by_key(Item::id);
        let mut dictionary = Dictionary::default();
        let mut entries = Writer::continuing(Vec::with_capacity(items.len() * 1024));
        let mut record = Vec::with_capacity(4096);
        let mut weight = 0;
        for item in &items {
            record.clear();
            let (kind, item_weight) = match item {
                Item::Captured(captured, w) => {
                    codec::encode_captured(&mut record, captured, &mut dictionary);
                    (EXCHANGE, *w)
                }
                Item::Exchange(exchange, w) => {
                    codec::encode_exchange(&mut record, exchange, &mut dictionary);
                    (EXCHANGE, *w)
                }
                Item::Event(event, w) => {
                    record = serde_json::to_vec(event).unwrap_or_default();
                    (EVENT, *w)
                }
            };
            entries.u64(item.id());
            entries.u8(if item.in_journey() {
                kind | IN_JOURNEY
            } else {
                kind
            });
            entries.u64(item_weight);
            entries.bytes(&record);
            weight += item_weight;
        }
        Segment {
            seq,
            min: items.first().map_or(0, Item::id),
            max: items.last().map_or(0, Item::id),
            count: items.len() as u64,
            weight,
            bytes: assemble(seq, dictionary.values(), items.len(), &entries.finish()),
        }
    }

    /// Its index record, once its bytes are at `location`.
    pub fn info(&self, location: Location) -> SegmentInfo {
        SegmentInfo {
            seq: self.seq,
            min: self.min,
            max: self.max,
            count: self.count,
            weight: self.weight,
            chunk: location.chunk,
            offset: location.offset,
            len: location.len,
        }
    }
}

fn assemble(seq: u64, dictionary: &[&[u8]], count: usize, entries: &[u8]) -> Vec<u8> {
    let dictionary_bytes: usize = dictionary.iter().map(|v| v.len() + 3).sum();
    let mut w = Writer::new(VERSION, 32 + dictionary_bytes + entries.len());
    w.u64(seq);
    w.list(dictionary, |w, value| w.bytes(value));
    w.u64(count as u64);
    w.raw(entries);
    w.finish()
}

/// One entry of a segment, read in place.
#[derive(Debug)]
pub struct EntryRef<'a> {
    pub id: u64,
    kind: u8,
    /// Whether it belongs to a journey.
    pub in_journey: bool,
    pub weight: u64,
    record: &'a [u8],
}

/// A segment's entries, read in place (in number order).
pub struct SegmentView<'a> {
    pub seq: u64,
    dictionary: Vec<&'a [u8]>,
    pub entries: Vec<EntryRef<'a>>,
}

impl<'a> SegmentView<'a> {
    /// The entries of a segment's bytes.
    pub fn parse(bytes: &'a [u8]) -> Result<SegmentView<'a>, String> {
        let mut r = Reader::of(bytes);
        let version = r.u8()?;
        if version != VERSION {
            return Err(format!("unknown traffic segment version {version}"));
        }
        let seq = r.u64()?;
        let dictionary = r.list(Reader::bytes)?;
        let entries = r.list(|r| {
            let id = r.u64()?;
            let kind = r.u8()?;
            Ok(EntryRef {
                id,
                kind: kind & !IN_JOURNEY,
                in_journey: kind & IN_JOURNEY != 0,
                weight: r.u64()?,
                record: r.bytes()?,
            })
        })?;
        r.end()?;
        Ok(SegmentView {
            seq,
            dictionary,
            entries,
        })
    }

    /// What the list shows of `entry`.
    pub fn summary(&self, entry: &EntryRef) -> Result<Entry, String> {
        match entry.kind {
            EXCHANGE => codec::decode_summary(entry.record).map(Entry::Exchange),
            EVENT => serde_json::from_slice(entry.record)
                .map(Entry::Event)
                .map_err(|e| e.to_string()),
            other => Err(format!("unknown traffic entry kind {other}")),
        }
    }

    /// `entry` whole: the exchange, or the event.
    pub fn whole(&self, entry: &EntryRef) -> Result<Result<Exchange, EventEntry>, String> {
        match entry.kind {
            EXCHANGE => codec::decode_with(entry.record, &self.dictionary).map(Ok),
            EVENT => serde_json::from_slice(entry.record)
                .map(Err)
                .map_err(|e| e.to_string()),
            other => Err(format!("unknown traffic entry kind {other}")),
        }
    }
}

/// A captured GET for tests: number `id`, signed with `certificate` (a long header value).
#[cfg(test)]
pub(crate) fn sample_captured(id: u64, certificate: &str) -> Captured {
    let mut request = super::raw::RawMessage::default();
    request
        .headers
        .push("tpp-signature-certificate", certificate.as_bytes());
    request
        .headers
        .push("x-request-id", format!("r{id}").as_bytes());
    Captured {
        summary: super::model::ExchangeSummary {
            id,
            at: time::macros::datetime!(2026-11-22 10:00:00 UTC),
            duration_ms: 1,
            method: "GET".into(),
            path: "/v1/accounts".into(),
            query: None,
            status: 200,
            area: "bank".into(),
            source: "external".into(),
            tpp: None,
            psu_id: None,
            tpp_session_id: None,
            failed_step: None,
            code: None,
            resources: Vec::new(),
            journeys: Vec::new(),
        },
        request,
        response: super::raw::RawMessage::default(),
        gate: None,
        tpp_messages: Vec::new(),
        composer_signing_string: None,
        answer: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: u64) -> EventEntry {
        EventEntry {
            id,
            at: time::macros::datetime!(2026-11-22 10:00:01 UTC),
            event: "clock".into(),
            data: serde_json::json!({"now": "2026-11-22T10:00:01Z"}),
            resources: Vec::new(),
            journeys: Vec::new(),
        }
    }

    #[test]
    fn a_segment_holds_its_entries_in_number_order_with_one_copy_of_a_long_header() {
        let certificate = "C".repeat(1500);
        let (a, b, c) = (
            sample_captured(7, &certificate),
            sample_captured(5, &certificate),
            event(6),
        );
        let segment = Segment::build(
            3,
            vec![
                Item::Captured(&a, 100),
                Item::Captured(&b, 200),
                Item::Event(&c, 50),
            ],
        );
        assert_eq!(
            (
                segment.seq,
                segment.min,
                segment.max,
                segment.count,
                segment.weight
            ),
            (3, 5, 7, 3, 350)
        );
        assert!(
            segment.bytes.len() < 2 * 1500,
            "the certificate is stored once"
        );
        let view = SegmentView::parse(&segment.bytes).unwrap();
        assert_eq!(view.seq, 3);
        let ids: Vec<u64> = view.entries.iter().map(|e| e.id).collect();
        assert_eq!(ids, [5, 6, 7]);
        let Ok(whole) = view.whole(&view.entries[2]).unwrap() else {
            panic!("an exchange");
        };
        assert_eq!(whole.summary, a.summary);
        assert_eq!(
            whole.request.headers[0],
            ("tpp-signature-certificate".into(), certificate.clone())
        );
        assert_eq!(view.whole(&view.entries[1]).unwrap(), Err(c.clone()));
        assert_eq!(view.summary(&view.entries[1]).unwrap(), Entry::Event(c));
        let location = Location {
            chunk: 2,
            offset: 40,
            len: segment.bytes.len() as u64,
        };
        let info = segment.info(location);
        assert_eq!(
            (info.key(), info.location()),
            ("0000000000000003".into(), location)
        );
    }

    #[test]
    fn a_damaged_segment_is_refused_not_misread() {
        let a = sample_captured(1, "x");
        let segment = Segment::build(1, vec![Item::Captured(&a, 1)]);
        assert!(SegmentView::parse(&segment.bytes[..segment.bytes.len() - 1]).is_err());
        assert!(SegmentView::parse(&[1, 2, 3]).is_err());
        assert!(SegmentView::parse(&[]).is_err());
    }
}
