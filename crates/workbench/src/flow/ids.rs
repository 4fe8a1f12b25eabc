//! Carrying ids from earlier answers into later requests: the recorded answer and the live one are read
//! side by side, and wherever the recording had one id (a consent, payment, basket, authorisation id, a
//! psu-id, or a segment of a link) and the live answer has another, later requests get the live one.

use serde_json::Value;

/// Recorded id -> live id, in the order learned.
#[derive(Debug, Default, Clone)]
pub struct IdMap {
    pairs: Vec<(String, String)>,
}

/// Ids are long: short differing tokens (a status, a number) are never taken for one.
const MIN_ID_LEN: usize = 8;

fn looks_like_id_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.ends_with("id") || k == "href" || k == "redirect" || k == "scaredirect"
}

impl IdMap {
    /// Notes that the recording's `recorded` is `live` in this run.
    pub fn learn_pair(&mut self, recorded: &str, live: &str) {
        if recorded == live || recorded.len() < MIN_ID_LEN || live.is_empty() {
            return;
        }
        if self.pairs.iter().any(|(r, _)| r == recorded) {
            return;
        }
        self.pairs.push((recorded.to_owned(), live.to_owned()));
        // Longest first, so that an id is never replaced inside a longer one.
        self.pairs
            .sort_by_key(|pair| std::cmp::Reverse(pair.0.len()));
    }

    /// Learns from a recorded answer body and the live one.
    pub fn learn(&mut self, recorded: &Value, live: &Value) {
        self.walk(None, recorded, live);
    }

    fn walk(&mut self, key: Option<&str>, recorded: &Value, live: &Value) {
        match (recorded, live) {
            (Value::Object(r), Value::Object(l)) => {
                for (k, rv) in r {
                    if let Some(lv) = l.get(k) {
                        self.walk(Some(k), rv, lv);
                    }
                }
            }
            (Value::Array(r), Value::Array(l)) => {
                for (rv, lv) in r.iter().zip(l) {
                    self.walk(key, rv, lv);
                }
            }
            (Value::String(r), Value::String(l))
                if r != l && (key.is_some_and(looks_like_id_key) || r.contains('/')) =>
            {
                self.learn_text(r, l);
            }
            _ => {}
        }
    }

    /// Learns from two texts of the same shape (ids, links): token by token when they split alike.
    pub fn learn_text(&mut self, recorded: &str, live: &str) {
        let split = |s: &str| -> Vec<String> {
            s.split(['/', '?', '&', '=', '#'])
                .map(str::to_owned)
                .collect()
        };
        let (r, l) = (split(recorded), split(live));
        if r.len() == l.len() {
            for (r, l) in r.iter().zip(&l) {
                self.learn_pair(r, l);
            }
        }
    }

    /// `text` with every recorded id replaced by its live one.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (recorded, live) in &self.pairs {
            if out.contains(recorded.as_str()) {
                out = out.replace(recorded.as_str(), live);
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_and_link_segments_are_carried_into_later_text() {
        let mut ids = IdMap::default();
        ids.learn(
            &json!({"paymentId": "rec-payment-1", "transactionStatus": "RCVD",
                    "_links": {"scaRedirect": {"href": "http://h/sca/rec-auth-0001"}}}),
            &json!({"paymentId": "live-payment-1", "transactionStatus": "RCVD",
                    "_links": {"scaRedirect": {"href": "http://h/sca/live-auth-0001"}}}),
        );
        assert_eq!(
            ids.apply("/v1/payments/x/rec-payment-1/authorisations/rec-auth-0001"),
            "/v1/payments/x/live-payment-1/authorisations/live-auth-0001"
        );
    }

    #[test]
    fn short_or_equal_values_are_not_taken_for_ids() {
        let mut ids = IdMap::default();
        ids.learn(&json!({"scaId": "RCVD"}), &json!({"scaId": "ACSC"}));
        ids.learn(
            &json!({"psuId": "same-psu-id"}),
            &json!({"psuId": "same-psu-id"}),
        );
        assert!(ids.is_empty());
    }
}
