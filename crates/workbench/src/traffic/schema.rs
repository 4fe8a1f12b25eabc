//! The OpenAPI schemas of the traffic model's fields that are text or JSON in Rust but have a known shape
//! on the wire (docs/traffic-api.md): the closed sets of words as enums, and an event's data as the union
//! of the events the timeline records. The workbench's TypeScript types are generated from them.

use serde_json::{json, Value};
use utoipa::openapi::{RefOr, Schema};
use xs2a_core::bank::events::EventKind;

fn schema(value: Value) -> RefOr<Schema> {
    serde_json::from_value(value).expect("a valid schema")
}

fn words(values: &[&str], description: &str) -> RefOr<Schema> {
    schema(json!({"type": "string", "enum": values, "description": description}))
}

/// `ExchangeSummary.area`.
pub fn area() -> RefOr<Schema> {
    words(
        &["bank", "sandbox", "sca-page", "other"],
        "/v1 (not /v1/sandbox), /v1/sandbox, /sca, else.",
    )
}

/// `ExchangeSummary.source`.
pub fn source() -> RefOr<Schema> {
    words(
        &["composer", "external"],
        "The workbench's composer, or any other client.",
    )
}

/// `GateStep.outcome`.
pub fn gate_outcome() -> RefOr<Schema> {
    words(&["passed", "failed", "warning", "skipped"], "")
}

/// `Resource.kind`.
pub fn resource_kind() -> RefOr<Schema> {
    words(
        &[
            "consent",
            "payment",
            "basket",
            "authorisation",
            "session",
            "batch-run",
            "account",
            "customer",
        ],
        "",
    )
}

/// `Journey.kind`.
pub fn journey_kind() -> RefOr<Schema> {
    words(&["consent", "payment", "basket", "user-lookup"], "")
}

/// `EventEntry.event`: the events the timeline records.
pub fn timeline_event() -> RefOr<Schema> {
    let names: Vec<&str> = EventKind::TIMELINE.iter().map(|k| k.name()).collect();
    words(
        &names,
        "state.change: a change of the sandbox's state by the workbench or an import (its writes are the \
         entry's state changes); rewind: the sandbox returned to the state at another entry.",
    )
}

/// `EventEntry.data`: one of the timeline events' data (the component the workbench's OpenAPI
/// document adds, `TimelineEventData`).
pub fn timeline_event_data() -> RefOr<Schema> {
    schema(json!({"$ref": "#/components/schemas/TimelineEventData"}))
}

/// `Exchange.tppMessages`: the answer's messages as it gave them.
pub fn tpp_messages() -> RefOr<Schema> {
    schema(json!({"type": "array", "items": {"$ref": "#/components/schemas/TppMessage"}}))
}
