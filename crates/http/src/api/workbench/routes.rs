//! Every route of the workbench API (`/workbench/api`, docs/workbench-api.md), in one table: its method,
//! path, handler and OpenAPI description (each description a function of the area's `openapi` module).
//! The mock-data and control endpoints of `/v1/sandbox` are served here too, with the operator
//! credential in place of a signature: they are declared once, beside their `/v1` routes
//! (`api::sandbox::openapi::workbench`).

use super::{
    callback, composer, conformance, currencies, fixtures, gate, openapi, personas, psu_browser,
    rewind, session, verify,
};
use crate::api::openapi::routes::Routes;
use crate::api::{rehearsal, traffic};

/// The workbench API's routes (relative to `/workbench/api`), one line each: method, path, handler,
/// description.
#[rustfmt::skip]
pub(super) fn routes() -> Routes {
    Routes::new()
        .get("/session", session::session, openapi::get_session)
        .get("/events", crate::api::sandbox::events::stream, openapi::get_events)
        .get("/currencies", currencies::list, openapi::get_currencies)
        .get("/personas", personas::list, openapi::get_personas)
        .post("/personas", personas::issue, openapi::post_personas)
        .post("/personas/import", personas::import, openapi::post_personas_import)
        .patch("/personas/{id}", personas::patch, openapi::patch_personas_id)
        .delete("/personas/{id}", personas::delete, openapi::delete_personas_id)
        .get("/personas/{id}/certificate", personas::certificate, openapi::get_personas_id_certificate)
        .get("/personas/{id}/cert-dir", personas::cert_dir, openapi::get_personas_id_cert_dir)
        .get("/sca/callbacks", callback::list, openapi::get_sca_callbacks)
        .get("/sca/pending", callback::pending, openapi::get_sca_pending)
        .get("/sca/finished", callback::finished, openapi::get_sca_finished)
        .get("/operations", composer::operations, openapi::get_operations)
        .post("/compose/preview", composer::preview, openapi::post_compose_preview)
        .post("/compose/send", composer::send, openapi::post_compose_send)
        .get("/compose/history", composer::history_list, openapi::get_compose_history)
        .get("/compose/history/{id}", composer::history_entry, openapi::get_compose_history_id)
        .post("/compose/export", composer::export, openapi::post_compose_export)
        .get("/gate", gate::gate, openapi::get_gate)
        .post("/verify", verify::verify, openapi::post_verify)
        .get("/state", fixtures::export, openapi::get_state)
        .post("/state", fixtures::import, openapi::post_state)
        .get("/journeys/{id}/flow", fixtures::journey_flow, openapi::get_journeys_id_flow)
        .get("/snapshots", fixtures::snapshots, openapi::get_snapshots)
        .get("/snapshots/{name}", fixtures::download, openapi::get_snapshots_name)
        .put("/snapshots/{name}", fixtures::take, openapi::put_snapshots_name)
        .delete("/snapshots/{name}", fixtures::delete, openapi::delete_snapshots_name)
        .post("/snapshots/{name}/restore", fixtures::restore, openapi::post_snapshots_name_restore)
        .get("/snapshots/{name}/flow", fixtures::flow_since, openapi::get_snapshots_name_flow)
        .merge(crate::api::sandbox::workbench())
        .get("/traffic/{id}/changes", rewind::changes, openapi::rewind::get_traffic_id_changes)
        .post("/rewind", rewind::rewind_to, openapi::rewind::post_rewind)
        .get("/rewind/preview", rewind::preview, openapi::rewind::get_rewind_preview)
        .get("/state/at/{id}", rewind::state_at, openapi::rewind::get_state_at_id)
        .get("/state/compare", rewind::compare, openapi::rewind::get_state_compare)
        .get("/journeys/{id}/restart", rewind::restart_plan, openapi::rewind::get_journeys_id_restart)
        .post("/journeys/{id}/restart", rewind::restart, openapi::rewind::post_journeys_id_restart)
        .post("/sca/page", psu_browser::page, openapi::post_sca_page)
        .get("/traffic", traffic::handlers::page, traffic::openapi::get_traffic)
        .delete("/traffic", traffic::handlers::clear, traffic::openapi::delete_traffic)
        .get("/traffic/stream", traffic::handlers::stream, traffic::openapi::get_traffic_stream)
        .get("/traffic/settings", traffic::handlers::settings, traffic::openapi::get_traffic_settings)
        .put("/traffic/settings", traffic::handlers::set_settings, traffic::openapi::put_traffic_settings)
        .get("/traffic/{id}", traffic::handlers::one, traffic::openapi::get_traffic_id)
        .get("/traffic/{id}/har", traffic::handlers::har, traffic::openapi::get_traffic_id_har)
        .get("/journeys", traffic::handlers::journeys, traffic::openapi::get_journeys)
        .get("/journeys/{id}", traffic::handlers::journey, traffic::openapi::get_journeys_id)
        .get("/profile", rehearsal::profile::get, rehearsal::openapi::get_profile)
        .put("/profile", rehearsal::profile::put, rehearsal::openapi::put_profile)
        .get("/faults", rehearsal::faults::get, rehearsal::openapi::get_faults)
        .put("/faults", rehearsal::faults::put, rehearsal::openapi::put_faults)
        .delete("/faults", rehearsal::faults::clear, rehearsal::openapi::delete_faults)
        .get("/faults/presets", rehearsal::faults::presets, rehearsal::openapi::get_faults_presets)
        .post("/faults/rules", rehearsal::faults::add_rule, rehearsal::openapi::post_faults_rules)
        .get("/register", rehearsal::register::list, rehearsal::openapi::get_register)
        .patch("/register/{organisationId}", rehearsal::register::change, rehearsal::openapi::patch_register_organisationid)
        .patch("/faults/rules/{id}", rehearsal::faults::patch_rule, rehearsal::openapi::patch_faults_rules_id)
        .delete("/faults/rules/{id}", rehearsal::faults::delete_rule, rehearsal::openapi::delete_faults_rules_id)
        .get("/conformance", conformance::report, openapi::conformance::get_conformance)
        .get("/conformance/junit", conformance::junit, openapi::conformance::get_conformance_junit)
        .get("/conformance/html", conformance::html, openapi::conformance::get_conformance_html)
        .get("/conformance/tpps", conformance::tpps, openapi::conformance::get_conformance_tpps)
}
