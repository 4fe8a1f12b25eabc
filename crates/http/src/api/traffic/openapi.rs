//! The OpenAPI descriptions of the traffic log's routes (`/workbench/api/traffic`,
//! `/workbench/api/journeys`; `api::workbench::routes` lists them): operator credential, tag Traffic. The
//! gate's definition is the workbench's.

use super::handlers::{JourneyEntries, Page, WholeEntry};
use crate::api::openapi::builder::{Operation, Param};
use serde_json::json;
use xs2a_workbench::traffic::model::Journey;
use xs2a_workbench::traffic::store::TrafficSettings;

/// The filters of a page of the timeline.
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

/// `GET /workbench/api/traffic`.
pub fn get_traffic(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("A page of the timeline, newest first")
        .operator()
        .params(FILTERS)
        .answers::<Page>(200, "The page")
        .refusals(&[400, 401])
}

/// `DELETE /workbench/api/traffic`.
pub fn delete_traffic(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
                .summary("Clear the log")
                .description("Removes every entry, the files that hold them and the journeys they make, on disk before it answers; the entry numbers go on (never reused). What the entries changed goes with them: the sandbox can no longer rewind to before the clear. Then `traffic.cleared` on the workbench's events.")
                .operator()
                .answers::<xs2a_workbench::traffic::TrafficCleared>(200, "What was removed")
                .refusals(&[401])
}

/// `GET /workbench/api/traffic/stream`.
pub fn get_traffic_stream(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
                .summary("New entries as Server-Sent Events")
                .description("Each event: `id: <entry id>`, `event: entry`, `data: <Entry as JSON>`; after the kept entries since Last-Event-ID (or ?lastEventId=) when resuming.")
                .operator()
                .answers_with(
                    200,
                    "An event stream",
                    "text/event-stream",
                    crate::api::openapi::builder::sse_event("An Entry as JSON"),
                )
                .refusals(&[401])
}

/// `GET /workbench/api/traffic/settings`.
pub fn get_traffic_settings(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("The log's switch and caps")
        .operator()
        .answers::<TrafficSettings>(200, "The settings")
        .refusals(&[401])
}

/// `PUT /workbench/api/traffic/settings`.
pub fn put_traffic_settings(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("The log's switch and caps")
        .operator()
        .body::<TrafficSettings>(true)
        .refusals(&[400, 413, 415])
        .answers::<TrafficSettings>(200, "The settings")
        .refusals(&[401])
}

/// `GET /workbench/api/traffic/{id}`.
pub fn get_traffic_id(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("One entry whole")
        .operator()
        .answers::<WholeEntry>(200, "The exchange (headers, bodies, gate verdict) or event")
        .refusals(&[400, 401, 404])
}

/// `GET /workbench/api/traffic/{id}/har`.
pub fn get_traffic_id_har(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("An exchange as a HAR 1.2 entry")
        .operator()
        .answers_with(
            200,
            "A HAR entry",
            "application/json",
            json!({"$ref": "#/components/schemas/HarEntry"}),
        )
        .refusals(&[400, 401, 404])
}

/// `GET /workbench/api/journeys`.
pub fn get_journeys(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("The journeys, most recently active first")
        .operator()
        .params(&[Param::query("limit", "integer", "At most this many.")])
        .answers_list::<Journey>(200, "The journeys")
        .refusals(&[400, 401])
}

/// `GET /workbench/api/journeys/{id}`.
pub fn get_journeys_id(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
        .summary("One journey's entries in time order")
        .operator()
        .answers::<JourneyEntries>(200, "The journey")
        .refusals(&[401, 404])
}
