//! `POST /workbench/api/verify`: what a TPP's app sent, pasted as a curl command or a raw HTTP request,
//! through the gate's checks (`signing::pasted::check`, the function `xs2a-sandbox verify` calls) and
//! shown as the inspector shows a logged exchange's verdict. Nothing is sent anywhere and nothing is
//! logged: it answers "what would the bank say to this, and why".

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use crate::api::json::JsonBody;
use crate::api::traffic::verdict;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::traffic::model::{GateVerdict, Message, TppRef};

/// The paste, and the time to check its Date against.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyRequest {
    /// A curl command (as a shell would run it: quotes and `\` line ends are read, variables are not) or a
    /// raw HTTP/1.1 request (request line, headers, a blank line, the body).
    request: String,
    /// `date` to check as of the request's own Date header (a request captured a while ago), or an
    /// RFC 3339 time; by default the gate's own time (the sandbox clock, or the machine's once it was moved).
    #[serde(default)]
    at: Option<String>,
}

/// The request as read, and the gate's verdict on it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verified {
    /// How the paste was read: `curl` or `raw`.
    #[schema(schema_with = form)]
    pub form: &'static str,
    pub method: String,
    /// The path and query, as `(request-target)` signs them.
    pub target: String,
    /// The headers and body as they would be sent (for curl: with the Content-Type curl adds to `-d`).
    pub request: Message,
    /// The time the Date header was checked against.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// Whether the gate would let it through.
    pub accepted: bool,
    /// The step that refused it (the first that failed), as a logged exchange's `failedStep`.
    #[schema(required = true)]
    pub failed_step: Option<String>,
    /// The TPP, once the certificate was read.
    #[schema(required = true)]
    pub tpp: Option<TppRef>,
    pub verdict: GateVerdict,
    /// What reading the paste found worth saying (curl's defaults, a Content-Length that does not match
    /// the body, what followed a pipe).
    pub notes: Vec<String>,
}

fn form() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(serde_json::json!({"type": "string", "enum": ["curl", "raw"]}))
        .expect("a valid schema")
}

/// 200: the verdict; 400 FORMAT_ERROR at `request` (what could not be read, and how to paste it instead)
/// or at `at`.
pub async fn verify(
    State(state): State<AppState>,
    JsonBody(asked): JsonBody<VerifyRequest>,
) -> ApiResult<Json<Verified>> {
    let checked = xs2a_workbench::pasted::check(
        &state.verifier,
        &state.clock,
        &asked.request,
        asked.at.as_deref(),
    )?;
    let accepted = checked.report.outcome.is_ok();
    let record = verdict::record(verdict::findings(checked.report).1);
    let request = checked.request;
    // The paste is text, so the body read from it is too.
    let body = &request.body;
    let text = (!body.is_empty()).then(|| String::from_utf8_lossy(body).into_owned());
    Ok(Json(Verified {
        form: request.form.name(),
        method: request.method,
        target: request.target,
        request: Message {
            headers: request
                .headers
                .iter()
                .map(|(name, value)| {
                    (
                        name.as_str().to_owned(),
                        String::from_utf8_lossy(value.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            body: text,
            body_bytes: body.len(),
            body_base64: false,
        },
        at: checked.at,
        accepted,
        failed_step: record.failed_step,
        tpp: record.tpp,
        verdict: record.verdict,
        notes: request.notes,
    }))
}
