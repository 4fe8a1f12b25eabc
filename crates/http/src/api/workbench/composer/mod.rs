//! The composer (the TPP side of the workbench): forms for every operation, the exact signed request
//! before it is sent, sending it over the service's own port, the history, and copy as curl or script.

pub mod export;
mod forms;
pub mod operations;
pub mod send;

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::composer::draft::{prepare, Draft, Prepared};
use xs2a_workbench::own_state::history;

/// 200: every form.
pub async fn operations() -> Json<&'static [operations::Operation]> {
    Json(operations::catalogue())
}

/// 200: the request as it would be sent now.
pub async fn preview(
    State(state): State<AppState>,
    JsonBody(draft): JsonBody<Draft>,
) -> ApiResult<Json<Prepared>> {
    Ok(Json(prepare(&state, &draft)?))
}

/// A sent request as the history keeps it and the UI shows it.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Sent {
    id: String,
    #[serde(with = "time::serde::rfc3339")]
    at: time::OffsetDateTime,
    draft: Draft,
    request: SentRequest,
    signing_string: String,
    response: SentResponse,
    duration_ms: u64,
    exchange_id: Option<String>,
}

/// The request as it went over the port.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SentRequest {
    method: String,
    url: String,
    /// `[name, value]` pairs in the order sent.
    headers: Vec<(String, String)>,
    body: Option<String>,
}

/// The answer as it came back.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SentResponse {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

/// A history record read back as what it holds: a [`Sent`] (the store keeps it as JSON, written by
/// [`send`] alone).
fn sent_of(record: history::HistoryRecord) -> ApiResult<Sent> {
    serde_json::from_value(record.sent).map_err(|e| {
        ApiError::internal(format!(
            "the composer's history entry {} is unreadable: {e}",
            record.id
        ))
    })
}

/// 200: the request signed now, sent over the real port, with its answer.
pub async fn send(
    State(state): State<AppState>,
    JsonBody(draft): JsonBody<Draft>,
) -> ApiResult<Json<Sent>> {
    let prepared = prepare(&state, &draft)?;
    let to = *state
        .listening
        .get()
        .ok_or_else(|| ApiError::internal("the service is not listening yet"))?;
    // The capture recognises the composer's request by its X-Request-ID and keeps its signing string.
    let request_id = prepared
        .headers
        .iter()
        .find(|(n, _)| n == "x-request-id")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    state
        .traffic
        .note_composer_request(&request_id, prepared.signing_string.clone());
    let answer = send::send(to, &prepared).await?;
    let exchange_id = state.traffic.composer_exchange(&request_id);
    let at = state.clock.now();
    let body_text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let request_body = (!prepared.body.is_empty()).then(|| body_text(&prepared.body));
    let response_body = body_text(&answer.body);
    let duration_ms = answer.duration.as_millis() as u64;
    let sent = Sent {
        id: String::new(),
        at,
        draft,
        request: SentRequest {
            method: prepared.method,
            url: prepared.url,
            headers: prepared.headers,
            body: request_body,
        },
        signing_string: prepared.signing_string,
        response: SentResponse {
            status: answer.status,
            headers: answer.headers,
            body: response_body,
        },
        duration_ms,
        exchange_id: exchange_id.map(|id| id.to_string()),
    };
    let store = state.store.clone();
    let id = history::record(&store, |id| {
        serde_json::to_value(Sent {
            id: id.to_owned(),
            ..sent
        })
        .unwrap_or_default()
    })?;
    // Just written: not finding it is the store failing, never the caller's mistake.
    let record = history::get(&store, &id)
        .map_err(|e| ApiError::internal(format!("the sent request was not kept: {}", e.text)))?;
    sent_of(record).map(Json)
}

/// One line of the history list.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryLine {
    id: String,
    /// RFC 3339.
    at: String,
    persona_id: String,
    method: String,
    path: String,
    status: u16,
    duration_ms: u64,
}

/// 200: the sent requests, newest first.
pub async fn history_list(State(state): State<AppState>) -> ApiResult<Json<Vec<HistoryLine>>> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    Ok(Json(
        history::recent(&state.store, history::KEPT)?
            .into_iter()
            .map(|h| HistoryLine {
                at: text(&h.sent["at"]),
                persona_id: text(&h.sent["draft"]["personaId"]),
                method: text(&h.sent["request"]["method"]),
                path: text(&h.sent["draft"]["path"]),
                status: h.sent["response"]["status"]
                    .as_u64()
                    .and_then(|s| u16::try_from(s).ok())
                    .unwrap_or_default(),
                duration_ms: h.sent["durationMs"].as_u64().unwrap_or_default(),
                id: h.id,
            })
            .collect(),
    ))
}

/// 200: one sent request whole.
pub async fn history_entry(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Json<Sent>> {
    sent_of(history::get(&state.store, &id)?).map(Json)
}

/// 200 `{text, omitted}`: the draft as shell text that signs at every run.
pub async fn export(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<export::ExportRequest>,
) -> ApiResult<Json<export::ExportText>> {
    Ok(Json(export::export(&state, &request)?))
}
