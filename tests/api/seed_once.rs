//! The seed belongs to a new data directory, not to every start (issue 29): a fixture that starts from an
//! empty bank, and a sandbox whose user removed every customer, are served as they were left, across a
//! restart and kill -9; `POST /v1/sandbox/initialize` still brings the seed back.

use crate::cli::start_server;
use crate::durability::{signed_bodiless, signed_get, signed_post};
use serde_json::{json, Value};

const SEEDED_CUSTOMERS: usize = 5;

async fn customers(client: &reqwest::Client, base: &str) -> Vec<Value> {
    let listed = signed_get(client, base, "/v1/sandbox/customers").await;
    listed
        .as_array()
        .or_else(|| listed["customers"].as_array())
        .unwrap_or_else(|| panic!("no customer list in {listed}"))
        .clone()
}

async fn signed_delete(client: &reqwest::Client, base: &str, path: &str) -> u16 {
    signed_bodiless(client, reqwest::Method::DELETE, base, path)
        .await
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fixture_of_an_empty_bank_is_served_empty_across_restart_and_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let fixture = dir.path().join("empty.json");
    std::fs::write(
        &fixture,
        json!({"format": "xs2a-sandbox/state", "version": 2, "trees": {}}).to_string(),
    )
    .unwrap();
    let client = reqwest::Client::new();

    let (mut server, base) = start_server(&data, &["--fixture", fixture.to_str().unwrap()]);
    assert_eq!(
        customers(&client, &base).await.len(),
        0,
        "the fixture's empty bank, not the seed"
    );
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();

    // Started again without the fixture: the directory keeps the state the fixture gave it.
    let (mut server, base) = start_server(&data, &[]);
    assert_eq!(
        customers(&client, &base).await.len(),
        0,
        "seeded over the fixture at restart"
    );
    server.kill().unwrap();
    server.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bank_emptied_by_its_user_stays_empty_and_initialize_brings_the_seed_back() {
    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();

    // A new directory is seeded once.
    let (mut server, base) = start_server(dir.path(), &[]);
    let seeded = customers(&client, &base).await;
    assert_eq!(seeded.len(), SEEDED_CUSTOMERS);
    for customer in &seeded {
        let id = customer["id"].as_str().unwrap();
        let status = signed_delete(&client, &base, &format!("/v1/sandbox/customers/{id}")).await;
        assert_eq!(status, 204, "removing {customer}");
    }
    assert!(customers(&client, &base).await.is_empty());
    server.kill().unwrap(); // SIGKILL: the removals were acknowledged, so they are on disk
    server.wait().unwrap();

    // Restarted (twice: a clean stop between is no different from a kill): still the user's empty bank.
    for _ in 0..2 {
        let (mut server, base) = start_server(dir.path(), &[]);
        assert!(
            customers(&client, &base).await.is_empty(),
            "the seed came back at a restart over the user's deliberate emptiness"
        );
        server.kill().unwrap();
        server.wait().unwrap();
    }

    // The way to get the seed back is still there.
    let (mut server, base) = start_server(dir.path(), &[]);
    let response = signed_post(&client, &base, "/v1/sandbox/initialize", &json!({})).await;
    assert!(response.unwrap().status().is_success());
    assert_eq!(customers(&client, &base).await.len(), SEEDED_CUSTOMERS);
    server.kill().unwrap();
    server.wait().unwrap();
}
