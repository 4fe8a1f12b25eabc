//! A request or an answer as the capture hands it over: the header lines copied into one buffer and the
//! body as it was. Copying the headers out at once (one allocation) matters: header values borrowed from
//! the server's read buffer would keep that buffer alive until the log's writer ran, and the server would
//! allocate a fresh one for every request.

use bytes::Bytes;

/// Header lines, in order, packed into one buffer: for each, the name's and the value's length (u16
/// each) followed by their bytes. Names are lower-case, as the HTTP stack gives them.
#[derive(Debug, Clone, Default)]
pub struct HeaderBlock {
    bytes: Vec<u8>,
    count: usize,
}

impl HeaderBlock {
    pub fn with_capacity(bytes: usize) -> Self {
        HeaderBlock {
            bytes: Vec::with_capacity(bytes),
            count: 0,
        }
    }

    /// Adds a header line (a value longer than 64 KiB is cut there: HTTP servers refuse such headers
    /// long before).
    pub fn push(&mut self, name: &str, value: &[u8]) {
        let name = &name.as_bytes()[..name.len().min(u16::MAX as usize)];
        let value = &value[..value.len().min(u16::MAX as usize)];
        self.bytes
            .extend_from_slice(&(name.len() as u16).to_le_bytes());
        self.bytes
            .extend_from_slice(&(value.len() as u16).to_le_bytes());
        self.bytes.extend_from_slice(name);
        self.bytes.extend_from_slice(value);
        self.count += 1;
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The bytes the lines take (names and values, plus four per line), for the log's byte cap.
    pub fn weight(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The lines in order: name and value.
    pub fn iter(&self) -> HeaderLines<'_> {
        HeaderLines(&self.bytes)
    }

    /// The value of the first line named `name` (lower-case).
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.iter()
            .find(|(n, _)| n.as_bytes() == name.as_bytes())
            .map(|(_, v)| v)
    }

    /// The value of the first line named `name`, when it is text.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(|v| std::str::from_utf8(v).ok())
    }
}

/// The lines of a [`HeaderBlock`].
pub struct HeaderLines<'a>(&'a [u8]);

impl<'a> Iterator for HeaderLines<'a> {
    type Item = (&'a str, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.0.len() < 4 {
            return None;
        }
        let name_len = u16::from_le_bytes([self.0[0], self.0[1]]) as usize;
        let value_len = u16::from_le_bytes([self.0[2], self.0[3]]) as usize;
        let rest = &self.0[4..];
        let (name, rest) = rest.split_at(name_len);
        let (value, rest) = rest.split_at(value_len);
        self.0 = rest;
        // Header names are ASCII by HTTP's grammar; a name that is not text cannot have been pushed
        // from a `&str`.
        Some((std::str::from_utf8(name).unwrap_or_default(), value))
    }
}

/// A request or an answer as captured.
#[derive(Debug, Clone, Default)]
pub struct RawMessage {
    pub headers: HeaderBlock,
    /// None when there was no body to keep (an event stream's answer).
    pub body: Option<Bytes>,
}

impl RawMessage {
    pub fn body_bytes(&self) -> usize {
        self.body.as_ref().map_or(0, Bytes::len)
    }

    /// What the message takes for the byte cap: headers and body.
    pub fn weight(&self) -> u64 {
        self.headers.weight() + self.body_bytes() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_in_order_and_by_name() {
        let mut block = HeaderBlock::with_capacity(64);
        block.push("date", b"Sun, 22 Nov 2026 10:00:00 GMT");
        block.push("x-request-id", b"abc");
        block.push("x-request-id", b"second");
        block.push("psu-id", &[0xff, 0x41]);
        assert_eq!(block.len(), 4);
        let lines: Vec<_> = block.iter().collect();
        assert_eq!(lines[0], ("date", &b"Sun, 22 Nov 2026 10:00:00 GMT"[..]));
        assert_eq!(lines[3], ("psu-id", &[0xff, 0x41][..]));
        assert_eq!(block.text("x-request-id"), Some("abc"));
        assert_eq!(block.get("psu-id"), Some(&[0xff, 0x41][..]));
        assert_eq!(block.text("psu-id"), None);
        assert_eq!(block.get("digest"), None);
    }
}
