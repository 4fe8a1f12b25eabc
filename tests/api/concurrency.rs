//! Many writers at once never stop the server: 64 clients write mock data and payments, a set number of
//! writes each, against a data directory on disk while a probe calls `/health`; no answer is a 5xx, the
//! probe is answered throughout, and every write acknowledged with a 2xx is there afterwards. The load is
//! counted in writes, not seconds, so a slow machine does the same work, only longer.

use crate::helpers::{spawn_app_with, test_config};
use crate::pis_support::{kari, pay, transfer, OLA_CURRENT, STRAKS};
use serde_json::json;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xs2a_http::app::{AppConfig, DataDir};

const WRITERS: usize = 64;
/// Writes per writer: customers, transactions and payments in turn.
const WRITES_EACH: usize = 6;

/// What the writers were told was stored.
#[derive(Default)]
struct Acknowledged {
    customers: BTreeSet<String>,
    transactions: usize,
    payments: BTreeSet<String>,
}

/// A customer number of its own for each write: one birth date per (writer, write), from 1930 on.
fn customer_number(writer: usize, i: usize) -> String {
    let birth =
        time::macros::date!(1930 - 01 - 01) + time::Duration::days((writer * 250 + i % 250) as i64);
    (0..1000)
        .find_map(|n| xs2a_core::domain::NationalId::synthetic(birth, n + (i / 250) as u16))
        .expect("some individual number gives valid check digits")
        .as_str()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixty_four_writers_at_once_never_hang_the_server_or_lose_a_write() {
    let dir = tempfile::tempdir().unwrap();
    let app = Arc::new(
        spawn_app_with(AppConfig {
            data: DataDir::At(dir.path().to_owned()),
            ..test_config()
        })
        .await,
    );
    let account = crate::pis_support::customers(&app).await[0]["accounts"][0]["id"]
        .as_str()
        .expect("the seed's first customer has an account")
        .to_owned();
    let payer = Arc::new(kari(&app).await);
    let acknowledged = Arc::new(Mutex::new(Acknowledged::default()));
    let running = Arc::new(AtomicBool::new(true));

    let probe = {
        let (app, running) = (app.clone(), running.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            // How often it was answered, and the slowest answer (reported, not judged: a loaded machine
            // is slow, a hung server never answers).
            let (mut answered, mut slowest) = (0, Duration::ZERO);
            loop {
                let sent = Instant::now();
                let answer = client
                    .get(format!("{}/health", app.base))
                    .send()
                    .await
                    .expect("/health is reachable");
                assert_eq!(answer.status(), 200);
                answered += 1;
                slowest = slowest.max(sent.elapsed());
                if !running.load(Ordering::SeqCst) {
                    break;
                }
                tokio::task::yield_now().await;
            }
            (answered, slowest)
        })
    };

    let mut writers = Vec::new();
    for w in 0..WRITERS {
        let (app, acknowledged, payer, account) = (
            app.clone(),
            acknowledged.clone(),
            payer.clone(),
            account.clone(),
        );
        writers.push(tokio::spawn(async move {
            for i in 0..WRITES_EACH {
                match (w + i) % 3 {
                    0 => {
                        let number = customer_number(w, i);
                        let response = app
                            .post(
                                "/v1/sandbox/customers",
                                &json!({"customerNumber": number, "name": "Samtidig Sara", "type": "private"}),
                            )
                            .send()
                            .await;
                        assert!(response.status < 500, "{}", response.body);
                        if response.status == 201 {
                            acknowledged.lock().unwrap().customers.insert(number);
                        }
                    }
                    1 => {
                        let response = app
                            .post(
                                &format!("/v1/sandbox/accounts/{account}/transactions"),
                                &json!([{"amount": -100, "currency": "NOK", "bookingDate": "2026-06-01",
                                         "valueDate": "2026-06-01", "remittanceInformationUnstructured": format!("w{w} i{i}"),
                                         "creditorName": "Butikk", "debtorName": "Kari"}]),
                            )
                            .send()
                            .await;
                        assert!(response.status < 500, "{}", response.body);
                        if response.status == 201 {
                            acknowledged.lock().unwrap().transactions += 1;
                        }
                    }
                    _ => {
                        let body = transfer("1.00", OLA_CURRENT, json!({"remittanceInformationUnstructured": format!("w{w} i{i}")}));
                        let response = pay(&app, &payer, STRAKS, &body).send().await;
                        assert!(response.status < 500, "{}", response.body);
                        if response.status == 201 {
                            let id = response.body["paymentId"].as_str().unwrap().to_owned();
                            acknowledged.lock().unwrap().payments.insert(id);
                        }
                    }
                }
            }
        }));
    }
    for writer in writers {
        writer.await.expect("a writer saw no 5xx");
    }
    running.store(false, Ordering::SeqCst);
    let (answered, slowest_health) = probe.await.unwrap();
    assert!(answered > 0, "/health was answered while the writers ran");

    let acknowledged = std::mem::take(&mut *acknowledged.lock().unwrap());
    assert!(
        acknowledged.customers.len() + acknowledged.transactions + acknowledged.payments.len()
            > 100,
        "the load wrote something"
    );
    let stored: BTreeSet<String> = crate::pis_support::customers(&app)
        .await
        .iter()
        .filter_map(|c| c["customerNumber"].as_str().map(str::to_owned))
        .collect();
    assert!(acknowledged.customers.is_subset(&stored));
    let listed = app
        .get(&format!(
            "/v1/sandbox/accounts/{account}/transactions?limit=100000"
        ))
        .send()
        .await;
    let ours = listed
        .body
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            t["remittanceInformationUnstructured"]
                .as_str()
                .unwrap_or("")
                .starts_with('w')
        })
        .count();
    assert_eq!(ours, acknowledged.transactions);
    for id in &acknowledged.payments {
        let status = payer
            .get(&app, &format!("{STRAKS}/{id}/status"))
            .send()
            .await;
        assert_eq!(status.status, 200, "payment {id}: {}", status.body);
    }
    println!(
        "{} customers, {} transactions, {} payments acknowledged; slowest /health {:?}",
        acknowledged.customers.len(),
        acknowledged.transactions,
        acknowledged.payments.len(),
        slowest_health
    );
}
