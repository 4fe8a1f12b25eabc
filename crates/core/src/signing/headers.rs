//! A request's headers as the signing rules read and write them, without an HTTP library: the transport
//! (`api/` on the server, the CLI's client) implements these for its own header map.

/// Read access to a request's headers. Names are matched without regard to case, as HTTP does.
pub trait HeaderSource {
    /// The first value of the header `name`, as the bytes sent.
    fn first(&self, name: &str) -> Option<&[u8]>;

    /// Calls `each` with every value of the header `name`, in the order sent.
    fn each_value(&self, name: &str, each: &mut dyn FnMut(&[u8]));

    /// How many times the header `name` was sent.
    fn count(&self, name: &str) -> usize {
        let mut count = 0;
        self.each_value(name, &mut |_| count += 1);
        count
    }

    /// Whether the header `name` was sent at all.
    fn has(&self, name: &str) -> bool {
        self.first(name).is_some()
    }
}

/// Write access for the TPP-side signer: it sets Date, Digest, X-Request-ID, the certificate and the
/// Signature header. Values are always visible ASCII (RFC 2047-wrapped where needed).
pub trait HeaderSink: HeaderSource {
    /// Sets the header `name` (lower case) to `value`, replacing any value it had.
    fn set(&mut self, name: &'static str, value: String);
}

/// A header value as text when it is visible ASCII (or tab), the only bytes HTTP lets a value carry
/// as text; `None` otherwise (the same test as the `http` crate's `to_str`).
pub fn visible_ascii(bytes: &[u8]) -> Option<&str> {
    // Folded without an early exit, so that the compiler checks many bytes per instruction: this runs
    // over every signing header (the certificate alone is about 1.4 KB) of every request.
    let visible = bytes.iter().fold(true, |all, &b| {
        all & ((b == b'\t') | (32..127).contains(&b))
    });
    visible.then(|| std::str::from_utf8(bytes).expect("ASCII is UTF-8"))
}

/// A plain list of headers, in the order sent: what tests and tools without a transport use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderList(pub Vec<(String, Vec<u8>)>);

impl HeaderList {
    /// A list from `(name, value)` pairs.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Self(
            pairs
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value.as_bytes().to_vec()))
                .collect(),
        )
    }
}

impl HeaderSource for HeaderList {
    fn first(&self, name: &str) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    fn each_value(&self, name: &str, each: &mut dyn FnMut(&[u8])) {
        self.0
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .for_each(|(_, v)| each(v));
    }
}

impl HeaderSink for HeaderList {
    fn set(&mut self, name: &'static str, value: String) {
        self.0.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.0.push((name.to_owned(), value.into_bytes()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_without_case_and_set_replaces() {
        let mut list = HeaderList::from_pairs([("Date", "a"), ("x-a", "1"), ("X-A", "2")]);
        assert_eq!(list.first("date"), Some(&b"a"[..]));
        assert_eq!(list.count("x-a"), 2);
        list.set("x-a", "3".into());
        assert_eq!(list.count("X-A"), 1);
        assert_eq!(list.first("x-a"), Some(&b"3"[..]));
        assert!(!list.has("digest"));
    }
}
