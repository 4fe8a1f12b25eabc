//! The redirect back to the TPP: query parameters appended to the TPP's redirect URI, percent-encoded.

/// Appends URL-encoded query parameters to a URI that may already have a query.
pub fn with_query(uri: &str, pairs: &[(&str, String)]) -> String {
    // RFC 3986: everything but the unreserved characters is percent-encoded (a space as %20, not '+').
    const QUERY_PART: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    let encode = |text: &str| percent_encoding::utf8_percent_encode(text, QUERY_PART).to_string();
    let encoded = pairs
        .iter()
        .map(|(name, value)| format!("{}={}", encode(name), encode(value)))
        .collect::<Vec<_>>()
        .join("&");
    let (base, fragment) = match uri.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (uri, None),
    };
    let separator = if base.contains('?') { '&' } else { '?' };
    match fragment {
        Some(fragment) => format!("{base}{separator}{encoded}#{fragment}"),
        None => format!("{base}{separator}{encoded}"),
    }
}
