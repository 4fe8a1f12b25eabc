//! The gate's first step, before any header is interpreted: every header it reads is sent at most once
//! (with two Signature headers, which one counts would be a guess), and every missing one is named in
//! one answer that says how to make them, so a developer fixes all of them in one go. The steps that do
//! not read a missing header still run after it (`signing::verifier`).

use super::headers::HeaderSource;
use crate::domain::refusal::{Category, Code, Refusal, TppMessage};

/// The headers every signed request carries.
pub const REQUIRED: [&str; 4] = [
    "X-Request-ID",
    "Date",
    "TPP-Signature-Certificate",
    "Signature",
];

/// The headers the gate and the signing string read as one value each.
pub const SINGLETONS: [&str; 9] = [
    "X-Request-ID",
    "Date",
    "TPP-Signature-Certificate",
    "Signature",
    "Digest",
    "PSU-ID",
    "PSU-Corporate-ID",
    "TPP-Redirect-URI",
    "TPP-Session-ID",
];

/// How to make the signing headers, said wherever one is missing.
const HOW_TO_SIGN: &str = "`xs2a-sandbox sign --cert-dir DIR --url URL` prints them for curl \
    (`xs2a-sandbox cert issue` makes a certificate; fixtures/certs holds test ones; see the README's \
    walkthrough).";

/// Names, in one refusal, every singleton header sent more than once (FORMAT_ERROR) and every missing
/// required header, Digest included on a request with a body (HTTP_HEADER_REQUIRED): the first at fault
/// in the refusal itself, each further one in a message of its own (one problem, one ERROR).
pub fn check(headers: &(impl HeaderSource + ?Sized), has_body: bool) -> Result<(), Refusal> {
    let mut problems: Vec<Refusal> = SINGLETONS
        .into_iter()
        .filter_map(|name| {
            let count = headers.count(name);
            (count > 1).then(|| {
                Refusal::format(
                    name,
                    format!(
                        "{name} was sent {count} times; it must be sent once (which one would count is \
                         not defined, so none does)."
                    ),
                )
            })
        })
        .collect();
    let mut missing: Vec<&str> = REQUIRED
        .into_iter()
        .filter(|name| !headers.has(name))
        .collect();
    if has_body && !headers.has("Digest") {
        missing.push("Digest");
    }
    if let Some(first) = missing.first() {
        let text = match missing.as_slice() {
            ["Digest"] => "The header Digest is required on a request with a body: \
                 SHA-256=<base64 of the SHA-256 of the body bytes>."
                .to_owned(),
            [one] => format!("The header {one} is required on every /v1 request. {HOW_TO_SIGN}"),
            several => format!(
                "The request is not signed: it lacks {}. Every /v1 request carries X-Request-ID, Date, \
                 TPP-Signature-Certificate and Signature (and Digest when it has a body). {HOW_TO_SIGN}",
                several.join(", ")
            ),
        };
        let further = missing.iter().skip(1).map(|name| TppMessage {
            category: Category::Error,
            code: Code::HttpHeaderRequired,
            path: Some((*name).to_owned()),
            text: Some(format!("The header {name} is missing too.")),
        });
        problems
            .push(Refusal::new(Code::HttpHeaderRequired, Some(first), text).with_messages(further));
    }
    let mut problems = problems.into_iter();
    match problems.next() {
        None => Ok(()),
        Some(first) => Err(first.with_messages(problems.flat_map(|p| p.messages()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signing::headers::HeaderList;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderList {
        HeaderList::from_pairs(pairs.iter().copied())
    }

    #[test]
    fn every_missing_header_is_named_in_one_refusal() {
        let error = check(&HeaderList::default(), true).unwrap_err();
        assert_eq!(error.code, Code::HttpHeaderRequired);
        assert_eq!(error.path.as_deref(), Some("X-Request-ID"));
        for name in ["Date", "TPP-Signature-Certificate", "Signature", "Digest"] {
            assert!(error.text.contains(name), "{}", error.text);
            assert!(error.more.iter().any(|m| m.path.as_deref() == Some(name)));
        }
        assert!(error.text.contains("xs2a-sandbox sign"), "{}", error.text);
    }

    #[test]
    fn a_singleton_sent_twice_is_refused_by_name() {
        let twice = headers(&[("signature", "a"), ("signature", "b")]);
        let error = check(&twice, false).unwrap_err();
        assert_eq!(
            (error.code, error.path.as_deref()),
            (Code::FormatError, Some("Signature"))
        );
        let once = headers(&[
            ("x-request-id", "1"),
            ("date", "d"),
            ("tpp-signature-certificate", "c"),
            ("signature", "s"),
        ]);
        assert!(check(&once, false).is_ok());
    }
}
