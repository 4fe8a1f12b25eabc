//! The sandbox clock over HTTP, and the Date window once the clock has been moved.

use crate::helpers::{spawn_app, TEST_NOW};
use serde_json::json;
use time::{Duration, OffsetDateTime};

#[tokio::test]
async fn the_clock_can_be_read_set_and_advanced() {
    let app = spawn_app().await;
    let reading = app.get("/v1/sandbox/clock").send().await;
    assert_eq!(reading.body["mode"], "frozen");
    assert_eq!(reading.body["now"], "2026-06-01T12:00:00Z");

    let advanced = app
        .put("/v1/sandbox/clock", &json!({"advance": "P1DT2H"}))
        .send()
        .await;
    advanced.assert_ok();
    assert_eq!(advanced.body["now"], "2026-06-02T14:00:00Z");
    assert_eq!(app.state.clock.now(), TEST_NOW + Duration::hours(26));

    let set = app
        .put("/v1/sandbox/clock", &json!({"now": "2027-01-01T00:00:00Z"}))
        .send()
        .await;
    assert_eq!(set.body["now"], "2027-01-01T00:00:00Z");
}

#[tokio::test]
async fn a_bad_clock_change_is_refused_with_its_path() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/sandbox/clock", &json!({"advance": "one hour"}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("advance"));
    let response = app
        .put("/v1/sandbox/clock", &json!({"mode": "slow"}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("mode"));
    let response = app.put("/v1/sandbox/clock", &json!({})).send().await;
    response.assert_refused(400, "FORMAT_ERROR", None);
}

#[tokio::test]
async fn a_clock_moved_out_of_range_is_refused_and_the_server_keeps_working() {
    let app = spawn_app().await;
    let response = app
        .put("/v1/sandbox/clock", &json!({"advance": "P3000000D"}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("advance"));
    let response = app
        .put("/v1/sandbox/clock", &json!({"now": "1969-12-31T00:00:00Z"}))
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("now"));
    app.get("/v1/sandbox/clock").send().await.assert_ok();
    assert_eq!(app.state.clock.now(), TEST_NOW);
}

#[tokio::test]
async fn after_the_clock_moves_a_tpp_may_sign_with_its_machine_time_or_the_sandbox_time() {
    let app = spawn_app().await;
    app.put("/v1/sandbox/clock", &json!({"mode": "real"}))
        .send()
        .await
        .assert_ok();
    app.put("/v1/sandbox/clock", &json!({"advance": "PT2H"}))
        .send()
        .await
        .assert_ok();
    let machine = OffsetDateTime::now_utc();
    app.get("/v1/sandbox/clock")
        .signed_at(machine)
        .send()
        .await
        .assert_ok();
    app.get("/v1/sandbox/clock")
        .signed_at(machine + Duration::hours(2))
        .send()
        .await
        .assert_ok();
    let response = app
        .get("/v1/sandbox/clock")
        .signed_at(machine + Duration::hours(1))
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("Date"));
}
