//! The OpenAPI 3.1 document of the whole service: the bank interface, the mock-data and control
//! endpoints, the SCA pages and the workbench API. Each route is declared once, with its description
//! (`routes::Routes`), and the document is made from the same declarations as the router (`api::routes`);
//! the schemas are generated from the typed request and response structs (`utoipa::ToSchema`). Served at `GET /openapi.json` and written by `xs2a-sandbox openapi`.
//! The API test suite checks every answer it sees against this document (tests/api/openapi.rs).

pub mod builder;
pub mod headers;
pub mod routes;

use crate::api::error::ErrorBody;
use builder::Document;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// The statuses a refusal can have, each a `tppMessages` body (docs/reference/errors.md's code table).
const REFUSAL_STATUSES: &[(u16, &str)] = &[
    (400, "Bad request: a header, parameter or body field is missing or wrong, or the signature fails"),
    (401, "The PSU must authenticate (scaRedirect in _links), or the consent or SCA is not valid"),
    (403, "Forbidden: the certificate's role, the product or the consent does not allow this"),
    (404, "No such resource (or not visible to this TPP and PSU)"),
    (405, "The path exists but not with this method"),
    (406, "The Accept header names nothing the service answers"),
    (408, "The body did not arrive in time"),
    (409, "The resource's state does not allow this"),
    (413, "The body is larger than the limit"),
    (415, "The body is not JSON"),
    (429, "Access without the PSU present exceeded the daily limit, or a fault plan's rate limit (Retry-After)"),
    (431, "A header, or the header section, is larger than the limit"),
    (500, "Internal error"),
    (503, "A fault plan's maintenance window (docs/rehearsal.md): Retry-After and a tppMessage naming its end"),
];

/// The document, built once.
pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(build)
}

fn build() -> Value {
    let mut doc = Document::default();
    let error = doc.schema_ref::<ErrorBody>();
    crate::api::routes().add_to_document(&mut doc);
    let (mut paths, mut schemas) = doc.into_parts();
    crate::api::complete_document(&mut paths, &mut schemas);
    let responses: serde_json::Map<String, Value> = REFUSAL_STATUSES
        .iter()
        .map(|(status, text)| {
            (
                format!("Refused{status}"),
                json!({"description": text, "content": {"application/json": {"schema": error}}}),
            )
        })
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "xs2a-sandbox",
            "version": env!("CARGO_PKG_VERSION"),
            "summary": "A local sandbox of a Norwegian bank's PSD2 (XS2A, Berlin Group 1.3) interface",
            "description": DESCRIPTION,
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "http://127.0.0.1:8080", "description": "xs2a-sandbox serve (the default port)"}],
        "tags": [
            {"name": "AIS", "description": "Account information: consents, accounts, balances, transactions"},
            {"name": "PIS", "description": "Payment initiation: payments, their status and authorisation"},
            {"name": "Signing baskets", "description": "Several payments authorised with one SCA"},
            {"name": "Mock data", "description": "Sandbox only: customers, accounts, card accounts, transactions"},
            {"name": "Control", "description": "Sandbox only: initialise, clock, batch runs, settings, SCA automation"},
            {"name": "SCA pages", "description": "The bank's pages the PSU authenticates on (HTML)"},
            {"name": "Workbench", "description": "The desktop workbench's API (operator credential)"},
            {"name": "Traffic", "description": "The exchange log: every request, its gate verdict, journeys"},
            {"name": "Rewind", "description": "What each exchange changed; the state at any exchange, compared, exported, returned to"},
            {"name": "Conformance", "description": "A TPP's traffic graded against the bank's rules (docs/conformance.md)"},
            {"name": "Service", "description": "Health and this document"},
        ],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": responses,
            "securitySchemes": {
                "operator": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The operator token `serve` prints (also accepted as ?token=)."
                }
            }
        }
    })
}

const DESCRIPTION: &str = "Every path under `/v1` is also served under `/api-sandbox/v1` (the bank \
platform's developer kit calls it there), and every request under `/v1` passes the signature gate \
(the signed header set below). The mock-data and control endpoints are also served to the workbench \
under `/workbench/api/sandbox/...` with the operator credential instead of a signature. Refusals are \
`{\"tppMessages\": [...]}` with the status of the README's code table; warnings about what production \
might refuse ride along in `tppMessages` with category WARNING on successful answers.";

/// The documented path template that serves a concrete path (no query), literal segments preferred:
/// `/v1/payments/norwegian-domestic-credit-transfers/3f2…/status` is
/// `/v1/{service}/{product}/{paymentId}/status`. None for a path the document does not have.
pub fn template_for(path: &str) -> Option<&'static str> {
    let wanted: Vec<&str> = path.split('/').collect();
    let mut best: Option<(&'static str, usize)> = None;
    for template in document()["paths"].as_object()?.keys() {
        let parts: Vec<&str> = template.split('/').collect();
        if parts.len() != wanted.len() {
            continue;
        }
        let mut literal = 0;
        let fits = parts.iter().zip(&wanted).all(|(t, w)| {
            if t.starts_with('{') {
                !w.is_empty()
            } else if t == w {
                literal += 1;
                true
            } else {
                false
            }
        });
        if fits && best.is_none_or(|(_, l)| literal > l) {
            best = Some((template.as_str(), literal));
        }
    }
    best.map(|(t, _)| t)
}

/// The document as pretty JSON, as `xs2a-sandbox openapi` writes it.
pub fn to_pretty_json() -> String {
    serde_json::to_string_pretty(document()).expect("the document serialises")
}
