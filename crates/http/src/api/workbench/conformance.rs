//! `/workbench/api/conformance` (docs/conformance.md): the conformance report of one TPP over a window of
//! the sandbox clock or one journey — as JSON (the typed report), JUnit XML or self-contained HTML — and
//! the TPPs the traffic log has seen. Thin: the selection and the grading are `xs2a_workbench::conformance`.

use crate::api::error::{ApiError, ApiResult};
use crate::api::openapi::builder::{Operation, Param};
use crate::api::openapi::routes::Routes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::conformance::model::Report;
use xs2a_workbench::conformance::select::{self, Ask, TppSeen};

/// The query's parameters, checked: `tpp` (unless `journey`), `since` and `until` as RFC 3339.
fn ask_of(query: Option<&str>) -> ApiResult<Ask> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|e| ApiError::format("(query)", format!("the query does not parse: {e}")))?;
    let mut ask = Ask::default();
    for (name, value) in pairs {
        let value = value.trim().to_owned();
        if value.is_empty() {
            continue;
        }
        match name.as_str() {
            "tpp" => ask.tpp = Some(value),
            "journey" => ask.journey = Some(value),
            "since" | "until" => {
                let at = OffsetDateTime::parse(&value, &Rfc3339).map_err(|_| {
                    ApiError::format(
                        &name,
                        format!(
                            "{name} '{value}' is not an RFC 3339 time such as 2026-06-01T12:00:00Z"
                        ),
                    )
                })?;
                if name == "since" {
                    ask.since = Some(at);
                } else {
                    ask.until = Some(at);
                }
            }
            other => {
                return Err(ApiError::format(
                    other,
                    format!(
                    "unknown parameter '{other}': the report takes tpp, since, until and journey"
                ),
                ))
            }
        }
    }
    if ask.tpp.is_none() && ask.journey.is_none() {
        return Err(ApiError::query_parameter_required("tpp").with_messages([
            xs2a_core::domain::refusal::TppMessage::warning(
                xs2a_core::domain::refusal::Code::QueryParameterRequired,
                Some("tpp"),
                "Name the TPP by its certificate's organisation identifier (GET /workbench/api/conformance/tpps lists them), or a journey.",
            ),
        ]));
    }
    if let (Some(since), Some(until)) = (ask.since, ask.until) {
        if since > until {
            return Err(ApiError::format("since", "since is after until"));
        }
    }
    Ok(ask)
}

/// The report `query` asks for.
async fn graded(state: &AppState, query: Option<String>) -> ApiResult<Report> {
    let ask = ask_of(query.as_deref())?;
    if let Some(journey) = &ask.journey {
        if state.traffic.journey(journey).is_none() {
            return Err(ApiError::unknown("journey", "journey", journey));
        }
    }
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
async fn report(
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
async fn junit(State(state): State<AppState>, RawQuery(query): RawQuery) -> ApiResult<Response> {
    let report = graded(&state, query).await?;
    Ok(file(
        xs2a_workbench::conformance::junit::report(&report),
        "application/xml; charset=utf-8",
        "conformance.junit.xml",
    ))
}

/// 200: the report as one self-contained HTML page.
async fn html(State(state): State<AppState>, RawQuery(query): RawQuery) -> ApiResult<Response> {
    let report = graded(&state, query).await?;
    Ok(file(
        xs2a_workbench::conformance::html::report(&report),
        "text/html; charset=utf-8",
        "conformance.html",
    ))
}

/// 200: the TPPs with exchanges in the traffic log, the most recently active first.
async fn tpps(State(state): State<AppState>) -> ApiResult<Json<Vec<TppSeen>>> {
    let traffic = state.traffic.clone();
    let seen = tokio::task::spawn_blocking(move || select::tpps(&traffic))
        .await
        .map_err(ApiError::internal)??;
    Ok(Json(seen))
}

const PARAMS: &[Param] = &[
    Param::query(
        "tpp",
        "string",
        "The TPP's certificate organisation identifier (required unless journey is given).",
    ),
    Param::query(
        "since",
        "string",
        "Only exchanges at or after this sandbox-clock time (RFC 3339).",
    ),
    Param::query(
        "until",
        "string",
        "Only exchanges at or before this sandbox-clock time (RFC 3339).",
    ),
    Param::query(
        "journey",
        "string",
        "Only this journey's exchanges (e.g. payment:3f2…).",
    ),
];

/// A conformance report operation: tagged Conformance, under the operator credential.
fn report_op<'d>(op: Operation<'d>, summary: &str) -> Operation<'d> {
    op.tag("Conformance").summary(summary).operator()
}

/// The routes under `/workbench/api`, each with its OpenAPI description.
pub fn routes() -> Routes {
    Routes::new()
        .get("/conformance", report, |op| {
            report_op(op, "The conformance report of a TPP's traffic")
                .description("Pre-flight checks, then every rule by group with its verdict, evidence (exchange ids for the inspector, journeys for the flow view) and what production does (docs/conformance.md).")
                .params(PARAMS)
                .answers::<Report>(200, "The report")
                .refusals(&[400, 401, 404])
        })
        .get("/conformance/junit", junit, |op| {
            report_op(op, "The same report as JUnit XML")
                .params(PARAMS)
                .answers_with(
                    200,
                    "One test suite per group, one test case per rule",
                    "application/xml",
                    json!({"type": "string"}),
                )
                .refusals(&[400, 401, 404])
        })
        .get("/conformance/html", html, |op| {
            report_op(op, "The same report as a self-contained HTML page")
                .params(PARAMS)
                .answers_with(
                    200,
                    "A printable page (inline CSS, no scripts)",
                    "text/html",
                    json!({"type": "string"}),
                )
                .refusals(&[400, 401, 404])
        })
        .get("/conformance/tpps", tpps, |op| {
            report_op(op, "The TPPs the traffic log has seen")
                .answers_list::<TppSeen>(200, "Most recently active first")
                .refusals(&[401])
        })
}
