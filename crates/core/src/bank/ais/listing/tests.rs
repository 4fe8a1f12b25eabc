//! Tests of the listing rules: each refusal's status, code and parameter, the defaults, the window of a
//! page and the 90-day floor at its boundary.

use super::*;
use time::macros::date;

fn listing(pairs: &[(&str, &str)]) -> CoreResult<TransactionListing> {
    let sent: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(name, value)| (name.to_string(), (*value).into()))
        .collect();
    TransactionListing::parse(&serde_json::from_value(sent.into()).unwrap())
}

fn refused(pairs: &[(&str, &str)]) -> (u16, Code, String) {
    let refusal = listing(pairs).unwrap_err();
    (
        refusal.status(),
        refusal.code,
        refusal.path.unwrap_or_default(),
    )
}

#[test]
fn booking_status_is_required_and_closed() {
    assert_eq!(
        refused(&[]),
        (400, Code::QueryParameterRequired, "bookingStatus".into())
    );
    assert_eq!(
        refused(&[("bookingStatus", " ")]),
        (400, Code::QueryParameterRequired, "bookingStatus".into())
    );
    assert_eq!(
        refused(&[("bookingStatus", "information")]),
        (400, Code::FormatError, "bookingStatus".into())
    );
    let all = BookingStatus::parse(Some("all")).unwrap();
    assert_eq!(all.as_str(), "all", "kept as sent, for the paging links");
    assert!(all.wants_booked() && all.wants_pending());
    assert!(!BookingStatus::Booked.wants_pending() && !BookingStatus::Pending.wants_booked());
}

#[test]
fn a_booking_status_in_another_case_is_named_in_the_refusal() {
    let refusal = listing(&[("BookingStatus", "booked")]).unwrap_err();
    assert_eq!(refusal.code, Code::QueryParameterRequired);
    assert!(
        refusal.text.contains("'BookingStatus' was sent"),
        "{}",
        refusal.text
    );
}

#[test]
fn refusals_name_their_parameter_with_400_format_error() {
    let cases: [(&[(&str, &str)], &str); 7] = [
        (&[("bookingStatus", "booked"), ("limit", "0")], "limit"),
        (&[("bookingStatus", "booked"), ("limit", "x")], "limit"),
        (
            &[("bookingStatus", "booked"), ("limit", "2147483648")],
            "limit",
        ),
        (&[("bookingStatus", "booked"), ("offset", "-1")], "offset"),
        (
            &[("bookingStatus", "booked"), ("dateFrom", "1.1.2026")],
            "dateFrom",
        ),
        (
            &[("bookingStatus", "booked"), ("dateTo", "2026-02-30")],
            "dateTo",
        ),
        (
            &[
                ("bookingStatus", "booked"),
                ("dateFrom", "2026-02-02"),
                ("dateTo", "2026-02-01"),
            ],
            "dateFrom",
        ),
    ];
    for (pairs, path) in cases {
        assert_eq!(
            refused(pairs),
            (400, Code::FormatError, path.to_owned()),
            "{pairs:?}"
        );
    }
}

#[test]
fn defaults_and_a_one_day_range() {
    let l = listing(&[("bookingStatus", "booked")]).unwrap();
    assert_eq!((l.limit, l.offset, l.from, l.to), (200, 0, None, None));
    let day = listing(&[
        ("bookingStatus", "both"),
        ("dateFrom", "2026-02-01"),
        ("dateTo", "2026-02-01"),
        ("offset", "0"),
    ])
    .unwrap();
    assert!(day.includes(date!(2026 - 02 - 01)), "both ends inclusive");
    assert!(!day.includes(date!(2026 - 01 - 31)));
    assert!(!day.includes(date!(2026 - 02 - 02)));
}

#[test]
fn the_window_names_last_next_and_previous() {
    let l = listing(&[("bookingStatus", "booked")]).unwrap();
    let w = l.window(450);
    assert_eq!((w.last, w.next, w.previous), (400, Some(200), None));
    let empty = l.window(0);
    assert_eq!((empty.last, empty.next, empty.previous), (0, None, None));
    let middle = listing(&[("bookingStatus", "both"), ("limit", "10"), ("offset", "15")]).unwrap();
    let w = middle.window(30);
    assert_eq!(
        (w.offset, w.next, w.previous, w.last),
        (15, Some(25), Some(5), 20)
    );
    assert_eq!(middle.window(25).next, None, "nothing follows");
    let near = listing(&[
        ("bookingStatus", "booked"),
        ("limit", "10"),
        ("offset", "3"),
    ])
    .unwrap();
    assert_eq!(near.window(30).previous, Some(0), "never below 0");
    assert_eq!(middle.page((0..30).collect()), (15..25).collect::<Vec<_>>());
}

#[test]
fn history_is_raised_to_the_floor_only_when_earlier() {
    let floor = date!(2026 - 03 - 03);
    let mut open = listing(&[("bookingStatus", "booked")]).unwrap();
    let warning = open.limit_history(Some(floor)).unwrap();
    assert_eq!(
        (warning.code, warning.path.as_deref()),
        (Code::AccessExceeded, Some("dateFrom"))
    );
    assert!(warning.text.unwrap().contains("2026-03-03"));
    assert_eq!(open.from, Some(floor));
    let mut day_before =
        listing(&[("bookingStatus", "booked"), ("dateFrom", "2026-03-02")]).unwrap();
    assert!(day_before.limit_history(Some(floor)).is_some());
    assert_eq!(day_before.from, Some(floor));
    let mut on_the_floor =
        listing(&[("bookingStatus", "booked"), ("dateFrom", "2026-03-03")]).unwrap();
    assert!(on_the_floor.limit_history(Some(floor)).is_none());
    let mut recent = listing(&[("bookingStatus", "booked"), ("dateFrom", "2026-04-01")]).unwrap();
    assert!(recent.limit_history(Some(floor)).is_none());
    assert!(
        recent.limit_history(None).is_none(),
        "the PSU present: no floor"
    );
    assert_eq!(recent.from, Some(date!(2026 - 04 - 01)));
}
