//! A 2xx means the data is on disk: a child server is killed with SIGKILL in the middle of a write load,
//! restarted on the same data directory, and every write it had acknowledged must still be there. So is
//! what a refusal wrote for the client to act on: the authorisation of the 401 that starts an SCA.

use crate::cli::start_server;
use axum::http::HeaderMap;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use time::macros::date;
use xs2a_core::domain::NationalId;
use xs2a_core::signing::signer::SignOptions;

fn synthetic_ids(count: usize) -> Vec<String> {
    (0u16..)
        .filter_map(|n| {
            NationalId::synthetic(
                date!(1980 - 01 - 01) + time::Duration::days((n / 400) as i64),
                n % 400,
            )
        })
        .map(|id| id.as_str().to_owned())
        .take(count)
        .collect()
}

pub(crate) async fn signed_post(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    body: &serde_json::Value,
) -> reqwest::Result<reqwest::Response> {
    let bytes = serde_json::to_vec(body).unwrap();
    let mut headers = HeaderMap::new();
    headers.insert("content-type", "application/json".parse().unwrap());
    crate::helpers::tpp("aisp-pisp").sign(
        "POST",
        path,
        &mut headers,
        &bytes,
        time::OffsetDateTime::now_utc(),
        &SignOptions::default(),
    );
    client
        .post(format!("{base}{path}"))
        .headers(headers)
        .body(bytes)
        .send()
        .await
}

/// A request without a body, signed by the bundled AISP+PISP test TPP, to a child server.
pub(crate) async fn signed_bodiless(
    client: &reqwest::Client,
    method: reqwest::Method,
    base: &str,
    path: &str,
) -> reqwest::Response {
    let mut headers = HeaderMap::new();
    crate::helpers::tpp("aisp-pisp").sign(
        method.as_str(),
        path,
        &mut headers,
        b"",
        time::OffsetDateTime::now_utc(),
        &SignOptions::default(),
    );
    client
        .request(method, format!("{base}{path}"))
        .headers(headers)
        .send()
        .await
        .unwrap()
}

pub(crate) async fn signed_get(
    client: &reqwest::Client,
    base: &str,
    path: &str,
) -> serde_json::Value {
    let response = signed_bodiless(client, reqwest::Method::GET, base, path).await;
    let status = response.status();
    let body = response.text().await.unwrap();
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_write_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, base) = start_server(dir.path(), &[]);
    let client = reqwest::Client::new();
    let ids = Arc::new(Mutex::new(synthetic_ids(2000)));
    let acknowledged = Arc::new(Mutex::new(BTreeSet::new()));

    let mut writers = Vec::new();
    for _ in 0..8 {
        let (client, base, ids, acknowledged) = (
            client.clone(),
            base.clone(),
            ids.clone(),
            acknowledged.clone(),
        );
        writers.push(tokio::spawn(async move {
            loop {
                let Some(id) = ids.lock().unwrap().pop() else { break };
                let body = serde_json::json!({"customerNumber": id, "name": "Durable Dora", "type": "private"});
                match signed_post(&client, &base, "/v1/sandbox/customers", &body).await {
                    Ok(response) if response.status().is_success() => {
                        acknowledged.lock().unwrap().insert(id);
                    }
                    Ok(response) => panic!("unexpected refusal: {}", response.text().await.unwrap()),
                    Err(_) => break, // the server is gone
                }
            }
        }));
    }
    // Let the load run until 60 writes are acknowledged, then pull the plug mid-flight. Counted, not
    // timed: the writers only end when the server stops answering (or they run out of ids).
    while acknowledged.lock().unwrap().len() < 60 {
        assert!(
            !writers.iter().all(|w| w.is_finished()),
            "the writers ended with {} writes acknowledged",
            acknowledged.lock().unwrap().len()
        );
        // A pause between looks, so as not to spin; it bounds nothing.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    for writer in writers {
        writer.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() >= 60);

    let (mut restarted, base) = start_server(dir.path(), &[]);
    let customers = signed_get(&client, &base, "/v1/sandbox/customers").await;
    let stored: BTreeSet<String> = customers
        .as_array()
        .expect("a list of customers")
        .iter()
        .filter_map(|c| c["customerNumber"].as_str().map(str::to_owned))
        .collect();
    let lost: Vec<&String> = acknowledged.difference(&stored).collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged customers lost: {lost:?}",
        lost.len(),
        acknowledged.len()
    );
    restarted.kill().unwrap();
    restarted.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_authorisation_a_401_starts_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    let (mut server, base) = start_server(dir.path(), &[]);
    // No consent yet: 401 with the scaRedirect of the authorisation it created.
    let mut headers = axum::http::HeaderMap::new();
    headers.insert(
        "tpp-redirect-uri",
        "https://tpp.example/cb".parse().unwrap(),
    );
    headers.insert("tpp-session-id", "s-1".parse().unwrap());
    headers.insert("psu-ip-address", "192.0.2.1".parse().unwrap());
    crate::helpers::tpp("aisp-pisp").sign(
        "GET",
        "/v1/accounts",
        &mut headers,
        b"",
        time::OffsetDateTime::now_utc(),
        &xs2a_core::signing::signer::SignOptions::default(),
    );
    let response = client
        .get(format!("{base}/v1/accounts"))
        .headers(headers)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    let body: serde_json::Value = response.json().await.unwrap();
    let href = body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no scaRedirect in {body}"))
        .to_owned();
    server.kill().unwrap(); // SIGKILL right after the answer
    server.wait().unwrap();

    let (mut server, restarted) = start_server(dir.path(), &[]);
    let path = &href[href.find("/sca/").expect("an SCA page link")..];
    let page = client
        .get(format!("{restarted}{path}"))
        .send()
        .await
        .unwrap();
    let status = page.status();
    let text = page.text().await.unwrap();
    assert_eq!(
        status, 200,
        "the SCA page of the 401's authorisation is gone: {text}"
    );
    assert!(!text.contains("SCA_NOT_FOUND"), "{text}");
    server.kill().unwrap();
    server.wait().unwrap();
}
