//! Production rehearsal over HTTP (docs/rehearsal.md): the profile and the fault plan under
//! `/workbench/api`, the production profile's 404 on `/v1/sandbox` for everyone but the operator, and the
//! plan's effects on the bank interface ([`inject`]).

pub mod faults;
pub mod inject;
pub mod openapi;
pub mod operations;
pub mod profile;
pub mod register;
mod request_facts;
pub mod resources;
pub mod sca_pages;

use crate::api::error::ApiError;
use crate::api::operator::{presented_token, same_token};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use xs2a_core::bank::rehearsal::Profile;
use xs2a_workbench::app_state::AppState;

/// Notes the request's TPP in the central register and answers what the register says of it.
pub fn consult_register(
    state: &AppState,
    verified: &xs2a_core::signing::verifier::VerifiedTpp,
    path: &str,
) -> Result<(), xs2a_core::domain::refusal::Refusal> {
    let certificate = verified.tpp();
    let organisation_id = verified.tpp_id();
    let name = certificate
        .organization
        .as_deref()
        .or(certificate.common_name.as_deref())
        .unwrap_or_default();
    let presented = xs2a_core::bank::rehearsal::register::Presented {
        organisation_id: &organisation_id,
        name,
        roles: certificate.roles(),
        serial: &certificate.serial_hex,
    };
    state
        .rehearsal
        .register
        .check(&state.store, &presented, path, state.clock.now())
}

/// Under the production profile, `/v1/sandbox/*` answers as an unknown path does (production has no
/// sandbox endpoints), except to requests with the operator credential, so that the operator's own
/// scripts can still stage a rehearsal.
pub async fn hide_sandbox(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if state.rehearsal.profile() == Profile::Production {
        let operator = presented_token(request.headers(), request.uri().query())
            .is_some_and(|t| same_token(t, &state.settings.operator_token));
        if !operator {
            // Production's answer (an unknown path), and the tolerance it is, as every other one says.
            let path = request_facts::sent_path(&request);
            let refusal = xs2a_core::bank::rehearsal::tolerance::no_mock_data_api(
                request.method().as_str(),
                &path,
            );
            return ApiError::from(refusal).into_response();
        }
    }
    next.run(request).await
}

/// The table of tolerances in docs/rehearsal.md, made from [`xs2a_core::bank::rehearsal::Tolerance::ALL`] (a test
/// holds the page to it): tolerance / sandbox profile / production profile / the refusal.
pub fn tolerance_table() -> String {
    let mut table = String::from(
        "| Tolerance | Sandbox profile (WARNING) | Production profile | The refusal |\n|---|---|---|---|\n",
    );
    for tolerance in xs2a_core::bank::rehearsal::Tolerance::ALL {
        let code = tolerance.refusal_code();
        table.push_str(&format!(
            "| `{}` | {} | {} | {} {} |\n",
            tolerance.id(),
            tolerance.sandbox(),
            tolerance.production(),
            crate::api::error::status_of(code).as_u16(),
            code.as_str()
        ));
    }
    table
}
