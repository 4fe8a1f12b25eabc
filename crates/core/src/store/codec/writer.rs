//! The writing half of the binary encoding: appends each primitive in the form `super` documents.

use super::{canonical_uuid, IdRef};
use crate::domain::{Country, Currency};
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};

/// Builds a record (or a part of one), field by field.
pub struct Writer(Vec<u8>);

impl Writer {
    /// A record whose layout is version `format` (its first byte; never `{`, which marks JSON), with room
    /// for `capacity` bytes.
    pub fn new(format: u8, capacity: usize) -> Writer {
        debug_assert_ne!(format, b'{');
        let mut bytes = Vec::with_capacity(capacity);
        bytes.push(format);
        Writer(bytes)
    }

    /// A writer that goes on after `bytes` (no format byte): for parts assembled into a record later, and
    /// for a buffer reused from one record to the next.
    pub fn continuing(bytes: Vec<u8>) -> Writer {
        Writer(bytes)
    }

    pub fn finish(self) -> Vec<u8> {
        self.0
    }

    /// Bytes already in this encoding (a part written with [`Writer::continuing`]), or of a fixed size
    /// the layout gives, as they are.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    pub fn u8(&mut self, value: u8) {
        self.0.push(value);
    }

    pub fn bool(&mut self, value: bool) {
        self.0.push(u8::from(value));
    }

    /// The one varint (LEB128) every number goes through; 128 bits for decimals' mantissas.
    fn varint(&mut self, mut value: u128) {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    pub fn u64(&mut self, value: u64) {
        self.varint(u128::from(value));
    }

    /// Zigzag, then LEB128.
    pub fn i64(&mut self, value: i64) {
        self.u64(((value << 1) ^ (value >> 63)) as u64);
    }

    fn i128(&mut self, value: i128) {
        self.varint(((value << 1) ^ (value >> 127)) as u128);
    }

    /// The length, then the bytes.
    pub fn bytes(&mut self, value: &[u8]) {
        self.u64(value.len() as u64);
        self.0.extend_from_slice(value);
    }

    pub fn str(&mut self, value: &str) {
        self.bytes(value.as_bytes());
    }

    pub fn opt_str(&mut self, value: Option<&str>) {
        self.option(value, Writer::str);
    }

    /// An identifier: a canonical (lower-case, hyphenated) UUID in 16 bytes, anything else as text.
    pub fn id(&mut self, value: &str) {
        match canonical_uuid(value) {
            Some(bytes) => self.id_ref(IdRef::Uuid(bytes)),
            None => {
                self.u8(1);
                self.str(value);
            }
        }
    }

    /// An identifier given as text or, when the writer has it so, as a UUID's bytes.
    pub fn id_ref(&mut self, value: IdRef) {
        match value {
            IdRef::Text(text) => self.id(text),
            IdRef::Uuid(bytes) => {
                self.u8(0);
                self.0.extend_from_slice(&bytes);
            }
        }
    }

    pub fn opt_id(&mut self, value: Option<&str>) {
        self.option(value, Writer::id);
    }

    pub fn date(&mut self, value: Date) {
        self.i64(i64::from(value.to_julian_day()));
    }

    pub fn opt_date(&mut self, value: Option<Date>) {
        self.option(value, Writer::date);
    }

    /// Seconds, nanoseconds and UTC offset, each a varint.
    pub fn instant(&mut self, value: OffsetDateTime) {
        self.i64(value.unix_timestamp());
        self.u64(u64::from(value.nanosecond()));
        self.i64(i64::from(value.offset().whole_seconds()));
    }

    pub fn opt_instant(&mut self, value: Option<OffsetDateTime>) {
        self.option(value, Writer::instant);
    }

    /// The traffic log's form: nanoseconds in 16 fixed bytes (little-endian), then the UTC offset.
    pub fn instant_fixed(&mut self, value: OffsetDateTime) {
        self.0
            .extend_from_slice(&value.unix_timestamp_nanos().to_le_bytes());
        self.i64(value.offset().whole_seconds().into());
    }

    pub fn decimal(&mut self, value: Decimal) {
        self.i128(value.mantissa());
        self.u8(value.scale() as u8);
    }

    pub fn currency(&mut self, value: Currency) {
        self.0.extend_from_slice(value.code().as_bytes());
    }

    pub fn opt_bool(&mut self, value: Option<bool>) {
        self.u8(match value {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        });
    }

    pub fn opt_country(&mut self, value: Option<Country>) {
        match value {
            None => self.0.extend_from_slice(b"--"),
            Some(country) => self.0.extend_from_slice(country.code().as_bytes()),
        }
    }

    /// A present flag, then the value.
    pub fn option<T>(&mut self, value: Option<T>, write: impl FnOnce(&mut Writer, T)) {
        match value {
            None => self.u8(0),
            Some(value) => {
                self.u8(1);
                write(self, value);
            }
        }
    }

    /// A count, then each item.
    pub fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Writer, &T)) {
        self.u64(items.len() as u64);
        for item in items {
            write(self, item);
        }
    }
}
