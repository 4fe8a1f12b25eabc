//! The binary encoding: every primitive's bytes are pinned (the stored data directories hold them), read
//! back as written, and damaged input is refused with a reason, never a panic.

use super::*;
use crate::domain::{Country, Currency};
use rust_decimal::Decimal;
use std::str::FromStr;
use time::macros::{date, datetime};

/// The bytes `write` appends.
fn bytes_of(write: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::continuing(Vec::new());
    write(&mut w);
    w.finish()
}

#[test]
fn every_primitive_keeps_the_bytes_stored_directories_hold() {
    let cases: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
        ("0", bytes_of(|w| w.u64(0)), vec![0]),
        ("127", bytes_of(|w| w.u64(127)), vec![0x7f]),
        ("128", bytes_of(|w| w.u64(128)), vec![0x80, 1]),
        ("300", bytes_of(|w| w.u64(300)), vec![0xac, 2]),
        ("u64::MAX", bytes_of(|w| w.u64(u64::MAX)), {
            let mut max = vec![0xff; 9];
            max.push(1);
            max
        }),
        ("-1", bytes_of(|w| w.i64(-1)), vec![1]),
        ("1", bytes_of(|w| w.i64(1)), vec![2]),
        ("-5", bytes_of(|w| w.i64(-5)), vec![9]),
        ("bool", bytes_of(|w| w.bool(true)), vec![1]),
        ("text", bytes_of(|w| w.str("ab")), vec![2, b'a', b'b']),
        ("bytes", bytes_of(|w| w.bytes(&[0, 255])), vec![2, 0, 255]),
        ("no text", bytes_of(|w| w.opt_str(None)), vec![0]),
        ("empty text", bytes_of(|w| w.opt_str(Some(""))), vec![1, 0]),
        ("no bool", bytes_of(|w| w.opt_bool(None)), vec![0]),
        ("false", bytes_of(|w| w.opt_bool(Some(false))), vec![1]),
        ("true", bytes_of(|w| w.opt_bool(Some(true))), vec![2]),
        (
            "uuid",
            bytes_of(|w| w.id("00010203-0405-0607-0809-0a0b0c0d0e0f")),
            (0..=16).map(|b: u8| b.saturating_sub(1)).collect(),
        ),
        ("text id", bytes_of(|w| w.id("x")), vec![1, 1, b'x']),
        (
            "some id",
            bytes_of(|w| w.opt_id(Some("x"))),
            vec![1, 1, 1, b'x'],
        ),
        (
            "list",
            bytes_of(|w| w.list(&[1u64, 300], |w, n| w.u64(*n))),
            vec![2, 1, 0xac, 2],
        ),
        (
            "date",
            bytes_of(|w| w.date(date!(1970 - 01 - 01))),
            vec![0x98, 0xf6, 0xa9, 2],
        ),
        (
            "instant",
            bytes_of(|w| w.instant(datetime!(1970-01-01 01:00:01.5 +01:00))),
            vec![2, 0x80, 0xca, 0xb5, 0xee, 1, 0xa0, 0x38],
        ),
        (
            "fixed instant",
            bytes_of(|w| w.instant_fixed(datetime!(1970-01-01 01:00:01.5 +01:00))),
            vec![
                0, 47, 104, 89, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xa0, 0x38,
            ],
        ),
        (
            "decimal",
            bytes_of(|w| w.decimal(Decimal::from_str("-125.50").unwrap())),
            vec![0x8b, 0xc4, 1, 2],
        ),
        (
            "currency",
            bytes_of(|w| w.currency(Currency::NOK)),
            b"NOK".to_vec(),
        ),
        (
            "country",
            bytes_of(|w| w.opt_country(Some(Country::NO))),
            b"NO".to_vec(),
        ),
        (
            "no country",
            bytes_of(|w| w.opt_country(None)),
            b"--".to_vec(),
        ),
        ("format byte", Writer::new(7, 1).finish(), vec![7]),
    ];
    for (what, written, stored) in cases {
        assert_eq!(written, stored, "{what}");
    }
}

#[test]
fn every_field_reads_back_as_written() {
    let mut w = Writer::new(7, 64);
    w.u64(300);
    w.u64(u64::MAX);
    w.i64(-5);
    w.i64(i64::MIN);
    w.bool(true);
    w.bytes(&[0, 1, 255]);
    w.str("Ærlig talt €");
    w.opt_str(None);
    w.id("2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
    w.id("run-000000000012");
    w.id("2F1C7A3E-4B5D-4E6F-8A9B-0C1D2E3F4A5B");
    w.id_ref(IdRef::of("2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b"));
    w.opt_id(Some("x"));
    w.date(date!(2026 - 02 - 28));
    w.opt_date(None);
    w.instant(datetime!(2026-06-01 12:00:00.123456789 +02:00));
    w.opt_instant(Some(datetime!(1969-12-31 23:59:59.5 UTC)));
    w.instant_fixed(datetime!(2026-11-22 10:00:00.123456789 +01:00));
    w.decimal(Decimal::from_str("-125.50").unwrap());
    w.decimal(Decimal::from_str("12345678901234.56789").unwrap());
    w.decimal(Decimal::MAX);
    w.decimal(Decimal::MIN);
    w.currency(Currency::NOK);
    w.opt_country(Some(Country::NO));
    w.opt_country(None);
    w.opt_bool(Some(false));
    w.option(Some(4u8), Writer::u8);
    w.list(&[1u64, 2, 3], |w, n| w.u64(*n));
    w.raw(&[9, 9]);
    let bytes = w.finish();

    let mut r = Reader::new(&bytes, 7).unwrap();
    assert_eq!(r.u64().unwrap(), 300);
    assert_eq!(r.u64().unwrap(), u64::MAX);
    assert_eq!(r.i64().unwrap(), -5);
    assert_eq!(r.i64().unwrap(), i64::MIN);
    assert!(r.bool().unwrap());
    assert_eq!(r.bytes().unwrap(), [0, 1, 255]);
    assert_eq!(r.str().unwrap(), "Ærlig talt €");
    assert_eq!(r.opt_str().unwrap(), None);
    assert_eq!(r.id().unwrap(), "2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
    assert_eq!(r.id().unwrap(), "run-000000000012");
    assert_eq!(
        r.id().unwrap(),
        "2F1C7A3E-4B5D-4E6F-8A9B-0C1D2E3F4A5B",
        "a non-canonical UUID stays as it was written"
    );
    assert_eq!(r.id().unwrap(), "2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
    assert_eq!(r.opt_id().unwrap().as_deref(), Some("x"));
    assert_eq!(r.date().unwrap(), date!(2026 - 02 - 28));
    assert_eq!(r.opt_date().unwrap(), None);
    let instant = r.instant().unwrap();
    assert_eq!(instant, datetime!(2026-06-01 12:00:00.123456789 +02:00));
    assert_eq!(instant.offset().whole_hours(), 2, "the offset is kept");
    assert_eq!(
        r.opt_instant().unwrap(),
        Some(datetime!(1969-12-31 23:59:59.5 UTC))
    );
    let fixed = r.instant_fixed().unwrap();
    assert_eq!(fixed, datetime!(2026-11-22 10:00:00.123456789 +01:00));
    assert_eq!(fixed.offset().whole_hours(), 1, "the offset is kept");
    let amount = r.decimal().unwrap();
    assert_eq!(amount.to_string(), "-125.50", "the scale is kept");
    assert_eq!(r.decimal().unwrap().to_string(), "12345678901234.56789");
    assert_eq!(r.decimal().unwrap(), Decimal::MAX);
    assert_eq!(r.decimal().unwrap(), Decimal::MIN);
    assert_eq!(r.currency().unwrap(), Currency::NOK);
    assert_eq!(r.opt_country().unwrap(), Some(Country::NO));
    assert_eq!(r.opt_country().unwrap(), None);
    assert_eq!(r.opt_bool().unwrap(), Some(false));
    assert_eq!(r.option(Reader::u8).unwrap(), Some(4));
    assert_eq!(r.list(Reader::u64).unwrap(), [1, 2, 3]);
    assert_eq!(r.array::<2>().unwrap(), [9, 9]);
    assert_eq!(r.left(), 0);
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
fn a_number_longer_than_its_type_is_refused_not_truncated() {
    // Eleven bytes: a continuation bit on the tenth.
    let mut eleven = vec![0x80; 10];
    eleven.push(0);
    let error = Reader::of(&eleven).u64().unwrap_err();
    assert!(error.contains("longer than 64 bits"), "{error}");
    // Ten bytes whose last holds more than the 64th bit.
    let mut wide = vec![0xff; 9];
    wide.push(0x02);
    let error = Reader::of(&wide).u64().unwrap_err();
    assert!(error.contains("longer than 64 bits"), "{error}");
    // A mantissa of more than 128 bits.
    let mut mantissa = vec![0xff; 18];
    mantissa.extend([0x04, 2]);
    let error = Reader::of(&mantissa).decimal().unwrap_err();
    assert!(error.contains("longer than 128 bits"), "{error}");
    let error = Reader::of(&[0xff; 40]).decimal().unwrap_err();
    assert!(error.contains("longer than 128 bits"), "{error}");
    // The widest of each reads.
    assert_eq!(
        Reader::of(&bytes_of(|w| w.u64(u64::MAX))).u64().unwrap(),
        u64::MAX
    );
}

#[test]
fn damaged_records_are_refused_not_misread() {
    let mut w = Writer::new(7, 8);
    w.str("abc");
    let bytes = w.finish();
    assert!(Reader::new(&bytes, 8).is_err(), "another format");
    assert!(Reader::new(&[], 7).is_err(), "nothing");
    let error = Reader::new(&bytes[..3], 7).unwrap().str().unwrap_err();
    assert!(error.contains("runs past"), "cut off: {error}");
    let mut r = Reader::new(&bytes, 7).unwrap();
    r.u8().unwrap();
    assert!(r.end().unwrap_err().contains("3 bytes left"), "left over");
    assert!(is_json(b"{\"id\":1}") && !is_json(&bytes));
    let error = Reader::of(&[2, 0xff, 0xfe]).str().unwrap_err();
    assert!(error.contains("not UTF-8"), "{error}");
    assert!(Reader::of(&[2]).bool().is_err(), "a flag of 2");
    assert!(Reader::of(&[2]).option(Reader::u8).is_err());
    assert!(Reader::of(&[3]).opt_bool().is_err());
    assert!(Reader::of(&[2]).id().is_err());
    assert!(Reader::of(b"XYZ").currency().is_err());
    assert!(Reader::of(b"N").opt_country().is_err());
    // A count far beyond the record reserves nothing and stops at the record's end.
    let huge = bytes_of(|w| w.u64(u64::MAX));
    assert!(Reader::of(&huge).list(Reader::u8).is_err());
    assert!(Reader::of(&huge).bytes().is_err());
    // An instant beyond the range of dates, in seconds or in its offset.
    let far = bytes_of(|w| {
        w.i64(i64::MAX);
        w.u64(0);
        w.i64(0);
    });
    assert!(Reader::of(&far).instant().is_err());
    let edge = bytes_of(|w| {
        w.instant(time::PrimitiveDateTime::MAX.assume_utc());
    });
    let mut shifted = edge[..edge.len() - 1].to_vec();
    shifted.extend(bytes_of(|w| w.i64(3600)));
    assert!(
        Reader::of(&shifted).instant().is_err(),
        "past the last date"
    );
}

#[test]
fn every_cut_of_a_record_is_an_error_never_a_panic() {
    let mut w = Writer::new(1, 64);
    w.id("2f1c7a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
    w.str("Ærlig");
    w.instant(datetime!(2026-06-01 12:00:00.5 +02:00));
    w.instant_fixed(datetime!(2026-06-01 12:00:00.5 +02:00));
    w.decimal(Decimal::from_str("-125.50").unwrap());
    w.list(&["a", "bc"], |w, s| w.str(s));
    w.opt_country(Some(Country::NO));
    let bytes = w.finish();
    let read = |bytes: &[u8]| -> Result<(), DecodeError> {
        let mut r = Reader::new(bytes, 1)?;
        r.id()?;
        r.str()?;
        r.instant()?;
        r.instant_fixed()?;
        r.decimal()?;
        r.list(Reader::str)?;
        r.opt_country()?;
        r.end()
    };
    read(&bytes).unwrap();
    for cut in 0..bytes.len() {
        assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    // Noise: any bytes at all give a record or a reason.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        let noise: Vec<u8> = (0..seed % 48)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        let _ = read(&noise);
        let _ = read(&[&[1u8][..], &noise].concat());
    }
}
