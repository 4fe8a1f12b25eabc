//! Which operation of `/openapi.json` a bank-interface request is, by its operationId, so that a fault
//! rule can name an operation (`match.operation`) instead of a path pattern. Made once from the document's
//! `/v1` paths; a path parameter (`{account-id}`) stands for one segment.

use crate::api::PLATFORM_PREFIX;
use std::sync::OnceLock;

/// One operation: its method, its path's segments, its id.
struct Operation {
    method: String,
    segments: Vec<Segment>,
    id: String,
}

enum Segment {
    Literal(String),
    Parameter,
}

fn operations() -> &'static [Operation] {
    static OPERATIONS: OnceLock<Vec<Operation>> = OnceLock::new();
    OPERATIONS.get_or_init(|| {
        let mut out = Vec::new();
        let Some(paths) = crate::api::openapi::document()["paths"].as_object() else {
            return out;
        };
        for (path, item) in paths.iter().filter(|(p, _)| p.starts_with("/v1/")) {
            let Some(item) = item.as_object() else {
                continue;
            };
            for (method, operation) in item {
                let Some(id) = operation["operationId"].as_str() else {
                    continue;
                };
                out.push(Operation {
                    method: method.to_ascii_uppercase(),
                    segments: segments(path)
                        .map(|s| {
                            if s.starts_with('{') && s.ends_with('}') {
                                Segment::Parameter
                            } else {
                                Segment::Literal(s.to_owned())
                            }
                        })
                        .collect(),
                    id: id.to_owned(),
                });
            }
        }
        // Literal segments before parameters: `/v1/accounts/x` is not taken for `/v1/{service}/x`.
        out.sort_by_key(|o| {
            o.segments
                .iter()
                .map(|s| matches!(s, Segment::Parameter))
                .collect::<Vec<_>>()
        });
        out
    })
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|s| !s.is_empty())
}

/// The operationId of a request to the bank interface (`/v1/...` or its `/api-sandbox/v1/...` form).
pub fn operation_id(method: &str, path: &str) -> Option<&'static str> {
    let path = match path.strip_prefix(PLATFORM_PREFIX) {
        Some(rest) => format!("/v1{rest}"),
        None => path.to_owned(),
    };
    let sent: Vec<&str> = segments(&path).collect();
    operations()
        .iter()
        .find(|o| {
            o.method == method
                && o.segments.len() == sent.len()
                && o.segments.iter().zip(&sent).all(|(s, part)| match s {
                    Segment::Literal(literal) => literal == part,
                    Segment::Parameter => true,
                })
        })
        .map(|o| o.id.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_named_by_their_operation() {
        assert_eq!(operation_id("GET", "/v1/accounts"), Some("get_v1_accounts"));
        let balances = operation_id("GET", "/v1/accounts/abc/balances").unwrap();
        assert!(balances.starts_with("get_v1_accounts_") && balances.ends_with("_balances"));
        assert_eq!(
            operation_id("GET", "/api-sandbox/v1/accounts"),
            Some("get_v1_accounts")
        );
        assert_eq!(operation_id("DELETE", "/v1/accounts"), None);
        assert_eq!(operation_id("GET", "/v1/no/such/thing/here"), None);
    }
}
