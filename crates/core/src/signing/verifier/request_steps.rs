//! The first two steps: the signing headers are there, each once and readable, and the Date is within
//! the window around the sandbox clock.

use super::run::Run;
use super::{RequestToVerify, Times, MAX_CLOCK_SKEW};
use crate::refusal::{Code, Refusal};
use crate::signing::headers::visible_ascii;
use crate::signing::steps::Step;
use crate::signing::{http_date, required_headers, signature_header};
use crate::tolerance::Tolerance;
use std::borrow::Cow;

/// The signing headers' values, read as text.
pub(super) struct SigningHeaders<'r> {
    pub date: &'r str,
    pub certificate: &'r str,
    /// Owned when the header carried raw non-ASCII bytes that had to be decoded.
    pub signature: Cow<'r, str>,
}

/// Each signing header sent once, every missing one named at once, each readable as text (a Signature
/// with raw non-ASCII bytes is read, with a warning), and a Digest when there is a body.
pub(super) fn required_headers<'r>(
    request: &RequestToVerify<'r>,
    run: &mut Run,
) -> Result<SigningHeaders<'r>, Refusal> {
    let headers = request.headers;
    let has_body = !request.body.is_empty();
    required_headers::check(headers, has_body)?;
    let text = |name: &str| {
        let value = headers
            .first(name)
            .ok_or_else(|| Refusal::header_required(name))?;
        visible_ascii(value).ok_or_else(|| {
            Refusal::format(
                name,
                format!(
                    "{name} holds bytes that are not visible ASCII; RFC 2047-wrap non-ASCII values"
                ),
            )
        })
    };
    text("X-Request-ID")?;
    let date = text("Date")?;
    let certificate = text("TPP-Signature-Certificate")?;
    let raw = headers
        .first("Signature")
        .ok_or_else(|| Refusal::header_required("Signature"))?;
    let signature = match visible_ascii(raw) {
        Some(value) => Cow::Borrowed(value),
        None => Cow::Owned(raw_signature(raw, run)?),
    };
    if has_body && !headers.has("digest") {
        return Err(Refusal::new(
            Code::HttpHeaderRequired,
            Some("Digest"),
            "The header Digest is required on a request with a body: SHA-256=<base64 of the SHA-256 of the body bytes>.",
        ));
    }
    run.pass(Step::RequiredHeaders, || {
        "X-Request-ID, Date, TPP-Signature-Certificate and Signature are present"
    });
    Ok(SigningHeaders {
        date,
        certificate,
        signature,
    })
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
