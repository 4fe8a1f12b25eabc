//! Checks an answer against the service's OpenAPI document: the path and method are documented, the
//! status is one the operation declares, and a JSON body validates against the declared schema. The test
//! helpers call it for every answer they read, so the whole API suite keeps the document honest.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The validators compiled so far, by (path template, method, status, media type).
type Compiled = HashMap<(String, String, String, String), std::sync::Arc<jsonschema::Validator>>;

fn document() -> &'static Value {
    xs2a_http::api::openapi::document()
}

/// The documented path template a concrete path is served by, preferring literal segments.
pub fn template_for(path: &str) -> Option<&'static str> {
    xs2a_http::api::openapi::template_for(&normalise(path))
}

/// The platform prefix serves the `/v1` operations. (The workbench's copies of the sandbox endpoints are
/// in the document under their own paths.)
fn normalise(path: &str) -> String {
    let path = path.split('?').next().unwrap_or("");
    if let Some(rest) = path.strip_prefix("/api-sandbox/v1") {
        return format!("/v1{rest}");
    }
    path.to_owned()
}

fn resolve(value: &Value) -> &Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(pointer) => document()
            .pointer(pointer.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("OpenAPI: dangling $ref {pointer}")),
        None => value,
    }
}

/// Panics with a readable message when the answer does not match the document.
pub fn check(method: &str, path: &str, status: u16, content_type: Option<&str>, body: &[u8]) {
    check_encoded(method, path, status, content_type, body, false)
}

/// [`check`] for a body that may be content-encoded (gzip): then only the status and media type are
/// checked.
pub fn check_encoded(
    method: &str,
    path: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
    encoded: bool,
) {
    let method = method.to_ascii_lowercase();
    if method == "options" || method == "head" {
        return; // CORS preflights and HEAD are the HTTP layer's, not operations
    }
    let operation =
        template_for(path).and_then(|t| Some((t, document()["paths"][t].get(&method)?)));
    let (template, response) = match operation {
        Some((template, operation)) => {
            let Some(response) = operation["responses"].get(status.to_string()) else {
                panic!(
                    "OpenAPI: {} {path} ({template}) answered {status}, which the document does not \
                     declare; declared: {:?}\nbody: {}",
                    method.to_uppercase(),
                    operation["responses"].as_object().map(|r| r.keys().collect::<Vec<_>>()),
                    String::from_utf8_lossy(body)
                );
            };
            (template, resolve(response))
        }
        // An undocumented path or method may only be refused, with the common error body.
        None if matches!(status, 400 | 401 | 404 | 405 | 408 | 413 | 431) => (
            "(refused)",
            &document()["components"]["responses"][format!("Refused{status}")],
        ),
        None => panic!(
            "OpenAPI: {} {path} answered {status} but is not in the document",
            method.to_uppercase()
        ),
    };
    // The HTTP layer's own refusals beyond its hard limits are bare (no body, no media type).
    if body.is_empty() && content_type.is_none() && matches!(status, 408 | 413 | 431) {
        return;
    }
    let Some(content) = response.get("content").and_then(Value::as_object) else {
        assert!(
            body.is_empty() || encoded,
            "OpenAPI: {} {template} {status} declares no body but one came: {}",
            method.to_uppercase(),
            String::from_utf8_lossy(body)
        );
        return;
    };
    let media = content_type
        .and_then(|c| c.split(';').next())
        .map(str::trim)
        .unwrap_or("");
    let Some(declared) = content.get(media) else {
        panic!(
            "OpenAPI: {} {template} {status} answered Content-Type '{media}', declared {:?}",
            method.to_uppercase(),
            content.keys().collect::<Vec<_>>()
        );
    };
    if media != "application/json" || encoded {
        return;
    }
    let instance: Value = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "OpenAPI: {} {template} {status}: the body is not JSON ({e})",
            method.to_uppercase()
        )
    });
    let validator = validator(template, &method, status, media, &declared["schema"]);
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("at {}: {}", e.instance_path(), e))
        .collect();
    assert!(
        errors.is_empty(),
        "OpenAPI: {} {path} ({template}) {status} does not match the document:\n  {}\nbody: {}",
        method.to_uppercase(),
        errors.join("\n  "),
        serde_json::to_string_pretty(&instance).unwrap_or_default()
    );
}

fn validator(
    template: &str,
    method: &str,
    status: u16,
    media: &str,
    schema: &Value,
) -> std::sync::Arc<jsonschema::Validator> {
    static COMPILED: OnceLock<Mutex<Compiled>> = OnceLock::new();
    let key = (
        template.to_owned(),
        method.to_owned(),
        status.to_string(),
        media.to_owned(),
    );
    let mut compiled = COMPILED.get_or_init(Default::default).lock().unwrap();
    compiled
        .entry(key)
        .or_insert_with(|| {
            // The schema refers to `#/components/schemas/...`: compile it with the components beside it.
            let root = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "components": document()["components"],
                "allOf": [schema],
            });
            std::sync::Arc::new(jsonschema::validator_for(&root).unwrap_or_else(|e| {
                panic!("OpenAPI: the schema of {template} does not compile: {e}")
            }))
        })
        .clone()
}

/// Checks a request body that the service accepted (2xx) against the operation's documented request
/// body: a client generated from the document must be able to send what the service takes.
pub fn check_accepted_request(method: &str, path: &str, status: u16, body: &[u8]) {
    if !(200..300).contains(&status) || body.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    let method = method.to_ascii_lowercase();
    let Some(template) = template_for(path) else {
        return;
    };
    let Some(schema) = document()["paths"][template][&method]
        .pointer("/requestBody/content/application~1json/schema")
    else {
        return;
    };
    let Ok(instance) = serde_json::from_slice::<Value>(body) else {
        return;
    };
    let validator = validator(template, &method, 0, "request", schema);
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("at {}: {}", e.instance_path(), e))
        .collect();
    assert!(
        errors.is_empty(),
        "OpenAPI: {} {path} ({template}) accepted a request body the document does not allow:\n  {}\nbody: {}",
        method.to_uppercase(),
        errors.join("\n  "),
        serde_json::to_string_pretty(&instance).unwrap_or_default()
    );
}
