//! The signing string: one `name: value` line per signed header, in the order of the Signature header's
//! `headers` part, joined by newlines. `(request-target)` is the lower-case method, a space, and the path
//! with its query, exactly as sent.

use super::headers::HeaderSource;

/// The pseudo-header naming the request line.
pub const REQUEST_TARGET: &str = "(request-target)";

/// Builds the signing string for a request, or names the listed header the request does not carry.
pub fn build(
    names: &[String],
    method: &str,
    path_and_query: &str,
    headers: &(impl HeaderSource + ?Sized),
) -> Result<String, String> {
    let mut text = String::with_capacity(64 * names.len());
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            text.push('\n');
        }
        let lower = name.to_ascii_lowercase();
        if lower == REQUEST_TARGET {
            text.push_str(REQUEST_TARGET);
            text.push_str(": ");
            text.push_str(&method.to_ascii_lowercase());
            text.push(' ');
            text.push_str(path_and_query);
            continue;
        }
        text.push_str(&lower);
        text.push_str(": ");
        // draft-cavage: several instances of one header are joined with ", ".
        let mut values = 0;
        headers.each_value(&lower, &mut |value| {
            if values > 0 {
                text.push_str(", ");
            }
            push_header_text(&mut text, value);
            values += 1;
        });
        if values == 0 {
            return Err(format!(
                "the Signature header lists '{lower}' among the signed headers, but the request has no {lower} header"
            ));
        }
    }
    Ok(text)
}

/// Appends a header value as text: UTF-8 when it is, otherwise ISO-8859-1 (one character per byte), so
/// that a non-ASCII value signs as what the client sent instead of silently becoming empty.
fn push_header_text(text: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(value) => text.push_str(value),
        Err(_) => text.extend(bytes.iter().map(|&b| char::from(b))),
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
    fn lines_follow_the_listed_order_with_lower_case_names() {
        let map = headers(&[
            ("Date", "Sun, 22 Nov 2026 10:00:00 GMT"),
            ("X-Request-ID", "r1"),
        ]);
        let names = vec![
            "x-request-id".into(),
            "(request-target)".into(),
            "Date".into(),
        ];
        let text = build(&names, "GET", "/v1/sandbox/customers?a=1", &map).unwrap();
        assert_eq!(
            text,
            "x-request-id: r1\n(request-target): get /v1/sandbox/customers?a=1\ndate: Sun, 22 Nov 2026 10:00:00 GMT"
        );
    }

    #[test]
    fn a_listed_header_the_request_lacks_is_named() {
        let error = build(&["psu-id".into()], "GET", "/", &HeaderList::default()).unwrap_err();
        assert!(error.contains("psu-id"));
    }
}
