//! `/workbench/api/conformance` (docs/conformance.md): the conformance report of one TPP over a window of
//! the sandbox clock or one journey — as JSON (the typed report), JUnit XML or self-contained HTML — and
//! the TPPs the traffic log has seen. Thin: the selection and the grading are `xs2a_workbench::conformance`.

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use axum::extract::{RawQuery, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::conformance::model::Report;
use xs2a_workbench::conformance::select::{self, Ask, TppSeen};

/// The report `query` asks for.
async fn graded(state: &AppState, query: Option<String>) -> ApiResult<Report> {
    let ask = Ask::from_query(query.as_deref())?;
    ask.known_journey(&state.traffic)?;
    // Everything handed to the log so far is graded, the request just answered included.
    state.traffic.settled().await;
    let traffic = state.traffic.clone();
    let now = state.clock.now();
    tokio::task::spawn_blocking(move || {
        let (selection, about) = select::from_log(&traffic, &ask)?;
        Ok(xs2a_workbench::conformance::grade(&selection, about, now))
    })
    .await
    .map_err(ApiError::internal)?
}

/// 200: the typed report.
pub async fn report(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Report>> {
    Ok(Json(graded(&state, query).await?))
}

fn file(body: String, media: &str, name: &str) -> Response {
    (
        [
            (CONTENT_TYPE, media.to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// 200: the report as JUnit XML, one test case per rule.
pub async fn junit(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let report = graded(&state, query).await?;
    Ok(file(
        xs2a_workbench::conformance::junit::report(&report),
        "application/xml; charset=utf-8",
        "conformance.junit.xml",
    ))
}

/// 200: the report as one self-contained HTML page.
pub async fn html(State(state): State<AppState>, RawQuery(query): RawQuery) -> ApiResult<Response> {
    let report = graded(&state, query).await?;
    Ok(file(
        xs2a_workbench::conformance::html::report(&report),
        "text/html; charset=utf-8",
        "conformance.html",
    ))
}

/// 200: the TPPs with exchanges in the traffic log, the most recently active first.
pub async fn tpps(State(state): State<AppState>) -> ApiResult<Json<Vec<TppSeen>>> {
    let traffic = state.traffic.clone();
    let seen = tokio::task::spawn_blocking(move || select::tpps(&traffic))
        .await
        .map_err(ApiError::internal)??;
    Ok(Json(seen))
}
