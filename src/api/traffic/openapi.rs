//! The traffic log's routes (`/workbench/api/traffic`, `/workbench/api/journeys`) in the OpenAPI
//! document (operator credential, tag Traffic); the gate's definition is described by the workbench.

use super::routes::{JourneyEntries, Page, WholeEntry};
use crate::api::openapi::builder::{Document, Param};
use crate::traffic::model::Journey;
use crate::traffic::store::TrafficSettings;
use serde_json::json;

const API: &str = "/workbench/api";

/// The traffic log's routes and the gate's definition.
pub fn describe(doc: &mut Document) {
    const FILTERS: &[Param] = &[
        Param::query("before", "integer", "Entries older than this id (paging)."),
        Param::query("limit", "integer", "Page size (default 200, at most 1000)."),
        Param::query(
            "tpp",
            "string",
            "Only this TPP (organisation id or subject text).",
        ),
        Param::query("psu", "string", "Only this PSU-ID."),
        Param::query("status", "enum:2xx|3xx|4xx|5xx", "Only this status class."),
        Param::query("failed", "boolean", "Only refused exchanges: an error status or a failed gate step, except a 401 that asks for SCA (the start of a journey)."),
        Param::query("resource", "string", "Only entries touching <kind>:<id>."),
        Param::query("journey", "string", "Only this journey."),
        Param::query("q", "string", "Text, in any case, in the method, path, query, code, TPP name, PSU-ID, a named resource's id, or the request or response body as the log keeps it (text bodies, within its caps)."),
        Param::query(
            "kind",
            "enum:exchange|event",
            "Only exchanges or only events.",
        ),
    ];
    doc.op(
        "GET",
        &format!("{API}/traffic"),
        "Traffic",
        "A page of the timeline, newest first",
    )
    .operator()
    .params(FILTERS)
    .answers::<Page>(200, "The page")
    .refusals(&[400, 401])
    .finish();
    doc.op(
        "GET",
        &format!("{API}/traffic/stream"),
        "Traffic",
        "New entries as Server-Sent Events",
    )
    .description("Each event: `id: <entry id>`, `event: entry`, `data: <Entry as JSON>`; after the kept entries since Last-Event-ID (or ?lastEventId=) when resuming.")
    .operator()
    .answers_with(
        200,
        "An event stream",
        "text/event-stream",
        crate::api::openapi::builder::sse_event("An Entry as JSON"),
    )
    .refusals(&[401])
    .finish();
    for method in ["GET", "PUT"] {
        let op = doc
            .op(
                method,
                &format!("{API}/traffic/settings"),
                "Traffic",
                "The log's switch and caps",
            )
            .operator();
        let op = if method == "PUT" {
            op.body::<TrafficSettings>(true).refusals(&[400, 413, 415])
        } else {
            op
        };
        op.answers::<TrafficSettings>(200, "The settings")
            .refusals(&[401])
            .finish();
    }
    doc.op(
        "GET",
        &format!("{API}/traffic/{{id}}"),
        "Traffic",
        "One entry whole",
    )
    .operator()
    .answers::<WholeEntry>(200, "The exchange (headers, bodies, gate verdict) or event")
    .refusals(&[400, 401, 404])
    .finish();
    doc.op(
        "GET",
        &format!("{API}/traffic/{{id}}/har"),
        "Traffic",
        "An exchange as a HAR 1.2 entry",
    )
    .operator()
    .answers_with(
        200,
        "A HAR entry",
        "application/json",
        json!({"$ref": "#/components/schemas/HarEntry"}),
    )
    .refusals(&[400, 401, 404])
    .finish();
    doc.op(
        "GET",
        &format!("{API}/journeys"),
        "Traffic",
        "The journeys, most recently active first",
    )
    .operator()
    .params(&[Param::query("limit", "integer", "At most this many.")])
    .answers_list::<Journey>(200, "The journeys")
    .refusals(&[400, 401])
    .finish();
    doc.op(
        "GET",
        &format!("{API}/journeys/{{id}}"),
        "Traffic",
        "One journey's entries in time order",
    )
    .operator()
    .answers::<JourneyEntries>(200, "The journey")
    .refusals(&[401, 404])
    .finish();
}
