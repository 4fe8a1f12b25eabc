//! `GET /workbench/api/gate`: the request gate's steps as the verifier runs them (its own `Step::ALL`, in
//! order), each with the rule it checks, the header it reads and the codes its refusals carry, and the
//! headers a signed request must carry and may sign — so the inspector explains a verdict from what the
//! service says instead of restating it.

use crate::api::answer::Json;
use crate::api::traffic::verdict;
use serde::Serialize;
use xs2a_core::domain::refusal::Code;
use xs2a_core::signing::required_headers::REQUIRED;
use xs2a_core::signing::verifier::{Step, MAX_CLOCK_SKEW, SIGNING_CANDIDATES};

/// One step of the gate.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GateStepDefinition {
    /// As a traffic entry's `gate.steps[].step` and `failedStep` name it, e.g. `signed headers`.
    pub id: &'static str,
    /// For a heading, e.g. `Signed headers`.
    pub name: String,
    /// The rule, in the interface's words.
    pub checks: &'static str,
    /// The header the step reads, if one.
    #[schema(required = true)]
    pub header: Option<&'static str>,
    /// The codes a refusal at this step carries (always with status 400).
    pub refusal_codes: &'static [Code],
}

/// The gate.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GateDefinition {
    /// In the order they run; the first that fails refuses the request.
    pub steps: Vec<GateStepDefinition>,
    /// Lower-case names of the headers the bank names for signing (docs/interface.md#signing-every-request):
    /// each one the request carries should be listed in the Signature's `headers`.
    pub signable_headers: &'static [&'static str],
    /// The headers every signed request carries.
    pub required_headers: &'static [&'static str],
    /// Required besides when the request has a body.
    pub required_with_body: &'static [&'static str],
    /// How far the Date header may be from the bank's clock.
    pub max_clock_skew_seconds: i64,
}

fn heading(id: &str) -> String {
    let mut chars = id.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The gate's definition, from the verifier's own tables.
pub fn definition() -> GateDefinition {
    GateDefinition {
        steps: Step::ALL
            .into_iter()
            .map(|step| {
                let (checks, header) = verdict::rule(step);
                GateStepDefinition {
                    id: step.name(),
                    name: heading(step.name()),
                    checks,
                    header,
                    refusal_codes: verdict::refusal_codes(step),
                }
            })
            .collect(),
        signable_headers: &SIGNING_CANDIDATES,
        required_headers: &REQUIRED,
        required_with_body: &["Digest"],
        max_clock_skew_seconds: MAX_CLOCK_SKEW.whole_seconds(),
    }
}

/// 200: the gate's definition.
pub async fn gate() -> Json<GateDefinition> {
    Json(definition())
}
