//! The `http` crate's header map seen through the signing rules' own header traits. `http` is the types
//! crate axum and hyper share (no transport, no server); the impl must live beside the traits, as the map
//! is not ours. The gate, the workbench's outbound client, the CLI and the tests all sign and verify it.

use crate::signing::headers::{HeaderSink, HeaderSource};
use http::{HeaderMap, HeaderName, HeaderValue};

impl HeaderSource for HeaderMap {
    fn first(&self, name: &str) -> Option<&[u8]> {
        self.get(name).map(HeaderValue::as_bytes)
    }

    fn each_value(&self, name: &str, each: &mut dyn FnMut(&[u8])) {
        self.get_all(name).iter().for_each(|v| each(v.as_bytes()));
    }

    fn count(&self, name: &str) -> usize {
        self.get_all(name).iter().count()
    }

    fn has(&self, name: &str) -> bool {
        self.contains_key(name)
    }
}

impl HeaderSink for HeaderMap {
    fn set(&mut self, name: &'static str, value: String) {
        // The signer writes only what it generated: dates, base64, UUIDs and RFC 2047-wrapped text.
        let value = HeaderValue::try_from(value).expect("the signer writes visible ASCII");
        self.insert(HeaderName::from_static(name), value);
    }
}
