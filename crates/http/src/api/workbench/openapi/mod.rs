//! The OpenAPI descriptions of the workbench API's routes (`api::workbench::routes` lists them): the
//! session and its events, personas, the SCAs, the composer, the gate's definition and verdict, state
//! files and snapshots, and the PSU's browser here; the rewind and conformance routes' in their modules.
//! The mock-data and control endpoints served under `/workbench/api/sandbox/...` are documented once,
//! under `/v1/sandbox` (`sandbox::workbench`).

pub mod conformance;
pub mod rewind;

use super::composer::{self, operations};
use super::fixtures::ImportOutcome;
use super::session::Session;
use super::{currencies, gate, personas, verify};
use crate::api::openapi::builder::{Operation, Param};
use serde_json::json;
use xs2a_workbench::composer::draft;
use xs2a_workbench::outbound::psu_browser::{PageRequest, PageVisit};
use xs2a_workbench::own_state::callbacks::Callback;
use xs2a_workbench::own_state::personas::{IssueRequest, Persona, PersonaPatch};
use xs2a_workbench::own_state::snapshots::Summary;

/// A state or flow file: its JSON Schema's component (`schemas`).
fn file(schema: &str) -> serde_json::Value {
    match schema {
        "fixtures/schema/flow.schema.json" => json!({"$ref": "#/components/schemas/FlowFile"}),
        _ => json!({"$ref": "#/components/schemas/StateFile"}),
    }
}

/// A workbench operation: tagged Workbench, under the operator credential.
fn api<'d>(op: Operation<'d>, summary: &str) -> Operation<'d> {
    op.tag("Workbench")
        .summary(summary)
        .operator()
        .refusals(&[401])
}

/// The flow exports' `state`: the name the state file was saved under, for the flow's `state` field.
const STATE_QUERY: Param = Param::query(
    "state",
    "string",
    "The file name (or path relative to the flow file) the state file this flow starts from was saved under; written into the flow's `state` (default: the snapshot's download name, `<name>.state.json`).",
);

/// `GET /workbench/api/session`.
pub fn get_session(op: Operation<'_>) -> Operation<'_> {
    api(op, "The service's base URL, mode and data directory")
        .answers::<Session>(200, "The session")
}

/// `GET /workbench/api/events`.
pub fn get_events(op: Operation<'_>) -> Operation<'_> {
    api(op, "The sandbox's events as Server-Sent Events (resumable)")
                .description("Each event: `id: <n>`, `event: <kind>`, `data: <WorkbenchEvent as JSON>` (the component `WorkbenchEvent` says what each kind carries). Resumable with Last-Event-ID or ?lastEventId=.")
                .answers_with(
                    200,
                    "An event stream of WorkbenchEvent",
                    "text/event-stream",
                    crate::api::openapi::builder::sse_event("A WorkbenchEvent as JSON"),
                )
}

/// `GET /workbench/api/currencies`.
pub fn get_currencies(op: Operation<'_>) -> Operation<'_> {
    api(
        op,
        "The currency codes the sandbox accepts, with their minor units",
    )
    .answers_list::<currencies::CurrencyInfo>(200, "Alphabetically")
}

/// `GET /workbench/api/personas`.
pub fn get_personas(op: Operation<'_>) -> Operation<'_> {
    api(
        op,
        "The TPP personas (certificates the workbench signs with)",
    )
    .answers_list::<Persona>(200, "The personas")
}

/// `POST /workbench/api/personas`.
pub fn post_personas(op: Operation<'_>) -> Operation<'_> {
    api(op, "Issue a persona from the test CA")
        .body::<IssueRequest>(true)
        .answers::<Persona>(201, "Issued")
        .refusals(&[400, 409, 413, 415])
}

/// `POST /workbench/api/personas/import`.
pub fn post_personas_import(op: Operation<'_>) -> Operation<'_> {
    api(op, "Import a persona from a certificate and key")
        .body::<personas::ImportRequest>(true)
        .answers::<Persona>(201, "Imported")
        .refusals(&[400, 409, 413, 415])
}

/// `PATCH /workbench/api/personas/{id}`.
pub fn patch_personas_id(op: Operation<'_>) -> Operation<'_> {
    api(op, "Rename or re-colour a persona")
        .body::<PersonaPatch>(true)
        .answers::<Persona>(200, "Changed")
        .refusals(&[400, 404, 413, 415])
}

/// `DELETE /workbench/api/personas/{id}`.
pub fn delete_personas_id(op: Operation<'_>) -> Operation<'_> {
    api(op, "Remove a persona")
        .empty(204, "Removed")
        .refusals(&[404, 409])
}

/// `GET /workbench/api/personas/{id}/certificate`.
pub fn get_personas_id_certificate(op: Operation<'_>) -> Operation<'_> {
    api(op, "A persona's certificate (never its key)")
        .answers_with(
            200,
            "PEM",
            "application/x-pem-file",
            json!({"type": "string"}),
        )
        .refusals(&[404])
}

/// `GET /workbench/api/personas/{id}/cert-dir`.
pub fn get_personas_id_cert_dir(op: Operation<'_>) -> Operation<'_> {
    api(op, "A persona's certificate and private key, as a --cert-dir archive")
                .description("A tar archive that unpacks (`tar -xf`) to the folder `<id>/` holding `cert.pem`, `key.pem` and a README saying whose key it is, for `xs2a-sandbox replay --cert-dir`. For the bundled personas (whose keys are public) and issued ones (test keys the sandbox made); an imported persona's key is not handed out (409).")
                .answers_with(
                    200,
                    "A POSIX tar archive",
                    "application/x-tar",
                    json!({"type": "string"}),
                )
                .refusals(&[404, 409])
}

/// `GET /workbench/api/sca/callbacks`.
pub fn get_sca_callbacks(op: Operation<'_>) -> Operation<'_> {
    api(op, "The SCA redirects the workbench's callback caught")
        .answers_list::<Callback>(200, "Newest first")
}

/// `GET /workbench/api/sca/pending`.
pub fn get_sca_pending(op: Operation<'_>) -> Operation<'_> {
    api(op, "The SCAs not finished yet (the SCA screen's list)")
                .description("Every authorisation whose PSU has not completed, cancelled or failed it and whose 30 minutes have not run out, newest first.")
                .answers_list::<xs2a_workbench::own_state::sca_pending::PendingSca>(200, "Newest first")
}

/// `GET /workbench/api/sca/finished`.
pub fn get_sca_finished(op: Operation<'_>) -> Operation<'_> {
    api(op, "The SCAs finished lately, and where each sent the PSU")
                .description("The last 20 authorisations that ended (completed, cancelled or failed), newest first, each with the redirect back to the TPP and the parameters the bank added to it (psu-id, psu-corporate-id, context, tpp-session-id, or system, status, code, message).")
                .answers_list::<xs2a_workbench::own_state::sca_finished::FinishedSca>(200, "Newest first")
}

/// `GET /workbench/api/operations`.
pub fn get_operations(op: Operation<'_>) -> Operation<'_> {
    api(op, "Every request form the composer offers")
        .answers_list::<operations::Operation>(200, "The catalogue")
}

/// `POST /workbench/api/compose/preview`.
pub fn post_compose_preview(op: Operation<'_>) -> Operation<'_> {
    api(
        op,
        "A draft as it would be sent now: headers, signing string",
    )
    .body::<draft::Draft>(true)
    .answers::<draft::Prepared>(200, "The prepared request")
    .refusals(&[400, 404, 413, 415])
}

/// `POST /workbench/api/compose/send`.
pub fn post_compose_send(op: Operation<'_>) -> Operation<'_> {
    api(
        op,
        "Sign a draft now, send it over the port, keep it in the history",
    )
    .body::<draft::Draft>(true)
    .answers::<composer::Sent>(200, "The request sent and its answer")
    .refusals(&[400, 404, 413, 415])
}

/// `GET /workbench/api/compose/history`.
pub fn get_compose_history(op: Operation<'_>) -> Operation<'_> {
    api(op, "The sent requests, newest first")
        .answers_list::<composer::HistoryLine>(200, "The history")
}

/// `GET /workbench/api/compose/history/{id}`.
pub fn get_compose_history_id(op: Operation<'_>) -> Operation<'_> {
    api(op, "One sent request whole")
        .answers::<composer::Sent>(200, "The request sent and its answer")
        .refusals(&[404])
}

/// `POST /workbench/api/compose/export`.
pub fn post_compose_export(op: Operation<'_>) -> Operation<'_> {
    api(
        op,
        "A draft as a curl command or a script that signs at run time",
    )
    .body::<composer::export::ExportRequest>(true)
    .answers::<composer::export::ExportText>(200, "The text")
    .refusals(&[400, 404, 413, 415])
}

/// `GET /workbench/api/gate`.
pub fn get_gate(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
                .summary("The request gate's steps, and the headers it requires and signs")
                .description("From the verifier's own definitions: the steps in the order they run, each with the rule it checks, the header it reads and the codes its refusals carry.")
                .operator()
                .answers::<gate::GateDefinition>(200, "The gate")
                .refusals(&[401])
}

/// `POST /workbench/api/verify`.
pub fn post_verify(op: Operation<'_>) -> Operation<'_> {
    op.tag("Traffic")
                .summary("The gate's verdict on a pasted request (a curl command or a raw HTTP request)")
                .description("What `xs2a-sandbox verify` prints, as the inspector shows a verdict: every step of the gate run on the request the text describes, with the signing string the sandbox computes. Nothing is sent and nothing is logged.")
                .operator()
                .body::<verify::VerifyRequest>(true)
                .answers::<verify::Verified>(200, "The request as read, and the verdict")
                .refusals(&[400, 401, 413, 415])
}

/// `GET /workbench/api/state`.
pub fn get_state(op: Operation<'_>) -> Operation<'_> {
    api(op, "The whole state as a state file (docs/fixtures.md)").answers_with(
        200,
        "A state file",
        "application/json",
        file("fixtures/schema/state.schema.json"),
    )
}

/// `POST /workbench/api/state`.
pub fn post_state(op: Operation<'_>) -> Operation<'_> {
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
}

/// `GET /workbench/api/journeys/{id}/flow`.
pub fn get_journeys_id_flow(op: Operation<'_>) -> Operation<'_> {
    api(op, "A journey of the traffic log as a flow file")
        .params(&[STATE_QUERY])
        .answers_with(
            200,
            "A flow file",
            "application/json",
            file("fixtures/schema/flow.schema.json"),
        )
        .refusals(&[404])
}

/// `GET /workbench/api/snapshots`.
pub fn get_snapshots(op: Operation<'_>) -> Operation<'_> {
    api(op, "The named snapshots").answers_list::<Summary>(200, "The snapshots")
}

/// `GET /workbench/api/snapshots/{name}`.
pub fn get_snapshots_name(op: Operation<'_>) -> Operation<'_> {
    api(op, "A snapshot's state file")
        .answers_with(
            200,
            "A state file",
            "application/json",
            file("fixtures/schema/state.schema.json"),
        )
        .refusals(&[404])
}

/// `PUT /workbench/api/snapshots/{name}`.
pub fn put_snapshots_name(op: Operation<'_>) -> Operation<'_> {
    api(op, "Take a snapshot of the whole state now")
        .answers::<Summary>(201, "Taken (one of the same name is replaced)")
        .refusals(&[400, 409])
}

/// `DELETE /workbench/api/snapshots/{name}`.
pub fn delete_snapshots_name(op: Operation<'_>) -> Operation<'_> {
    api(op, "Delete a snapshot")
        .empty(204, "Deleted")
        .refusals(&[404])
}

/// `POST /workbench/api/snapshots/{name}/restore`.
pub fn post_snapshots_name_restore(op: Operation<'_>) -> Operation<'_> {
    api(op, "Restore the state a snapshot holds")
        .answers::<ImportOutcome>(200, "Restored")
        .refusals(&[404])
}

/// `GET /workbench/api/snapshots/{name}/flow`.
pub fn get_snapshots_name_flow(op: Operation<'_>) -> Operation<'_> {
    api(op, "Every exchange since the snapshot, as a flow file")
        .params(&[STATE_QUERY])
        .answers_with(
            200,
            "A flow file",
            "application/json",
            file("fixtures/schema/flow.schema.json"),
        )
        .refusals(&[404])
}

/// `POST /workbench/api/sca/page`.
pub fn post_sca_page(op: Operation<'_>) -> Operation<'_> {
    op.tag("Workbench")
            .summary("The PSU's browser on the bank's SCA pages: a page asked for, or one of its forms sent")
            .description("For presentation mode, which shows the bank's pages beside the diagram: the request goes to the service's own port as the PSU's browser sends it (unsigned; a form as `application/x-www-form-urlencoded`), so it is logged as the PSU's step. The bank's redirects are followed while they stay on its pages; where the bank sends the PSU back to the TPP, `leftTo` says where, and the workbench's own callback is visited as the browser would arrive there (the callback is recorded and the persona keeps its PSU-ID); a TPP app's own redirect URI is not visited. 400 `FORMAT_ERROR` at `url`: not a page of the bank's SCA on this service.")
            .operator()
            .body::<PageRequest>(true)
            .answers::<PageVisit>(200, "What the PSU's browser shows now")
            .refusals(&[400, 401])
}
