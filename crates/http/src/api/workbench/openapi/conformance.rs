//! The OpenAPI descriptions of the conformance report's routes (`api::workbench::routes` lists them).

use crate::api::openapi::builder::{Operation, Param};
use serde_json::json;
use xs2a_workbench::conformance::model::Report;
use xs2a_workbench::conformance::select::TppSeen;

/// The report's query parameters.
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

/// `GET /workbench/api/conformance`.
pub fn get_conformance(op: Operation<'_>) -> Operation<'_> {
    report_op(op, "The conformance report of a TPP's traffic")
                .description("Pre-flight checks, then every rule by group with its verdict, evidence (exchange ids for the inspector, journeys for the flow view) and what production does (docs/conformance.md).")
                .params(PARAMS)
                .answers::<Report>(200, "The report")
                .refusals(&[400, 401, 404])
}

/// `GET /workbench/api/conformance/junit`.
pub fn get_conformance_junit(op: Operation<'_>) -> Operation<'_> {
    report_op(op, "The same report as JUnit XML")
        .params(PARAMS)
        .answers_with(
            200,
            "One test suite per group, one test case per rule",
            "application/xml",
            json!({"type": "string"}),
        )
        .refusals(&[400, 401, 404])
}

/// `GET /workbench/api/conformance/html`.
pub fn get_conformance_html(op: Operation<'_>) -> Operation<'_> {
    report_op(op, "The same report as a self-contained HTML page")
        .params(PARAMS)
        .answers_with(
            200,
            "A printable page (inline CSS, no scripts)",
            "text/html",
            json!({"type": "string"}),
        )
        .refusals(&[400, 401, 404])
}

/// `GET /workbench/api/conformance/tpps`.
pub fn get_conformance_tpps(op: Operation<'_>) -> Operation<'_> {
    report_op(op, "The TPPs the traffic log has seen")
        .answers_list::<TppSeen>(200, "Most recently active first")
        .refusals(&[401])
}
