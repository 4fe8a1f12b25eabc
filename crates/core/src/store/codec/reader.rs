//! The reading half of the binary encoding: each primitive back, or why the bytes are not one.

use super::{uuid_text, DecodeError};
use crate::domain::{Country, Currency};
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime, UtcOffset};

/// Reads a record back, field by field in the order it was written.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader after the record's first byte, which must be `format` (the layout's version).
    pub fn new(bytes: &'a [u8], format: u8) -> Result<Reader<'a>, DecodeError> {
        match bytes.first() {
            Some(&first) if first == format => Ok(Reader { bytes, at: 1 }),
            Some(&other) => Err(format!("unknown record format {other}")),
            None => Err("an empty record".to_owned()),
        }
    }

    /// A reader from the first byte (a record whose layout reads its version byte itself, or a part).
    pub fn of(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// How many bytes are left to read.
    pub fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Ends the record: every byte must have been read.
    pub fn end(self) -> Result<(), DecodeError> {
        match self.left() {
            0 => Ok(()),
            left => Err(format!("{left} bytes left after the record")),
        }
    }

    /// The next `n` bytes as they are.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if n > self.left() {
            return Err(format!(
                "the record ends early (at byte {})",
                self.bytes.len()
            ));
        }
        let taken = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(taken)
    }

    /// The next `N` bytes, a field of fixed size.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
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

    /// The one varint (LEB128), of a number of at most `bits` bits: a longer one is refused, not
    /// truncated (no writer makes one).
    fn varint(&mut self, bits: u32) -> Result<u128, DecodeError> {
        let start = self.at;
        let mut value = 0u128;
        let mut shift = 0;
        loop {
            let byte = self.u8()?;
            let chunk = u128::from(byte & 0x7f);
            if shift + 7 > bits && chunk >> (bits - shift) != 0 {
                return Err(format!(
                    "the number at byte {start} is longer than {bits} bits"
                ));
            }
            value |= chunk << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
            if shift >= bits {
                return Err(format!(
                    "the number at byte {start} is longer than {bits} bits"
                ));
            }
        }
    }

    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(self.varint(64)? as u64)
    }

    /// A number that is a count or an index in memory.
    pub fn usize(&mut self) -> Result<usize, DecodeError> {
        usize::try_from(self.u64()?).map_err(|_| "a count beyond this machine's".to_owned())
    }

    pub fn i64(&mut self) -> Result<i64, DecodeError> {
        let zigzag = self.u64()?;
        Ok((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
    }

    fn i128(&mut self) -> Result<i128, DecodeError> {
        let zigzag = self.varint(128)?;
        Ok((zigzag >> 1) as i128 ^ -((zigzag & 1) as i128))
    }

    /// Length-prefixed bytes, borrowed from the record.
    pub fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let at = self.at;
        let len = self.usize()?;
        if len > self.left() {
            return Err(format!(
                "a length of {len} at byte {at} runs past the record's end ({} bytes left)",
                self.left()
            ));
        }
        self.take(len)
    }

    /// Length-prefixed text, borrowed from the record.
    pub fn text(&mut self) -> Result<&'a str, DecodeError> {
        let at = self.at;
        std::str::from_utf8(self.bytes()?)
            .map_err(|_| format!("the text at byte {at} is not UTF-8"))
    }

    pub fn str(&mut self) -> Result<String, DecodeError> {
        self.text().map(str::to_owned)
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
        let offset = self.offset()?;
        let utc = OffsetDateTime::from_unix_timestamp(seconds)
            .and_then(|t| t.replace_nanosecond(nanos))
            .map_err(|e| format!("an instant out of range: {e}"))?;
        in_offset(utc, offset)
    }

    pub fn opt_instant(&mut self) -> Result<Option<OffsetDateTime>, DecodeError> {
        self.option(Reader::instant)
    }

    /// An instant in the traffic log's form ([`super::Writer::instant_fixed`]).
    pub fn instant_fixed(&mut self) -> Result<OffsetDateTime, DecodeError> {
        let nanos = i128::from_le_bytes(self.array()?);
        let offset = self.offset()?;
        let utc = OffsetDateTime::from_unix_timestamp_nanos(nanos)
            .map_err(|e| format!("an instant out of range: {e}"))?;
        in_offset(utc, offset)
    }

    fn offset(&mut self) -> Result<UtcOffset, DecodeError> {
        let seconds = i32::try_from(self.i64()?).map_err(|_| "an offset out of range")?;
        UtcOffset::from_whole_seconds(seconds).map_err(|e| e.to_string())
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
        // Items take a byte or more each, and longer lists grow as they are read: a damaged count cannot
        // make us reserve more than the bytes left, nor more than a few pages' worth of items.
        let mut items = Vec::with_capacity(count.min(self.left()).min(4096));
        for _ in 0..count {
            items.push(read(self)?);
        }
        Ok(items)
    }
}

/// `utc` seen at `offset`; refused, not a panic, when that leaves the range of dates.
fn in_offset(utc: OffsetDateTime, offset: UtcOffset) -> Result<OffsetDateTime, DecodeError> {
    utc.checked_to_offset(offset)
        .ok_or_else(|| "an instant out of range in its offset".to_owned())
}
