//! The workbench's own API (`/workbench/api`, operator credential): the session and its events, personas,
//! the composer, state files and snapshots, and the gate's definition, each route with its OpenAPI
//! description. The mock-data and control endpoints are served there too, under
//! `/workbench/api/sandbox/...` with the operator credential in place of a signature (documented once,
//! under `/v1/sandbox`: `sandbox::workbench`).

use super::composer::{self, draft, operations};
use super::fixtures::{self, ImportOutcome};
use super::session::{self, Session};
use super::{callback, currencies, gate, personas, verify};
use crate::api::openapi::builder::{Operation, Param};
use crate::api::openapi::routes::Routes;
use serde_json::json;
use xs2a_workbench::own_state::callbacks::Callback;
use xs2a_workbench::own_state::personas::{IssueRequest, Persona, PersonaPatch};
use xs2a_workbench::own_state::snapshots::Summary;

/// The workbench API's own routes (relative to `/workbench/api`), each with its OpenAPI description.
pub(super) fn routes() -> Routes {
    session_and_persona_routes()
        .merge(composer_routes())
        .merge(gate_route())
        .merge(fixture_routes())
}

/// A state or flow file: its JSON Schema's component (`schemas`).
fn file(schema: &str) -> serde_json::Value {
    match schema {
        "fixtures/schema/flow.schema.json" => json!({"$ref": "#/components/schemas/FlowFile"}),
        _ => json!({"$ref": "#/components/schemas/StateFile"}),
    }
}

/// The gate's definition, and its verdict on a pasted request: served by the workbench, listed with the
/// traffic (the inspector shows them).
fn gate_route() -> Routes {
    Routes::new()
        .get("/gate", gate::gate, |op| {
            op.tag("Traffic")
                .summary("The request gate's steps, and the headers it requires and signs")
                .description("From the verifier's own definitions: the steps in the order they run, each with the rule it checks, the header it reads and the codes its refusals carry.")
                .operator()
                .answers::<gate::GateDefinition>(200, "The gate")
                .refusals(&[401])
        })
        .post("/verify", verify::verify, |op| {
            op.tag("Traffic")
                .summary("The gate's verdict on a pasted request (a curl command or a raw HTTP request)")
                .description("What `xs2a-sandbox verify` prints, as the inspector shows a verdict: every step of the gate run on the request the text describes, with the signing string the sandbox computes. Nothing is sent and nothing is logged.")
                .operator()
                .body::<verify::VerifyRequest>(true)
                .answers::<verify::Verified>(200, "The request as read, and the verdict")
                .refusals(&[400, 401, 413, 415])
        })
}

/// A workbench operation: tagged Workbench, under the operator credential.
fn api<'d>(op: Operation<'d>, summary: &str) -> Operation<'d> {
    op.tag("Workbench")
        .summary(summary)
        .operator()
        .refusals(&[401])
}

fn session_and_persona_routes() -> Routes {
    Routes::new()
        .get("/session", session::session, |op| {
            api(op, "The service's base URL, mode and data directory")
                .answers::<Session>(200, "The session")
        })
        .get("/events", session::events, |op| {
            api(op, "The sandbox's events as Server-Sent Events (resumable)")
                .description("Each event: `id: <n>`, `event: <kind>`, `data: <WorkbenchEvent as JSON>` (the component `WorkbenchEvent` says what each kind carries). Resumable with Last-Event-ID or ?lastEventId=.")
                .answers_with(
                    200,
                    "An event stream of WorkbenchEvent",
                    "text/event-stream",
                    crate::api::openapi::builder::sse_event("A WorkbenchEvent as JSON"),
                )
        })
        .get("/currencies", currencies::list, |op| {
            api(op, "The currency codes the sandbox accepts, with their minor units")
                .answers_list::<currencies::CurrencyInfo>(200, "Alphabetically")
        })
        .get("/personas", personas::list, |op| {
            api(op, "The TPP personas (certificates the workbench signs with)")
                .answers_list::<Persona>(200, "The personas")
        })
        .post("/personas", personas::issue, |op| {
            api(op, "Issue a persona from the test CA")
                .body::<IssueRequest>(true)
                .answers::<Persona>(201, "Issued")
                .refusals(&[400, 409, 413, 415])
        })
        .post("/personas/import", personas::import, |op| {
            api(op, "Import a persona from a certificate and key")
                .body::<personas::ImportRequest>(true)
                .answers::<Persona>(201, "Imported")
                .refusals(&[400, 409, 413, 415])
        })
        .patch("/personas/{id}", personas::patch, |op| {
            api(op, "Rename or re-colour a persona")
                .body::<PersonaPatch>(true)
                .answers::<Persona>(200, "Changed")
                .refusals(&[400, 404, 413, 415])
        })
        .delete("/personas/{id}", personas::delete, |op| {
            api(op, "Remove a persona")
                .empty(204, "Removed")
                .refusals(&[404, 409])
        })
        .get("/personas/{id}/certificate", personas::certificate, |op| {
            api(op, "A persona's certificate (never its key)")
                .answers_with(
                    200,
                    "PEM",
                    "application/x-pem-file",
                    json!({"type": "string"}),
                )
                .refusals(&[404])
        })
        .get("/personas/{id}/cert-dir", personas::cert_dir, |op| {
            api(op, "A persona's certificate and private key, as a --cert-dir archive")
                .description("A tar archive that unpacks (`tar -xf`) to the folder `<id>/` holding `cert.pem`, `key.pem` and a README saying whose key it is, for `xs2a-sandbox replay --cert-dir`. For the bundled personas (whose keys are public) and issued ones (test keys the sandbox made); an imported persona's key is not handed out (409).")
                .answers_with(
                    200,
                    "A POSIX tar archive",
                    "application/x-tar",
                    json!({"type": "string"}),
                )
                .refusals(&[404, 409])
        })
        .get("/sca/callbacks", callback::list, |op| {
            api(op, "The SCA redirects the workbench's callback caught")
                .answers_list::<Callback>(200, "Newest first")
        })
        .get("/sca/pending", callback::pending, |op| {
            api(op, "The SCAs not finished yet (the SCA screen's list)")
                .description("Every authorisation whose PSU has not completed, cancelled or failed it and whose 30 minutes have not run out, newest first.")
                .answers_list::<xs2a_workbench::own_state::sca_pending::PendingSca>(200, "Newest first")
        })
        .get("/sca/finished", callback::finished, |op| {
            api(op, "The SCAs finished lately, and where each sent the PSU")
                .description("The last 20 authorisations that ended (completed, cancelled or failed), newest first, each with the redirect back to the TPP and the parameters the bank added to it (psu-id, psu-corporate-id, context, tpp-session-id, or system, status, code, message).")
                .answers_list::<xs2a_workbench::own_state::sca_finished::FinishedSca>(200, "Newest first")
        })
}

fn composer_routes() -> Routes {
    Routes::new()
        .get("/operations", composer::operations, |op| {
            api(op, "Every request form the composer offers")
                .answers_list::<operations::Operation>(200, "The catalogue")
        })
        .post("/compose/preview", composer::preview, |op| {
            api(
                op,
                "A draft as it would be sent now: headers, signing string",
            )
            .body::<draft::Draft>(true)
            .answers::<draft::Prepared>(200, "The prepared request")
            .refusals(&[400, 404, 413, 415])
        })
        .post("/compose/send", composer::send, |op| {
            api(
                op,
                "Sign a draft now, send it over the port, keep it in the history",
            )
            .body::<draft::Draft>(true)
            .answers::<composer::Sent>(200, "The request sent and its answer")
            .refusals(&[400, 404, 413, 415])
        })
        .get("/compose/history", composer::history_list, |op| {
            api(op, "The sent requests, newest first")
                .answers_list::<composer::HistoryLine>(200, "The history")
        })
        .get("/compose/history/{id}", composer::history_entry, |op| {
            api(op, "One sent request whole")
                .answers::<composer::Sent>(200, "The request sent and its answer")
                .refusals(&[404])
        })
        .post("/compose/export", composer::export, |op| {
            api(
                op,
                "A draft as a curl command or a script that signs at run time",
            )
            .body::<composer::export::ExportRequest>(true)
            .answers::<composer::export::ExportText>(200, "The text")
            .refusals(&[400, 404, 413, 415])
        })
}

/// The flow exports' `state`: the name the state file was saved under, for the flow's `state` field.
const STATE_QUERY: Param = Param::query(
    "state",
    "string",
    "The file name (or path relative to the flow file) the state file this flow starts from was saved under; written into the flow's `state` (default: the snapshot's download name, `<name>.state.json`).",
);

fn fixture_routes() -> Routes {
    Routes::new()
        .get("/state", fixtures::export, |op| {
            api(op, "The whole state as a state file (docs/fixtures.md)").answers_with(
                200,
                "A state file",
                "application/json",
                file("fixtures/schema/state.schema.json"),
            )
        })
        .post("/state", fixtures::import, |op| {
            api(
                op,
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
        })
        .get("/journeys/{id}/flow", fixtures::journey_flow, |op| {
            api(op, "A journey of the traffic log as a flow file")
                .params(&[STATE_QUERY])
                .answers_with(
                    200,
                    "A flow file",
                    "application/json",
                    file("fixtures/schema/flow.schema.json"),
                )
                .refusals(&[404])
        })
        .get("/snapshots", fixtures::snapshots, |op| {
            api(op, "The named snapshots").answers_list::<Summary>(200, "The snapshots")
        })
        .get("/snapshots/{name}", fixtures::download, |op| {
            api(op, "A snapshot's state file")
                .answers_with(
                    200,
                    "A state file",
                    "application/json",
                    file("fixtures/schema/state.schema.json"),
                )
                .refusals(&[404])
        })
        .put("/snapshots/{name}", fixtures::take, |op| {
            api(op, "Take a snapshot of the whole state now")
                .answers::<Summary>(201, "Taken (one of the same name is replaced)")
                .refusals(&[400, 409])
        })
        .delete("/snapshots/{name}", fixtures::delete, |op| {
            api(op, "Delete a snapshot")
                .empty(204, "Deleted")
                .refusals(&[404])
        })
        .post("/snapshots/{name}/restore", fixtures::restore, |op| {
            api(op, "Restore the state a snapshot holds")
                .answers::<ImportOutcome>(200, "Restored")
                .refusals(&[404])
        })
        .get("/snapshots/{name}/flow", fixtures::flow_since, |op| {
            api(op, "Every exchange since the snapshot, as a flow file")
                .params(&[STATE_QUERY])
                .answers_with(
                    200,
                    "A flow file",
                    "application/json",
                    file("fixtures/schema/flow.schema.json"),
                )
                .refusals(&[404])
        })
}
