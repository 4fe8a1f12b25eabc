//! The profile setting (docs/rehearsal.md): set by `serve --profile` (the config), the workbench API,
//! shown in the session; under production `/v1/sandbox` answers 404 but to the operator, the workbench
//! API keeps editing mock data, and the known issues are on whatever the settings say.

use crate::helpers::{spawn_app, spawn_app_with, test_config, workbench_api, TestApp};
use reqwest::Method;
use serde_json::json;
use xs2a_core::bank::rehearsal::Profile;

async fn production() -> TestApp {
    let mut config = test_config();
    config.profile = Some(Profile::Production);
    spawn_app_with(config).await
}

#[tokio::test]
async fn the_sandbox_endpoints_answer_404_under_production_as_an_unknown_path() {
    let app = production().await;
    for path in [
        "/v1/sandbox/customers",
        "/api-sandbox/v1/sandbox/customers",
        "/v1/sandbox/settings",
    ] {
        let response = app.get(path).send().await;
        response.assert_refused(404, "NOT_FOUND", None);
        let unknown = app
            .get(&path.replace("sandbox/", "nothing-here/"))
            .send()
            .await;
        unknown.assert_refused(404, "NOT_FOUND", None);
    }
}

#[tokio::test]
async fn the_operator_still_reaches_the_sandbox_endpoints_under_production() {
    let app = production().await;
    let token = app.app.operator_token().to_owned();
    let response = app
        .get("/v1/sandbox/customers")
        .header("Authorization", &format!("Bearer {token}"))
        .send()
        .await;
    response.assert_ok();
}

#[tokio::test]
async fn the_workbench_api_switches_the_profile_and_back() {
    let app = spawn_app().await;
    let (_, session) = workbench_api(&app, Method::GET, "/session", None).await;
    assert_eq!(session["profile"], "sandbox");
    app.get("/v1/sandbox/customers").send().await.assert_ok();

    let (status, body) = workbench_api(
        &app,
        Method::PUT,
        "/profile",
        Some(json!({"profile": "production"})),
    )
    .await;
    assert_eq!(
        (status.as_u16(), &body["profile"]),
        (200, &json!("production"))
    );
    let (_, session) = workbench_api(&app, Method::GET, "/session", None).await;
    assert_eq!(session["profile"], "production");
    app.get("/v1/sandbox/customers")
        .send()
        .await
        .assert_refused(404, "NOT_FOUND", None);
    // The workbench API keeps editing mock data, so that a rehearsal can be staged.
    let (status, _) = workbench_api(&app, Method::GET, "/sandbox/customers", None).await;
    assert_eq!(status.as_u16(), 200);

    workbench_api(
        &app,
        Method::PUT,
        "/profile",
        Some(json!({"profile": "sandbox"})),
    )
    .await;
    app.get("/v1/sandbox/customers").send().await.assert_ok();
}

#[tokio::test]
async fn an_unknown_profile_is_refused() {
    let app = spawn_app().await;
    let (status, body) = workbench_api(
        &app,
        Method::PUT,
        "/profile",
        Some(json!({"profile": "staging"})),
    )
    .await;
    assert_eq!(status.as_u16(), 400, "{body}");
}

#[tokio::test]
async fn the_profile_is_stored() {
    let app = production().await;
    assert_eq!(
        xs2a_core::bank::rehearsal::profile::load(&app.state.store).unwrap(),
        Profile::Production
    );
}

#[tokio::test]
async fn known_issues_are_on_under_production_whatever_the_settings_say() {
    let app = spawn_app().await;
    let (status, _) = workbench_api(
        &app,
        Method::PUT,
        "/sandbox/settings",
        Some(json!({"reproduceDomesticReadBeforeApprovalIssue": false, "reproducePendingTransactionsIssue": false})),
    )
    .await;
    assert_eq!(status.as_u16(), 200);
    let store = &app.state.store;
    let off = xs2a_core::bank::pis::settings::in_effect(store).unwrap();
    assert!(
        !off.reproduce_domestic_read_before_approval_issue
            && !off.reproduce_pending_transactions_issue
    );
    workbench_api(
        &app,
        Method::PUT,
        "/profile",
        Some(json!({"profile": "production"})),
    )
    .await;
    let on = xs2a_core::bank::pis::settings::in_effect(store).unwrap();
    assert!(
        on.reproduce_domestic_read_before_approval_issue && on.reproduce_pending_transactions_issue
    );
}
