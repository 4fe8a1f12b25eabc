//! The OpenAPI descriptions of the rewind routes (`api::workbench::routes` lists them).

use crate::api::openapi::builder::{Operation, Param};
use crate::api::workbench::rewind::{Restart, RestartRequest, RewindRequest};
use serde_json::json;
use xs2a_workbench::rewind::{self, changes::EntryChanges, compare::Comparison, Rewound};

/// `GET /workbench/api/traffic/{id}/changes`.
pub fn get_traffic_id_changes(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
                .summary("What one timeline entry (exchange or event) changed in the sandbox's state")
                .description("The records the entry's writes created, changed and removed (net: from before its first write to after its last), with field-level differences and the balances moved. An entry that wrote nothing answers `commits: 0` and empty lists. 404 `RESOURCE_UNKNOWN`: no such entry; 409 `CONFLICT`: the entry is beyond the journal's reach, or the journal is off.")
                .operator()
                .answers::<EntryChanges>(200, "The entry's state changes")
                .refusals(&[400, 401, 404, 409])
}

/// `POST /workbench/api/rewind`.
pub fn post_rewind(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
                .summary("Return the sandbox to the state before or after a timeline entry")
                .description("Atomically, over every tree of the state; the rewind is itself an entry of the timeline (`rewind`), so returning to the state before it undoes it. An event whose changes another entry made (a batch run a request asked for, a payment status step within a run) is rewound with that entry, and `note` says so; `note` also says when nothing changed. The sandbox rewinds only itself, not the TPP's own records. Workbench clients receive `sandbox.changed {what: \"all\"}`. 404 `RESOURCE_UNKNOWN`: no such entry; 409 `CONFLICT`: beyond the journal's reach, or the journal is off.")
                .operator()
                .body::<RewindRequest>(true)
                .answers::<Rewound>(200, "The sandbox is at that point")
                .refusals(&[400, 401, 404, 409])
}

/// `GET /workbench/api/rewind/preview`.
pub fn get_rewind_preview(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
                .summary("What a rewind to a point would undo now, nothing applied")
                .description("The answer `POST /workbench/api/rewind` would give for the same point, without changing anything: how many journal records it would undo and how many records of the state it would change. `note` says when nothing would change, and when the entry is an event whose changes another entry made (a batch run a request asked for, a payment status step within a run): the rewind then returns to that entry's point. 404 `RESOURCE_UNKNOWN`: no such entry; 409 `CONFLICT`: beyond the journal's reach, or the journal is off.")
                .params(&[
                    Param::query("to", "integer", "The timeline entry (exchange or event).").required(),
                    Param::query(
                        "position",
                        "enum:before|after",
                        "Before or after the entry (default after).",
                    ),
                ])
                .operator()
                .answers::<rewind::RewindPreview>(200, "What the rewind would do")
                .refusals(&[400, 401, 404, 409])
}

/// `GET /workbench/api/state/at/{id}`.
pub fn get_state_at_id(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
        .summary("The state at a timeline entry as a state file (the live state untouched)")
        .params(&[Param::query(
            "position",
            "enum:before|after",
            "Before or after the entry (default after).",
        )])
        .operator()
        .answers_with(
            200,
            "A state file",
            "application/json",
            json!({"$ref": "#/components/schemas/StateFile"}),
        )
        .refusals(&[400, 401, 404, 409])
}

/// `GET /workbench/api/state/compare`.
pub fn get_state_compare(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
        .summary("The state at one timeline entry against the state at another")
        .params(&[
            Param::query("a", "integer", "The first entry.").required(),
            Param::query("b", "integer", "The second entry.").required(),
            Param::query(
                "aPosition",
                "enum:before|after",
                "Before or after a (default after).",
            ),
            Param::query(
                "bPosition",
                "enum:before|after",
                "Before or after b (default after).",
            ),
        ])
        .operator()
        .answers::<Comparison>(200, "What differs from the state at a to the state at b")
        .refusals(&[400, 401, 404, 409])
}

/// `GET /workbench/api/journeys/{id}/restart`.
pub fn get_journeys_id_restart(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
                .summary("What a restart of a journey from one of its steps would play again, and what not")
                .description("The plan `POST /journeys/{id}/restart` would follow from the step `from`, nothing rewound or sent: the steps in order (the TPP's requests, the PSU's pages and forms, the PSU's way back to the workbench's callback, batch runs) and what cannot be played again as it happened, with the reason (a request the gate refused, an answer the fault plan injected, the way back to a TPP app's own redirect URI, a scheduled batch run). 404 `RESOURCE_UNKNOWN`: no such journey, or the step is not one of its exchanges; 409 `CONFLICT`: no key for the journey's certificate.")
                .params(&[Param::query("from", "integer", "The journey's exchange to restart from.").required()])
                .operator()
                .answers::<Restart>(200, "The plan")
                .refusals(&[400, 401, 404, 409])
}

/// `POST /workbench/api/journeys/{id}/restart`.
pub fn post_journeys_id_restart(op: Operation<'_>) -> Operation<'_> {
    op.tag("Rewind")
                .summary("Restart a journey from one of its steps (presentation mode)")
                .description("Rewinds the sandbox to the state before the step (before the first page of the PSU's SCA when the step is one of its pages), then plays the journey again from there as the room saw it: the TPP's requests re-signed with the persona's key whose certificate signed them, ids from the new answers carried into later requests; the PSU's pages asked for and their forms sent as the PSU's browser did, and the PSU's way back to the workbench's callback; a batch run where one decided the journey's payments. `notReplayed` lists what is not played again as it happened (as `GET` of the same path answers before). 202: the rewind is done and the re-run has begun; its exchanges appear on the timeline.")
                .operator()
                .body::<RestartRequest>(true)
                .answers::<Restart>(202, "Rewound; the re-run has begun")
                .refusals(&[400, 401, 404, 409])
}
