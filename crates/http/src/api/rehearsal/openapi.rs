//! The OpenAPI descriptions of the rehearsal routes of the workbench API (operator credential;
//! `api::workbench::routes` lists them).

use super::faults::RulePatch;
use super::profile::ProfileSetting;
use crate::api::openapi::builder::{Operation, Param};
use xs2a_core::bank::rehearsal::plan::{Plan, Rule};
use xs2a_core::bank::rehearsal::presets::Preset;
use xs2a_core::bank::rehearsal::register::{RegisterChange, RegisteredTpp};

/// A fault rule's id, in its path.
const RULE_ID: &[Param] = &[Param::path("id", "string", "The rule's id")];

/// A workbench operation: tagged Workbench, under the operator credential.
fn api<'d>(op: Operation<'d>, summary: &str) -> Operation<'d> {
    op.tag("Workbench")
        .summary(summary)
        .operator()
        .refusals(&[401])
}

/// `GET /workbench/api/profile`.
pub fn get_profile(op: Operation<'_>) -> Operation<'_> {
    api(op, "The profile the bank is played in").answers::<ProfileSetting>(200, "The profile")
}

/// `PUT /workbench/api/profile`.
pub fn put_profile(op: Operation<'_>) -> Operation<'_> {
    api(op, "Switch between the sandbox and the production profile")
                .description("Stored before it answers. Under `production`, tolerances are refused, `/v1/sandbox` answers 404 but to the operator, and every known issue is on (docs/rehearsal.md).")
                .body::<ProfileSetting>(true)
                .answers::<ProfileSetting>(200, "Switched")
                .refusals(&[400, 415])
}

/// `GET /workbench/api/faults`.
pub fn get_faults(op: Operation<'_>) -> Operation<'_> {
    api(op, "The fault plan with each rule's counters")
        .answers::<Plan>(200, "The plan (no rules when none was set)")
}

/// `PUT /workbench/api/faults`.
pub fn put_faults(op: Operation<'_>) -> Operation<'_> {
    api(op, "Replace the fault plan")
                .description("Validated and stored before it takes effect; the counters and the generator's state are taken as given (absent: zero and the seed). docs/rehearsal.md and fixtures/schema/fault-plan.schema.json describe the format.")
                .body::<Plan>(true)
                .answers::<Plan>(200, "Replaced")
                .refusals(&[400, 415])
}

/// `DELETE /workbench/api/faults`.
pub fn delete_faults(op: Operation<'_>) -> Operation<'_> {
    api(op, "Remove every rule (the seed stays)").answers::<Plan>(200, "Cleared")
}

/// `GET /workbench/api/faults/presets`.
pub fn get_faults_presets(op: Operation<'_>) -> Operation<'_> {
    api(op, "Ready-made rules, one per failure")
        .answers_list::<Preset>(200, "The presets, as of the sandbox clock")
}

/// `POST /workbench/api/faults/rules`.
pub fn post_faults_rules(op: Operation<'_>) -> Operation<'_> {
    api(op, "Add a rule at the end of the plan")
        .body::<Rule>(true)
        .answers::<Plan>(201, "Added")
        .refusals(&[400, 409, 415])
}

/// `GET /workbench/api/register`.
pub fn get_register(op: Operation<'_>) -> Operation<'_> {
    api(op, "The simulated central register: every TPP seen")
        .answers_list::<RegisteredTpp>(200, "The TPPs, by organisation identifier")
}

/// `PATCH /workbench/api/register/{organisationId}`.
pub fn patch_register_organisationid(op: Operation<'_>) -> Operation<'_> {
    api(op, "Mark a TPP unregistered, withdraw a role, revoke its certificate")
                .description("Stored before it applies; the TPP's next request gets 401 CERTIFICATE_REVOKED, CERTIFICATE_BLOCKED (unregistered) or ROLE_INVALID (a service needing a withdrawn role), in both profiles (docs/rehearsal.md).")
                .params(&[Param::path("organisationId", "string", "The TPP's organisation identifier")])
                .body::<RegisterChange>(true)
                .answers::<RegisteredTpp>(200, "Changed")
                .refusals(&[400, 404, 415])
}

/// `PATCH /workbench/api/faults/rules/{id}`.
pub fn patch_faults_rules_id(op: Operation<'_>) -> Operation<'_> {
    api(op, "Switch a rule on or off")
        .params(RULE_ID)
        .body::<RulePatch>(true)
        .answers::<Plan>(200, "Switched")
        .refusals(&[400, 404, 415])
}

/// `DELETE /workbench/api/faults/rules/{id}`.
pub fn delete_faults_rules_id(op: Operation<'_>) -> Operation<'_> {
    api(op, "Remove a rule")
        .params(RULE_ID)
        .answers::<Plan>(200, "Removed")
        .refusals(&[404])
}
