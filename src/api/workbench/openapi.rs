//! The workbench API (`/workbench/api`, operator credential) and the workbench's own pages in the OpenAPI
//! document. The mock-data and control endpoints are served there too, under `/workbench/api/sandbox/...`
//! with the operator credential in place of a signature (documented once, under `/v1/sandbox`).

use super::composer::{self, draft, operations};
use super::fixtures::ImportOutcome;
use super::session::Session;
use crate::api::openapi::builder::{Document, Param};
use crate::workbench::callbacks::Callback;
use crate::workbench::personas::{IssueRequest, Persona, PersonaPatch};
use crate::workbench::snapshots::Summary;
use serde_json::json;

const API: &str = "/workbench/api";

/// A state or flow file: its JSON Schema's component (`schemas`).
fn file(schema: &str) -> serde_json::Value {
    match schema {
        "fixtures/schema/flow.schema.json" => json!({"$ref": "#/components/schemas/FlowFile"}),
        _ => json!({"$ref": "#/components/schemas/StateFile"}),
    }
}

/// Every workbench route.
pub fn describe(doc: &mut Document) {
    describe_session_and_personas(doc);
    describe_composer(doc);
    describe_fixtures(doc);
    crate::api::traffic::openapi::describe(doc);
    super::rewind::describe(doc);
    crate::api::rehearsal::openapi::describe(doc);
    describe_gate(doc);
    crate::api::openapi::routes::Routes::new()
        .nest("/workbench/api", crate::api::sandbox::workbench())
        .describe_into(doc);
    super::conformance::describe(doc);
    describe_pages(doc);
}

/// The gate's definition: served by the workbench, listed with the traffic (the inspector shows it).
fn describe_gate(doc: &mut Document) {
    doc.op(
        "GET",
        "/workbench/api/gate",
        "Traffic",
        "The request gate's steps, and the headers it requires and signs",
    )
    .description("From the verifier's own definitions: the steps in the order they run, each with the rule it checks, the header it reads and the codes its refusals carry.")
    .operator()
    .answers::<super::gate::GateDefinition>(200, "The gate")
    .refusals(&[401])
    .finish();
}

fn op<'d>(
    doc: &'d mut Document,
    method: &str,
    path: &str,
    summary: &str,
) -> crate::api::openapi::builder::Operation<'d> {
    doc.op(method, &format!("{API}{path}"), "Workbench", summary)
        .operator()
        .refusals(&[401])
}

fn describe_session_and_personas(doc: &mut Document) {
    op(
        doc,
        "GET",
        "/session",
        "The service's base URL, mode and data directory",
    )
    .answers::<Session>(200, "The session")
    .finish();
    op(
        doc,
        "GET",
        "/events",
        "The sandbox's events as Server-Sent Events (resumable)",
    )
    .description("Each event: `id: <n>`, `event: <kind>`, `data: <WorkbenchEvent as JSON>` (the component `WorkbenchEvent` says what each kind carries). Resumable with Last-Event-ID or ?lastEventId=.")
    .answers_with(
        200,
        "An event stream of WorkbenchEvent",
        "text/event-stream",
        crate::api::openapi::builder::sse_event("A WorkbenchEvent as JSON"),
    )
    .finish();
    op(
        doc,
        "GET",
        "/personas",
        "The TPP personas (certificates the workbench signs with)",
    )
    .answers_list::<Persona>(200, "The personas")
    .finish();
    op(doc, "POST", "/personas", "Issue a persona from the test CA")
        .body::<IssueRequest>(true)
        .answers::<Persona>(201, "Issued")
        .refusals(&[400, 409, 413, 415])
        .finish();
    op(
        doc,
        "POST",
        "/personas/import",
        "Import a persona from a certificate and key",
    )
    .body::<super::personas::ImportRequest>(true)
    .answers::<Persona>(201, "Imported")
    .refusals(&[400, 409, 413, 415])
    .finish();
    op(
        doc,
        "PATCH",
        "/personas/{id}",
        "Rename or re-colour a persona",
    )
    .body::<PersonaPatch>(true)
    .answers::<Persona>(200, "Changed")
    .refusals(&[400, 404, 413, 415])
    .finish();
    op(doc, "DELETE", "/personas/{id}", "Remove a persona")
        .empty(204, "Removed")
        .refusals(&[404, 409])
        .finish();
    op(
        doc,
        "GET",
        "/personas/{id}/certificate",
        "A persona's certificate (never its key)",
    )
    .answers_with(
        200,
        "PEM",
        "application/x-pem-file",
        json!({"type": "string"}),
    )
    .refusals(&[404])
    .finish();
    op(
        doc,
        "GET",
        "/sca/callbacks",
        "The SCA redirects the workbench's callback caught",
    )
    .answers_list::<Callback>(200, "Newest first")
    .finish();
    op(
        doc,
        "GET",
        "/sca/pending",
        "The SCAs not finished yet (the SCA screen's list)",
    )
    .description("Every authorisation whose PSU has not completed, cancelled or failed it and whose 30 minutes have not run out, newest first.")
    .answers_list::<crate::workbench::sca_pending::PendingSca>(200, "Newest first")
    .finish();
}

fn describe_composer(doc: &mut Document) {
    op(
        doc,
        "GET",
        "/operations",
        "Every request form the composer offers",
    )
    .answers_list::<operations::Operation>(200, "The catalogue")
    .finish();
    op(
        doc,
        "POST",
        "/compose/preview",
        "A draft as it would be sent now: headers, signing string",
    )
    .body::<draft::Draft>(true)
    .answers::<draft::Prepared>(200, "The prepared request")
    .refusals(&[400, 404, 413, 415])
    .finish();
    op(
        doc,
        "POST",
        "/compose/send",
        "Sign a draft now, send it over the port, keep it in the history",
    )
    .body::<draft::Draft>(true)
    .answers::<composer::Sent>(200, "The request sent and its answer")
    .refusals(&[400, 404, 413, 415])
    .finish();
    op(
        doc,
        "GET",
        "/compose/history",
        "The sent requests, newest first",
    )
    .answers_list::<composer::HistoryLine>(200, "The history")
    .finish();
    op(
        doc,
        "GET",
        "/compose/history/{id}",
        "One sent request whole",
    )
    .answers::<composer::Sent>(200, "The request sent and its answer")
    .refusals(&[404])
    .finish();
    op(
        doc,
        "POST",
        "/compose/export",
        "A draft as a curl command or a script that signs at run time",
    )
    .body::<composer::export::ExportRequest>(true)
    .answers::<composer::export::ExportText>(200, "The text")
    .refusals(&[400, 404, 413, 415])
    .finish();
}

/// The flow exports' `state`: the name the state file was saved under, for the flow's `state` field.
const STATE_QUERY: Param = Param::query(
    "state",
    "string",
    "The file name (or path relative to the flow file) the state file this flow starts from was saved under; written into the flow's `state` (default: the snapshot's download name, `<name>.json`).",
);

fn describe_fixtures(doc: &mut Document) {
    op(
        doc,
        "GET",
        "/state",
        "The whole state as a state file (docs/fixtures.md)",
    )
    .answers_with(
        200,
        "A state file",
        "application/json",
        file("fixtures/schema/state.schema.json"),
    )
    .finish();
    op(
        doc,
        "POST",
        "/state",
        "Import a state file: replace or merge, or preview the change",
    )
    .params(&[
        Param::query("mode", "enum:replace|merge", "replace (default) or merge."),
        Param::query("preview", "boolean", "Only say what would change."),
    ])
    .raw_body(
        "application/json",
        file("fixtures/schema/state.schema.json"),
    )
    .answers::<ImportOutcome>(200, "What changed (or would)")
    .refusals(&[400, 409, 413, 415])
    .finish();
    op(
        doc,
        "GET",
        "/journeys/{id}/flow",
        "A journey of the traffic log as a flow file",
    )
    .params(&[STATE_QUERY])
    .answers_with(
        200,
        "A flow file",
        "application/json",
        file("fixtures/schema/flow.schema.json"),
    )
    .refusals(&[404])
    .finish();
    op(doc, "GET", "/snapshots", "The named snapshots")
        .answers_list::<Summary>(200, "The snapshots")
        .finish();
    op(
        doc,
        "PUT",
        "/snapshots/{name}",
        "Take a snapshot of the whole state now",
    )
    .answers::<Summary>(201, "Taken (one of the same name is replaced)")
    .refusals(&[400, 409])
    .finish();
    op(doc, "GET", "/snapshots/{name}", "A snapshot's state file")
        .answers_with(
            200,
            "A state file",
            "application/json",
            file("fixtures/schema/state.schema.json"),
        )
        .refusals(&[404])
        .finish();
    op(doc, "DELETE", "/snapshots/{name}", "Delete a snapshot")
        .empty(204, "Deleted")
        .refusals(&[404])
        .finish();
    op(
        doc,
        "POST",
        "/snapshots/{name}/restore",
        "Restore the state a snapshot holds",
    )
    .answers::<ImportOutcome>(200, "Restored")
    .refusals(&[404])
    .finish();
    op(
        doc,
        "GET",
        "/snapshots/{name}/flow",
        "Every exchange since the snapshot, as a flow file",
    )
    .params(&[STATE_QUERY])
    .answers_with(
        200,
        "A flow file",
        "application/json",
        file("fixtures/schema/flow.schema.json"),
    )
    .refusals(&[404])
    .finish();
}

/// The workbench's pages and the bank's SCA pages (HTML for people, not for TPP code).
fn describe_pages(doc: &mut Document) {
    let html = json!({"type": "string"});
    doc.op("GET", "/workbench", "Workbench", "Redirects to /workbench/")
        .empty(308, "To /workbench/ (the query kept)")
        .finish();
    doc.op("GET", "/workbench/", "Workbench", "The workbench UI")
        .answers_with(200, "The page", "text/html", html.clone())
        .finish();
    doc.op(
        "GET",
        "/workbench/{file}",
        "Workbench",
        "The workbench UI's files",
    )
    .answers_with(200, "A file", "application/octet-stream", json!({}))
    .refusals(&[404])
    .finish();
    doc.op(
        "GET",
        "/workbench/callback",
        "Workbench",
        "Catches the bank's redirect after SCA",
    )
    .answers_with(
        200,
        "A page saying what came back",
        "text/html",
        html.clone(),
    )
    .finish();
    doc.op(
        "GET",
        "/sca/{id}",
        "SCA pages",
        "The bank's SCA page at the authorisation's step",
    )
    .params(&[Param::query("lang", "enum:nb|en", "Page language.")])
    .answers_with(200, "The page", "text/html", html.clone())
    .answers_with(404, "No such authorisation", "text/html", html.clone())
    .answers_with(410, "Expired or finished", "text/html", html.clone())
    .finish();
    for step in [
        "identify", "method", "context", "consent", "confirm", "cancel",
    ] {
        doc.op(
            "POST",
            &format!("/sca/{{id}}/{step}"),
            "SCA pages",
            &format!("The PSU's {step} step (form post)"),
        )
        .raw_body(
            "application/x-www-form-urlencoded",
            json!({"type": "object"}),
        )
        .empty(
            303,
            "To the next page, or back to the TPP-Redirect-URI when finished",
        )
        .answers_with(
            200,
            "The page again with what to correct",
            "text/html",
            html.clone(),
        )
        .answers_with(
            400,
            "The page again with what to correct",
            "text/html",
            html.clone(),
        )
        .answers_with(404, "No such authorisation", "text/html", html.clone())
        .answers_with(409, "Not at this step", "text/html", html.clone())
        .answers_with(410, "Expired or finished", "text/html", html.clone())
        .finish();
        doc.op(
            "GET",
            &format!("/sca/{{id}}/{step}"),
            "SCA pages",
            "Back to the page (after a reload)",
        )
        .empty(303, "To /sca/{id}")
        .finish();
    }
}
