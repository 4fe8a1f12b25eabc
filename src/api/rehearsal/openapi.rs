//! The rehearsal routes in the OpenAPI document (the workbench API, operator credential).

use super::faults::RulePatch;
use super::profile::ProfileSetting;
use crate::api::openapi::builder::{Document, Operation, Param};
use crate::rehearsal::plan::{Plan, Rule};
use crate::rehearsal::presets::Preset;
use crate::rehearsal::register::{RegisterChange, RegisteredTpp};

const API: &str = "/workbench/api";

fn op<'d>(doc: &'d mut Document, method: &str, path: &str, summary: &str) -> Operation<'d> {
    doc.op(method, &format!("{API}{path}"), "Workbench", summary)
        .operator()
        .refusals(&[401])
}

pub fn describe(doc: &mut Document) {
    op(doc, "GET", "/profile", "The profile the bank is played in")
        .answers::<ProfileSetting>(200, "The profile")
        .finish();
    op(doc, "PUT", "/profile", "Switch between the sandbox and the production profile")
        .description("Stored before it answers. Under `production`, tolerances are refused, `/v1/sandbox` answers 404 but to the operator, and every known issue is on (docs/rehearsal.md).")
        .body::<ProfileSetting>(true)
        .answers::<ProfileSetting>(200, "Switched")
        .refusals(&[400, 415])
        .finish();
    op(
        doc,
        "GET",
        "/faults",
        "The fault plan with each rule's counters",
    )
    .answers::<Plan>(200, "The plan (no rules when none was set)")
    .finish();
    op(doc, "PUT", "/faults", "Replace the fault plan")
        .description("Validated and stored before it takes effect; the counters and the generator's state are taken as given (absent: zero and the seed). docs/rehearsal.md and fixtures/schema/fault-plan.schema.json describe the format.")
        .body::<Plan>(true)
        .answers::<Plan>(200, "Replaced")
        .refusals(&[400, 415])
        .finish();
    op(
        doc,
        "DELETE",
        "/faults",
        "Remove every rule (the seed stays)",
    )
    .answers::<Plan>(200, "Cleared")
    .finish();
    op(
        doc,
        "GET",
        "/faults/presets",
        "Ready-made rules, one per failure",
    )
    .answers_list::<Preset>(200, "The presets, as of the sandbox clock")
    .finish();
    op(
        doc,
        "POST",
        "/faults/rules",
        "Add a rule at the end of the plan",
    )
    .body::<Rule>(true)
    .answers::<Plan>(201, "Added")
    .refusals(&[400, 409, 415])
    .finish();
    let id = [Param::path("id", "string", "The rule's id")];
    op(
        doc,
        "PATCH",
        "/faults/rules/{id}",
        "Switch a rule on or off",
    )
    .params(&id)
    .body::<RulePatch>(true)
    .answers::<Plan>(200, "Switched")
    .refusals(&[400, 404, 415])
    .finish();
    op(doc, "DELETE", "/faults/rules/{id}", "Remove a rule")
        .params(&id)
        .answers::<Plan>(200, "Removed")
        .refusals(&[404])
        .finish();
    op(
        doc,
        "GET",
        "/register",
        "The simulated central register: every TPP seen",
    )
    .answers_list::<RegisteredTpp>(200, "The TPPs, by organisation identifier")
    .finish();
    op(doc, "PATCH", "/register/{organisationId}", "Mark a TPP unregistered, withdraw a role, revoke its certificate")
        .description("Stored before it applies; the TPP's next request gets 401 CERTIFICATE_REVOKED, CERTIFICATE_BLOCKED (unregistered) or ROLE_INVALID (a service needing a withdrawn role), in both profiles (docs/rehearsal.md).")
        .params(&[Param::path("organisationId", "string", "The TPP's organisation identifier")])
        .body::<RegisterChange>(true)
        .answers::<RegisteredTpp>(200, "Changed")
        .refusals(&[400, 404, 415])
        .finish();
}
