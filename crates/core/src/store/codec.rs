//! The one binary encoding of stored records: payments (`payments::codec`), account transactions and payment
//! bookings (`sandbox::transaction_codec`, `sandbox::booking_blocks`), the traffic log's exchanges and
//! segments (`traffic::codec`, `traffic::segment`) and the change journal (`store::journal::codec`). It
//! holds the primitives — a [`Writer`] and a [`Reader`] — and the rule for changing a format; each codec
//! keeps only its record's layout (which fields, in which order) and calls them.
//!
//! Why binary and not JSON: records are many (a batch run writes hundreds of thousands) or hold other
//! records' bytes (the journal, the traffic log's bodies), and JSON's names and escaping made them two to
//! four times larger, which decided whether a run's writes stayed in sled's page cache.
//!
//! # The primitives
//!
//! Fields follow one another with no names and no alignment, in the order the record's layout gives.
//! Every data directory a release wrote holds these bytes: they never change (module tests pin them).
//!
//! | Primitive | Bytes |
//! |---|---|
//! | unsigned number (`u64`, lengths, counts) | LEB128: 7 bits a byte, lowest first, the high bit set on every byte but the last; at most 10 bytes |
//! | signed number (`i64`) | zigzag (0, -1, 1, -2, … as 0, 1, 2, 3, …), then LEB128 |
//! | byte, boolean | one byte; a boolean is 0 or 1 |
//! | bytes, text | the length, then the bytes (text: UTF-8) |
//! | option | 0; or 1, then the value |
//! | optional boolean | 0 none, 1 false, 2 true |
//! | list | the count, then each item |
//! | identifier | 0 and a canonical UUID's 16 bytes (lower-case hyphenated text only), or 1 and the text |
//! | date | its Julian day, signed |
//! | instant | seconds since 1970 (signed), nanoseconds, UTC offset in seconds (signed) |
//! | instant, fixed (the traffic log's) | nanoseconds since 1970 as 16 bytes, little-endian; UTC offset in seconds (signed) |
//! | decimal | the mantissa, zigzag and LEB128 of up to 128 bits (19 bytes), then the scale as one byte |
//! | currency; country | the ISO code's 3; 2 ASCII letters (no country: `--`) |
//!
//! A [`Reader`] refuses with a reason — it never panics, and never reserves memory a damaged count asks
//! for — whatever a [`Writer`] does not write: a record cut short, a number longer than its type, a length
//! past the record's end, text that is not UTF-8, a flag other than 0 or 1, bytes left over.
//!
//! # Format versions
//!
//! The rule, once (docs/data-directory.md tells the procedure and its tests):
//!
//! - **Every stored record starts with a byte that names its layout**: a version byte (1, 2, …; never `{`)
//!   for the binary layouts, `{` for the JSON that versions before them wrote ([`is_json`]). A reader keeps
//!   reading every layout its tree may still hold.
//! - **A change of what a tree holds or how it is encoded is a format change of the data directory**: the
//!   record's layout takes the next version byte, and `crate::bank::migrations::MIGRATIONS` gains an entry
//!   making the next data format (`format.json`, `store::format`; 2 today), whose migration — a function
//!   beside the codec — rewrites the tree on a copy of the directory (usually `Migrating::reencode`: read
//!   with `from_stored`, which takes the older layout, store with `to_stored`). A newer app migrates an older
//!   directory at start, all or nothing, keeping it as it was beside it (`DIR.before-<version>`); an older
//!   app refuses a newer directory before writing a byte. The change journal is emptied by a migration (its
//!   records hold bytes in the older layouts).
//! - **Not a format change**: a new tree whose absence means empty (the change journal came so); and a
//!   layout change the code handles in both directions where the tree opens, without a migration (the
//!   journal's index; the traffic log's records of earlier versions, carried into segments at the first
//!   open).
//! - **A primitive above never changes**: every tree that uses it would change format at once.
//! - **Every release's directory must still open**: `fixtures/data-dirs/<version>/` is stored once per
//!   release and never regenerated; `tests/api/data_dirs.rs` opens each with the current build.

mod reader;
mod writer;

pub use reader::Reader;
pub use writer::Writer;

/// Why stored bytes could not be read back.
pub type DecodeError = String;

/// True when `bytes` hold a JSON record (written before the binary form of its tree existed).
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

#[cfg(test)]
mod tests;
