//! The first two steps: the signing headers are there, each once and readable, and the Date is within
//! the window around the sandbox clock.

use super::run::Run;
use super::{RequestToVerify, Times, MAX_CLOCK_SKEW};
use crate::domain::refusal::{Code, Refusal};
use crate::domain::tolerance::Tolerance;
use crate::signing::headers::{visible_ascii, HeaderSource};
use crate::signing::steps::Step;
use crate::signing::{http_date, required_headers, signature_header};
use std::borrow::Cow;

/// Why a signing header cannot be read: the steps that need it are not checked, and say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unavailable {
    pub header: &'static str,
    why: Why,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    Missing,
    SentMoreThanOnce,
    NotText,
}

impl Unavailable {
    /// Whether the header was not sent at all.
    pub fn is_missing(self) -> bool {
        self.why == Why::Missing
    }

    /// Completes "could not be checked because …".
    pub fn reason(self) -> String {
        let header = self.header;
        match self.why {
            Why::Missing => format!("{header} is missing"),
            Why::SentMoreThanOnce => format!("{header} was sent more than once"),
            Why::NotText => format!("{header} could not be read as text"),
        }
    }
}

/// A signing header's value as text, or why there is none.
pub(super) type Sent<T> = Result<T, Unavailable>;

/// The signing headers as the first step found them.
pub(super) struct SigningHeaders<'r> {
    pub date: Sent<&'r str>,
    pub certificate: Sent<&'r str>,
    /// Owned when the header carried raw non-ASCII bytes that had to be decoded.
    pub signature: Sent<Cow<'r, str>>,
    /// Set when the request has a body and its Digest is missing or sent more than once.
    pub digest: Option<Unavailable>,
    /// Every signing header that cannot be read (a signing string listing one cannot be built).
    pub unavailable: Vec<Unavailable>,
}

impl SigningHeaders<'_> {
    /// The unreadable signing header a signed-header list names, if one.
    pub fn unavailable_among(&self, listed: &[String]) -> Option<Unavailable> {
        self.unavailable.iter().copied().find(|u| {
            listed
                .iter()
                .any(|name| name.eq_ignore_ascii_case(u.header))
        })
    }
}

/// Each signing header sent once, every missing one named at once, each readable as text (a Signature
/// with raw non-ASCII bytes is read, with a warning), and a Digest when there is a body. The headers that
/// could be read are handed on whatever the verdict, so that the steps that do not need a missing one
/// still run.
pub(super) fn required_headers<'r>(
    request: &RequestToVerify<'r>,
    run: &mut Run,
) -> (SigningHeaders<'r>, Result<(), Refusal>) {
    let headers = request.headers;
    let has_body = !request.body.is_empty();
    let mut problems: Vec<Refusal> = required_headers::check(headers, has_body)
        .err()
        .into_iter()
        .collect();
    let mut unavailable = Vec::new();
    let mut text = |name: &'static str, problems: &mut Vec<Refusal>| -> Sent<&'r str> {
        let value = sent_once(headers, name).inspect_err(|u| unavailable.push(*u))?;
        visible_ascii(value).ok_or_else(|| {
            problems.push(not_text(name, value));
            let unreadable = Unavailable {
                header: name,
                why: Why::NotText,
            };
            unavailable.push(unreadable);
            unreadable
        })
    };
    let _ = text("X-Request-ID", &mut problems);
    let date = text("Date", &mut problems);
    let certificate = text("TPP-Signature-Certificate", &mut problems);
    let signature = match sent_once(headers, "Signature") {
        Err(u) => {
            unavailable.push(u);
            Err(u)
        }
        Ok(raw) => match visible_ascii(raw) {
            Some(value) => Ok(Cow::Borrowed(value)),
            None => match raw_signature(raw, run) {
                Ok(text) => Ok(Cow::Owned(text)),
                Err(refusal) => {
                    problems.push(refusal);
                    let u = Unavailable {
                        header: "Signature",
                        why: Why::NotText,
                    };
                    unavailable.push(u);
                    Err(u)
                }
            },
        },
    };
    let digest = match sent_once(headers, "Digest") {
        Err(u) if u.why == Why::SentMoreThanOnce || has_body => {
            unavailable.push(u);
            Some(u)
        }
        _ => None,
    };
    let mut problems = problems.into_iter();
    let verdict = match problems.next() {
        Some(first) => Err(first.with_messages(problems.flat_map(|p| p.messages()))),
        None => {
            run.pass(Step::RequiredHeaders, || {
                "X-Request-ID, Date, TPP-Signature-Certificate and Signature are present"
            });
            Ok(())
        }
    };
    let sent = SigningHeaders {
        date,
        certificate,
        signature,
        digest,
        unavailable,
    };
    (sent, verdict)
}

/// The one value of a header, or why there is none.
fn sent_once<'r>(headers: &'r (dyn HeaderSource + Sync), name: &'static str) -> Sent<&'r [u8]> {
    let why = match headers.count(name) {
        1 => return Ok(headers.first(name).expect("counted once")),
        0 => Why::Missing,
        _ => Why::SentMoreThanOnce,
    };
    Err(Unavailable { header: name, why })
}

/// A signing header whose bytes are not text. A certificate sent as raw DER is the usual cause there.
fn not_text(name: &str, value: &[u8]) -> Refusal {
    if name == "TPP-Signature-Certificate" {
        return Refusal::format(name, crate::signing::certificate_hints::raw_bytes(value));
    }
    Refusal::format(
        name,
        format!("{name} holds bytes that are not visible ASCII; RFC 2047-wrap non-ASCII values"),
    )
}

/// A Signature header with raw non-ASCII bytes, read as the bank platform's signing proxy means them
/// (with a warning); control characters are refused.
fn raw_signature(raw: &[u8], run: &mut Run) -> Result<String, Refusal> {
    const NAME: &str = "Signature";
    let Some((text, charset)) = signature_header::decode_raw_octets(raw) else {
        return Err(Refusal::format(
            NAME,
            format!("{NAME} holds control characters"),
        ));
    };
    run.tolerate(Tolerance::RawSignatureBytes, NAME, format!("The Signature header carries raw non-ASCII bytes (as the bank platform's signing proxy sends an issuer such as L=Tromsø in keyId); the sandbox read them as {charset}. The interface asks for the RFC 2047 wrapper (=?utf-8?B?...?=) around such a value, and production may refuse raw bytes."));
    Ok(text)
}

/// The Date header within [`MAX_CLOCK_SKEW`] of the sandbox clock, or of the machine's when a trainer
/// has moved the clock (TPP apps sign with their own machine's time).
pub(super) fn date(value: &str, times: Times, run: &mut Run) -> Result<(), Refusal> {
    let sent = http_date::parse(value).map_err(|reason| Refusal::format("Date", reason))?;
    let skew = sent - times.now;
    let machine_skew = sent - times.machine;
    if skew.abs() > MAX_CLOCK_SKEW && machine_skew.abs() > MAX_CLOCK_SKEW {
        let direction = if skew.is_positive() {
            "ahead of"
        } else {
            "behind"
        };
        return Err(Refusal::new(
            Code::BadRequest,
            Some("Date"),
            format!(
                "Date is {} s {direction} the sandbox clock ({}); at most 60 s are allowed. \
                 If you moved the sandbox clock, sign with its time (GET /v1/sandbox/clock).",
                skew.whole_seconds().abs(),
                http_date::format(times.now)
            ),
        ));
    }
    run.pass(Step::Date, || {
        format!("{} s from the sandbox clock", skew.whole_seconds())
    });
    Ok(())
}
