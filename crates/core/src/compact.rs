//! A compact binary form for stored records that are many and large (payments, account transactions):
//! a format byte first, then fields in a fixed order with no names — unsigned numbers as LEB128 varints,
//! signed ones zigzagged, strings length-prefixed, canonical UUIDs as their 16 bytes, dates as their
//! Julian day, instants as seconds, nanoseconds and UTC offset, decimals as mantissa and scale.
//!
//! Why: a batch run reads every payment and writes every one it decided plus two bookings each; as JSON
//! (1.2 KB a payment, 0.6 KB a booking) 100 000 of them overflowed the store's page cache and sled spent
//! most of a run reading its own pages back. A record's first byte tells the forms apart: JSON starts
//! with `{`, a compact record with its format byte, so records written before stay readable.

use crate::domain::{Country, Currency};
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime, UtcOffset};

/// Why stored bytes could not be read back.
pub type DecodeError = String;

/// True when `bytes` hold a JSON record (written before the compact form existed).
pub fn is_json(bytes: &[u8]) -> bool {
    bytes.first() == Some(&b'{')
}

/// Where a canonical UUID's text has its hyphens.
const HYPHENS: [usize; 4] = [8, 13, 18, 23];

/// The 16 bytes of a UUID written in its canonical text (36 characters, lower-case hex, hyphens at
/// [`HYPHENS`]), which alone reads back to the same text; None for any other text. Checked by hand:
/// records hold several ids each, and a run writes hundreds of thousands.
fn canonical_uuid(text: &str) -> Option<[u8; 16]> {
    /// Where each byte's two hex digits start in the text.
    const DIGITS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    let text = text.as_bytes();
    if text.len() != 36 || HYPHENS.iter().any(|&i| text[i] != b'-') {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut bytes = [0u8; 16];
    for (byte, &at) in bytes.iter_mut().zip(&DIGITS) {
        *byte = digit(text[at])? << 4 | digit(text[at + 1])?;
    }
    Some(bytes)
}

/// The canonical text of a UUID's 16 bytes.
fn uuid_text(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(36);
    for (i, byte) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            text.push('-');
        }
        text.push(HEX[usize::from(byte >> 4)] as char);
        text.push(HEX[usize::from(byte & 0xf)] as char);
    }
    text
}

/// An identifier to write: its text, or the 16 bytes of a UUID (written as the text of a canonical UUID
/// would be, without making and parsing the text).
#[derive(Debug, Clone, Copy)]
pub enum IdRef<'a> {
    Text(&'a str),
    Uuid([u8; 16]),
}

impl<'a> IdRef<'a> {
    /// The short form of a canonical UUID's text, else the text itself.
    pub fn of(text: &'a str) -> IdRef<'a> {
        canonical_uuid(text).map_or(IdRef::Text(text), IdRef::Uuid)
    }
}

/// Builds one compact record.
pub struct Writer(Vec<u8>);

impl Writer {
    /// A record of format `format` (never `{`), with room for `capacity` bytes.
    pub fn new(format: u8, capacity: usize) -> Writer {
        debug_assert_ne!(format, b'{');
        let mut bytes = Vec::with_capacity(capacity);
        bytes.push(format);
        Writer(bytes)
    }

    /// A writer that goes on after `bytes` (no format byte): for parts assembled into a record later.
    pub fn continuing(bytes: Vec<u8>) -> Writer {
        Writer(bytes)
    }

    pub fn finish(self) -> Vec<u8> {
        self.0
    }

    /// Bytes already in the compact form (a part written with [`Writer::continuing`]).
    pub fn raw(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    pub fn u8(&mut self, value: u8) {
        self.0.push(value);
    }

    pub fn bool(&mut self, value: bool) {
        self.0.push(u8::from(value));
    }

    pub fn u64(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    pub fn i64(&mut self, value: i64) {
        self.u64(((value << 1) ^ (value >> 63)) as u64);
    }

    fn i128(&mut self, value: i128) {
        let mut zigzag = ((value << 1) ^ (value >> 127)) as u128;
        while zigzag >= 0x80 {
            self.0.push((zigzag as u8) | 0x80);
            zigzag >>= 7;
        }
        self.0.push(zigzag as u8);
    }

    pub fn str(&mut self, value: &str) {
        self.u64(value.len() as u64);
        self.0.extend_from_slice(value.as_bytes());
    }

    pub fn opt_str(&mut self, value: Option<&str>) {
        match value {
            None => self.u8(0),
            Some(text) => {
                self.u8(1);
                self.str(text);
            }
        }
    }

    /// An identifier: a canonical (lower-case, hyphenated) UUID in 16 bytes, anything else as text.
    pub fn id(&mut self, value: &str) {
        match canonical_uuid(value) {
            Some(bytes) => {
                self.u8(0);
                self.0.extend_from_slice(&bytes);
            }
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
        match value {
            None => self.u8(0),
            Some(id) => {
                self.u8(1);
                self.id(id);
            }
        }
    }

    pub fn date(&mut self, value: Date) {
        self.i64(i64::from(value.to_julian_day()));
    }

    pub fn opt_date(&mut self, value: Option<Date>) {
        self.option(value, Writer::date);
    }

    pub fn instant(&mut self, value: OffsetDateTime) {
        self.i64(value.unix_timestamp());
        self.u64(u64::from(value.nanosecond()));
        self.i64(i64::from(value.offset().whole_seconds()));
    }

    pub fn opt_instant(&mut self, value: Option<OffsetDateTime>) {
        self.option(value, Writer::instant);
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

/// Reads one compact record back, field by field in the order it was written.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader after the format byte, which must be `format`.
    pub fn new(bytes: &'a [u8], format: u8) -> Result<Reader<'a>, DecodeError> {
        match bytes.first() {
            Some(&first) if first == format => Ok(Reader { bytes, at: 1 }),
            Some(&other) => Err(format!("unknown record format {other}")),
            None => Err("an empty record".to_owned()),
        }
    }

    /// Ends the record: every byte must have been read.
    pub fn end(self) -> Result<(), DecodeError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(format!(
                "{} bytes left after the record",
                self.bytes.len() - self.at
            ))
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len())
            .ok_or_else(|| format!("the record ends early (at byte {})", self.at))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    pub fn bool(&mut self) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(format!("{other} is not a boolean")),
        }
    }

    fn u128(&mut self) -> Result<u128, DecodeError> {
        let mut value = 0u128;
        for shift in (0..128).step_by(7) {
            let byte = self.u8()?;
            value |= u128::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a number longer than 128 bits".to_owned())
    }

    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        u64::try_from(self.u128()?).map_err(|_| "a number beyond 64 bits".to_owned())
    }

    pub fn usize(&mut self) -> Result<usize, DecodeError> {
        usize::try_from(self.u64()?).map_err(|_| "a count beyond this machine's".to_owned())
    }

    pub fn i64(&mut self) -> Result<i64, DecodeError> {
        let zigzag = self.u64()?;
        Ok((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
    }

    fn i128(&mut self) -> Result<i128, DecodeError> {
        let zigzag = self.u128()?;
        Ok((zigzag >> 1) as i128 ^ -((zigzag & 1) as i128))
    }

    pub fn str(&mut self) -> Result<String, DecodeError> {
        let len = self.usize()?;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| "text that is not UTF-8".to_owned())
    }

    pub fn opt_str(&mut self) -> Result<Option<String>, DecodeError> {
        self.option(Reader::str)
    }

    pub fn id(&mut self) -> Result<String, DecodeError> {
        match self.u8()? {
            0 => Ok(uuid_text(self.take(16)?)),
            1 => self.str(),
            other => Err(format!("{other} is not an identifier's form")),
        }
    }

    pub fn opt_id(&mut self) -> Result<Option<String>, DecodeError> {
        self.option(Reader::id)
    }

    pub fn date(&mut self) -> Result<Date, DecodeError> {
        let day = i32::try_from(self.i64()?).map_err(|_| "a date out of range".to_owned())?;
        Date::from_julian_day(day).map_err(|e| format!("a date out of range: {e}"))
    }

    pub fn opt_date(&mut self) -> Result<Option<Date>, DecodeError> {
        self.option(Reader::date)
    }

    pub fn instant(&mut self) -> Result<OffsetDateTime, DecodeError> {
        let seconds = self.i64()?;
        let nanos = u32::try_from(self.u64()?).map_err(|_| "nanoseconds out of range")?;
        let offset = i32::try_from(self.i64()?).map_err(|_| "an offset out of range")?;
        let offset = UtcOffset::from_whole_seconds(offset).map_err(|e| e.to_string())?;
        let utc = OffsetDateTime::from_unix_timestamp(seconds)
            .and_then(|t| t.replace_nanosecond(nanos))
            .map_err(|e| format!("an instant out of range: {e}"))?;
        Ok(utc.to_offset(offset))
    }

    pub fn opt_instant(&mut self) -> Result<Option<OffsetDateTime>, DecodeError> {
        self.option(Reader::instant)
    }

    pub fn decimal(&mut self) -> Result<Decimal, DecodeError> {
        let mantissa = self.i128()?;
        let scale = u32::from(self.u8()?);
        Decimal::try_from_i128_with_scale(mantissa, scale).map_err(|e| e.to_string())
    }

    pub fn currency(&mut self) -> Result<Currency, DecodeError> {
        let code = std::str::from_utf8(self.take(3)?).map_err(|_| "a currency code")?;
        Currency::parse(code).map_err(|e| e.to_string())
    }

    pub fn opt_bool(&mut self) -> Result<Option<bool>, DecodeError> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(false)),
            2 => Ok(Some(true)),
            other => Err(format!("{other} is not an optional boolean")),
        }
    }

    pub fn opt_country(&mut self) -> Result<Option<Country>, DecodeError> {
        match self.take(2)? {
            b"--" => Ok(None),
            code => {
                let code = std::str::from_utf8(code).map_err(|_| "a country code")?;
                Country::parse(code).map(Some).map_err(|e| e.to_string())
            }
        }
    }

    /// A present flag, then the value.
    pub fn option<T>(
        &mut self,
        read: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
    ) -> Result<Option<T>, DecodeError> {
        match self.u8()? {
            0 => Ok(None),
            1 => read(self).map(Some),
            other => Err(format!("{other} is not a present flag")),
        }
    }

    /// A count, then each item.
    pub fn list<T>(
        &mut self,
        mut read: impl FnMut(&mut Reader<'a>) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let count = self.usize()?;
        // Each item takes at least one byte: a damaged count cannot make us reserve more than is left.
        let mut items = Vec::with_capacity(count.min(self.bytes.len() - self.at));
        for _ in 0..count {
            items.push(read(self)?);
        }
        Ok(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use time::macros::{date, datetime};

    #[test]
    fn every_field_reads_back_as_written() {
        let mut w = Writer::new(7, 64);
        w.u64(300);
        w.i64(-5);
        w.str("Ærlig talt €");
        w.id("2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
        w.id("run-000000000012");
        w.id("2F1C7A3E-4B5D-4E6F-8A9B-0C1D2E3F4A5B");
        w.date(date!(2026 - 02 - 28));
        w.instant(datetime!(2026-06-01 12:00:00.123456789 +02:00));
        w.decimal(Decimal::from_str("-125.50").unwrap());
        w.decimal(Decimal::from_str("12345678901234.56789").unwrap());
        w.currency(Currency::NOK);
        w.opt_country(Some(Country::NO));
        w.opt_country(None);
        w.opt_bool(Some(false));
        w.list(&[1u64, 2, 3], |w, n| w.u64(*n));
        let bytes = w.finish();
        let mut r = Reader::new(&bytes, 7).unwrap();
        assert_eq!(r.u64().unwrap(), 300);
        assert_eq!(r.i64().unwrap(), -5);
        assert_eq!(r.str().unwrap(), "Ærlig talt €");
        assert_eq!(r.id().unwrap(), "2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
        assert_eq!(r.id().unwrap(), "run-000000000012");
        assert_eq!(
            r.id().unwrap(),
            "2F1C7A3E-4B5D-4E6F-8A9B-0C1D2E3F4A5B",
            "a non-canonical UUID stays as it was written"
        );
        assert_eq!(r.date().unwrap(), date!(2026 - 02 - 28));
        let instant = r.instant().unwrap();
        assert_eq!(instant, datetime!(2026-06-01 12:00:00.123456789 +02:00));
        assert_eq!(instant.offset().whole_hours(), 2, "the offset is kept");
        let amount = r.decimal().unwrap();
        assert_eq!(amount.to_string(), "-125.50", "the scale is kept");
        assert_eq!(r.decimal().unwrap().to_string(), "12345678901234.56789");
        assert_eq!(r.currency().unwrap(), Currency::NOK);
        assert_eq!(r.opt_country().unwrap(), Some(Country::NO));
        assert_eq!(r.opt_country().unwrap(), None);
        assert_eq!(r.opt_bool().unwrap(), Some(false));
        assert_eq!(r.list(Reader::u64).unwrap(), [1, 2, 3]);
        r.end().unwrap();
    }

    #[test]
    fn only_canonical_uuids_take_the_short_form() {
        let text = "2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b";
        let bytes = canonical_uuid(text).unwrap();
        assert_eq!(bytes, *uuid::Uuid::parse_str(text).unwrap().as_bytes());
        assert_eq!(uuid_text(&bytes), text);
        for other in [
            "2F1C7A3E-4B5D-4E6F-8A9B-0C1D2E3F4A5B",
            "2f1c7a3e4b5d4e6f8a9b0c1d2e3f4a5b",
            "2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5",
            "2f1c7a3e-4b5d-4e6f-8a9b_0c1d2e3f4a5b",
            "2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5g",
            "",
        ] {
            assert_eq!(canonical_uuid(other), None, "{other}");
        }
    }

    #[test]
    fn damaged_records_are_refused_not_misread() {
        let mut w = Writer::new(7, 8);
        w.str("abc");
        let bytes = w.finish();
        assert!(Reader::new(&bytes, 8).is_err(), "another format");
        let mut short = Reader::new(&bytes[..3], 7).unwrap();
        assert!(short.str().is_err(), "cut off");
        let mut r = Reader::new(&bytes, 7).unwrap();
        r.u8().unwrap();
        assert!(r.end().is_err(), "bytes left over");
        assert!(is_json(b"{\"id\":1}") && !is_json(&bytes));
    }
}
