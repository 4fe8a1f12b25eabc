//! Component schemas of the workbench API that no Rust type derives: the data of each live event (the
//! event stream is text; these say what its `data:` lines hold, so the UI's generated types cover them),
//! an exchange as a HAR 1.2 entry, and the state and flow files (their JSON Schemas in fixtures/schema).

use serde_json::{json, Map, Value};
use xs2a_core::bank::events::EventKind;

const STATE_FILE: &str = include_str!("../../../../../fixtures/schema/state.schema.json");
const FLOW_FILE: &str = include_str!("../../../../../fixtures/schema/flow.schema.json");

/// A file's JSON Schema as a component: its `$schema` and `$id` dropped (the document is the root).
fn file_schema(text: &str) -> Value {
    let mut schema: Value = serde_json::from_str(text).expect("fixtures/schema holds JSON");
    if let Some(map) = schema.as_object_mut() {
        map.remove("$schema");
        map.remove("$id");
    }
    schema
}

fn nullable(kind: &str) -> Value {
    json!({"type": [kind, "null"]})
}

fn object(required: &[&str], properties: Value) -> Value {
    json!({"type": "object", "required": required, "properties": properties})
}

fn event(kind: &str, data: Value) -> Value {
    object(
        &["kind", "at", "data"],
        json!({
            "kind": {"const": kind},
            "at": {"type": "string", "format": "date-time"},
            "data": data,
        }),
    )
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn har_entry() -> Value {
    let pairs = json!({"type": "array", "items": object(&["name", "value"],
        json!({"name": {"type": "string"}, "value": {"type": "string"}}))});
    json!({
        "description": "One HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/).",
        "type": "object",
        "required": ["startedDateTime", "time", "request", "response", "cache", "timings"],
        "properties": {
            "startedDateTime": {"type": "string", "format": "date-time"},
            "time": {"type": "number"},
            "request": object(&["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"], json!({
                "method": {"type": "string"},
                "url": {"type": "string"},
                "httpVersion": {"type": "string"},
                "cookies": {"type": "array", "items": {"type": "object"}},
                "headers": pairs,
                "queryString": pairs,
                "headersSize": {"type": "integer"},
                "bodySize": {"type": "integer"},
                "postData": object(&["mimeType", "text"], json!({
                    "mimeType": {"type": "string"},
                    "text": {"type": "string"},
                    "encoding": {"const": "base64"},
                })),
            })),
            "response": object(&["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"], json!({
                "status": {"type": "integer"},
                "statusText": {"type": "string"},
                "httpVersion": {"type": "string"},
                "cookies": {"type": "array", "items": {"type": "object"}},
                "headers": pairs,
                "content": object(&["size", "mimeType", "text"], json!({
                    "size": {"type": "integer"},
                    "mimeType": {"type": "string"},
                    "text": {"type": "string"},
                    "encoding": {"const": "base64"},
                })),
                "redirectURL": {"type": "string"},
                "headersSize": {"type": "integer"},
                "bodySize": {"type": "integer"},
            })),
            "cache": {"type": "object"},
            "timings": object(&["send", "wait", "receive"], json!({
                "send": {"type": "number"}, "wait": {"type": "number"}, "receive": {"type": "number"},
            })),
            "_xs2aExchangeId": {"type": "integer", "description": "The traffic entry's id."},
        }
    })
}

/// The components, by name.
pub fn components() -> Map<String, Value> {
    let status = reference("PaymentStatus");
    let payment_status = object(
        &["paymentId"],
        json!({
            "paymentId": {"type": "string"},
            "transactionStatus": {"type": "string", "description": "The status after a creation, SCA or deletion."},
            "before": status.clone(), "after": status,
            "reason": nullable("string"),
            "fundsAvailable": nullable("boolean"),
            "batchRunId": nullable("string"),
            "basketId": nullable("string"),
        }),
    );
    let batch_run = object(
        &["id", "at", "trigger", "lastOfDay", "processed", "statuses"],
        json!({
            "id": {"type": "string"},
            "at": {"type": "string", "format": "date-time"},
            "trigger": reference("Trigger"),
            "lastOfDay": {"type": "boolean"},
            "processed": {"type": "integer", "minimum": 0},
            "statuses": {"type": "object", "additionalProperties": {"type": "integer"},
                "description": "How many payments the run left in each status."},
        }),
    );
    let sca_step = object(
        &["authorisationId", "step", "tppId"],
        json!({"authorisationId": {"type": "string"}, "step": {"type": "string"}, "tppId": {"type": "string"}}),
    );
    let sandbox_changed = object(
        &["what"],
        json!({"what": {"type": "string", "enum": ["customers", "accounts", "cardAccounts", "transactions", "agreements", "all"]}}),
    );
    let persona_changed = object(&["id"], json!({"id": {"type": "string"}}));
    let traffic_cleared = object(
        &["removed", "through"],
        json!({"removed": {"type": "integer", "minimum": 0, "description": "How many entries were removed."},
            "through": {"type": "integer", "minimum": 0, "description": "The last entry number given out before the clear; entries after it are new."}}),
    );
    let mut out = Map::new();
    let mut add = |name: &str, schema: Value| {
        out.insert(name.to_owned(), schema);
    };
    add("PaymentStatusEvent", payment_status);
    add("BatchRunEvent", batch_run);
    add("ScaStepEvent", sca_step);
    add("SandboxChangedEvent", sandbox_changed);
    add("PersonaChangedEvent", persona_changed);
    add("TrafficClearedEvent", traffic_cleared);
    // docs/rewind.md: what a workbench request or an import changed, and a rewind.
    add(
        "StateChangeEvent",
        json!({"type": "object", "required": ["what"], "description": "{what: \"workbench\", method, path, status} or {what: \"import\", mode}",
            "properties": {"what": {"type": "string"}}}),
    );
    add(
        "RewindEvent",
        json!({"type": "object", "description": "{to, position, undone, changed}"}),
    );
    // The events, from their one description (`xs2a_core::bank::events::EventKind`).
    let timeline = EventKind::TIMELINE;
    let names: Vec<&str> = timeline.iter().map(|k| k.name()).collect();
    add(
        "TimelineEventData",
        json!({"description": format!("The data of a timeline event, by its `event`: {}.", names.join(", ")),
            "anyOf": timeline.iter().map(|k| reference(k.data_schema())).collect::<Vec<_>>()}),
    );
    add(
        "WorkbenchEvent",
        json!({"description": "One event of GET /workbench/api/events (the JSON of its `data:` line).",
        "oneOf": EventKind::ALL.iter().map(|k| event(k.name(), reference(k.data_schema()))).collect::<Vec<_>>()}),
    );
    add("HarEntry", har_entry());
    add("StateFile", file_schema(STATE_FILE));
    add("FlowFile", file_schema(FLOW_FILE));
    out
}
