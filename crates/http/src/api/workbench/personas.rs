//! `/workbench/api/personas`: the TPP identities the composer signs with (`xs2a_workbench::own_state::personas`),
//! and a persona's certificate with its key as a `--cert-dir` archive (`xs2a_workbench::own_state::persona_key`).

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::path::ApiPath;
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::own_state::personas::{self, IssueRequest, Persona, PersonaPatch};

fn view(state: &AppState, stored: &personas::StoredPersona) -> ApiResult<Persona> {
    Ok(personas::view(
        stored,
        &state.verifier.trust(),
        state.clock.now(),
    )?)
}

fn changed(state: &AppState, id: &str) {
    state.events.publish(
        xs2a_core::bank::events::EventKind::PersonaChanged,
        state.clock.now(),
        json!({ "id": id }),
    );
}

/// 200: every persona, the bundled ones first.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<Persona>>> {
    Ok(Json(personas::list(
        &state.store,
        &state.verifier.trust(),
        state.clock.now(),
    )?))
}

/// 201: a persona issued from the test CA (or an untrusted one).
pub async fn issue(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<IssueRequest>,
) -> ApiResult<(StatusCode, Json<Persona>)> {
    let now = state.clock.now();
    let store = state.store.clone();
    // RSA key generation takes a moment: off the async threads.
    let issue = move || personas::issue(&store, request, now);
    let stored = tokio::task::spawn_blocking(xs2a_core::domain::cause::carry(issue))
        .await
        .map_err(ApiError::internal)??;
    changed(&state, &stored.id);
    Ok((StatusCode::CREATED, Json(view(&state, &stored)?)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportRequest {
    name: String,
    certificate_pem: String,
    private_key_pem: String,
}

/// 201: a persona from an imported certificate and key.
pub async fn import(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Persona>)> {
    let stored = personas::import(
        &state.store,
        &request.name,
        &request.certificate_pem,
        &request.private_key_pem,
    )?;
    changed(&state, &stored.id);
    Ok((StatusCode::CREATED, Json(view(&state, &stored)?)))
}

/// 200: the persona after the change.
pub async fn patch(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    JsonBody(patch): JsonBody<PersonaPatch>,
) -> ApiResult<Json<Persona>> {
    let stored = personas::patch(&state.store, &id, patch)?;
    changed(&state, &id);
    Ok(Json(view(&state, &stored)?))
}

/// 204; 409 for a bundled persona.
pub async fn delete(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<StatusCode> {
    personas::delete(&state.store, &id)?;
    changed(&state, &id);
    Ok(StatusCode::NO_CONTENT)
}

/// 200 `application/x-pem-file`: the persona's certificate (never its key).
pub async fn certificate(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Response> {
    let stored = personas::get(&state.store, &id)?;
    Ok((
        [
            (CONTENT_TYPE, "application/x-pem-file".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{id}.pem\""),
            ),
        ],
        stored.certificate_pem,
    )
        .into_response())
}

/// 200 `application/x-tar`: the persona's `--cert-dir` (certificate, key, README); 409 for an imported one.
pub async fn cert_dir(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<Response> {
    let dir =
        xs2a_workbench::own_state::persona_key::cert_dir(&state.store, &id, state.clock.now())?;
    Ok((
        [
            (CONTENT_TYPE, "application/x-tar".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", dir.file_name),
            ),
        ],
        dir.bytes,
    )
        .into_response())
}
