//! Rewind in the workbench API (docs/rewind.md): a recorded session's state exported after each of its
//! exchanges while it happened is the state the journal gives at that exchange, and the state the sandbox
//! returns to when rewound there, in a random order of rewinds (back and forth: a rewind is undone by
//! rewinding to before it); what an exchange changed; and every refusal with its status and code.

use crate::helpers::{spawn_app, workbench_api as call, TestApp};
use crate::pis_support::KARI;
use reqwest::Method;
use serde_json::{json, Value};

async fn state(app: &TestApp) -> Value {
    let (status, body) = call(app, Method::GET, "/state", None).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The batch scheduler's first marker is written when the service starts serving, before it answers
/// anything: after an answer, nothing but the test writes.
pub(crate) async fn settle(app: &TestApp) {
    assert!(
        state(app).await["trees"]["batch-schedule"]
            .as_array()
            .is_some_and(|m| !m.is_empty()),
        "the batch scheduler wrote no marker before serving"
    );
}

/// The id of the newest exchange once the log holds `count` of them.
pub(crate) async fn newest_exchange(app: &TestApp, count: usize) -> u64 {
    app.when_logged(|| async move {
        let (_, page) = call(
            app,
            Method::GET,
            &format!("/traffic?kind=exchange&limit={count}"),
            None,
        )
        .await;
        let found = page["entries"].as_array().cloned().unwrap_or_default();
        (found.len() >= count).then(|| found[0]["id"].as_u64().unwrap())
    })
    .await
}

/// One write of the session: a signed request to the mock-data API (one exchange). `account`: the
/// account the step before created, which a transaction step books on.
async fn step(app: &TestApp, i: usize, account: &mut Option<String>) {
    let response = match i % 4 {
        0 => {
            let number = format!("9140{:05}", 10 + i);
            app.post(
                "/v1/sandbox/customers",
                &json!({"customerNumber": corporate_number(&number), "name": format!("Firma {i} AS"), "type": "corporate"}),
            )
            .send()
            .await
        }
        1 => {
            let created = app.post(
                "/v1/sandbox/accounts",
                &json!({"customerNumber": KARI, "accountName": format!("Konto {i}"), "bban": bban(i), "currency": "NOK",
                        "balances": [{"balanceType": "interimAvailable", "balanceAmount": {"amount": "1000.00", "currency": "NOK"}}]}),
            )
            .send()
            .await;
            *account = created.body["id"].as_str().map(str::to_owned);
            created
        }
        2 => {
            let id = account.clone().expect("the account of the step before");
            app.post(
                &format!("/v1/sandbox/accounts/{id}/transactions"),
                &json!([{"amount": format!("-{i}.50"), "currency": "NOK", "bookingDate": "2026-05-30", "remittanceInformationUnstructured": format!("Kjøp {i}")}]),
            )
            .send()
            .await
        }
        _ => app.post("/v1/sandbox/initialize", &json!({})).send().await,
    };
    assert!(
        (200..300).contains(&response.status),
        "step {i}: {} {}",
        response.status,
        response.body
    );
}

/// A valid organisation number (mod 11) from the first eight digits of `base` (the last one moved until
/// the check digit exists).
fn corporate_number(base: &str) -> String {
    let weights = [3, 2, 7, 6, 5, 4, 3, 2];
    for bump in 0..10u32 {
        let mut digits: Vec<u32> = base[..8].chars().map(|c| c.to_digit(10).unwrap()).collect();
        digits[7] = (digits[7] + bump) % 10;
        let sum: u32 = digits.iter().zip(weights).map(|(d, w)| d * w).sum();
        let check = match 11 - sum % 11 {
            11 => 0,
            10 => continue,
            c => c,
        };
        return digits.iter().map(u32::to_string).collect::<String>() + &check.to_string();
    }
    unreachable!("one of ten last digits gives a check digit")
}

/// A valid BBAN (mod 11) of the bank's range for step `i`.
fn bban(i: usize) -> String {
    let weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    for bump in 0..100usize {
        let body = format!("1205150{:03}", (100 + i + bump * 37) % 1000);
        let sum: u32 = body
            .chars()
            .zip(weights)
            .map(|(c, w)| c.to_digit(10).unwrap() * w)
            .sum();
        match 11 - sum % 11 {
            11 => return body + "0",
            10 => continue,
            c => return body + &c.to_string(),
        }
    }
    unreachable!("a BBAN near step {i}")
}

/// A small deterministic generator (the seed is printed, so a failure can be replayed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[tokio::test]
async fn the_state_at_random_points_of_a_session_is_the_state_exported_there() {
    let app = spawn_app().await;
    settle(&app).await;
    let start = state(&app).await;
    // Each point: the exchange, and the state exported right after it.
    let mut points: Vec<(u64, Value)> = Vec::new();
    let mut account = None;
    for i in 0..10 {
        step(&app, i, &mut account).await;
        let id = newest_exchange(&app, i + 1).await;
        points.push((id, state(&app).await));
    }
    // The state at each point, computed from the live state without changing it.
    let live = state(&app).await;
    for (id, expected) in &points {
        let (status, at) = call(&app, Method::GET, &format!("/state/at/{id}"), None).await;
        assert_eq!(status, 200, "{at}");
        assert_eq!(&at, expected, "the state after exchange {id}");
    }
    let (status, at) = call(
        &app,
        Method::GET,
        &format!("/state/at/{}?position=before", points[0].0),
        None,
    )
    .await;
    assert_eq!((status.as_u16(), &at), (200, &start));
    assert_eq!(state(&app).await, live, "exporting changed nothing");

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    println!("rewind order seed {seed}");
    let mut random = Lcg(seed);
    let mut rewinds = Vec::new();
    for _ in 0..6 {
        let (id, expected) = &points[random.below(points.len())];
        let (status, rewound) = call(
            &app,
            Method::POST,
            "/rewind",
            Some(json!({"to": id, "position": "after"})),
        )
        .await;
        assert_eq!(status, 200, "{rewound}");
        assert_eq!(
            &state(&app).await,
            expected,
            "rewound to after {id} (seed {seed})"
        );
        rewinds.push(rewound["entry"].as_u64().expect("the rewind's own entry"));
    }
    // The last rewind undone: the state before it.
    let last = *rewinds.last().unwrap();
    let before_last = {
        let (status, at) = call(
            &app,
            Method::GET,
            &format!("/state/at/{last}?position=before"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{at}");
        at
    };
    let (status, body) = call(
        &app,
        Method::POST,
        "/rewind",
        Some(json!({"to": last, "position": "before"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(state(&app).await, before_last);
    // Back to where the session ended, through every rewind.
    let (status, body) = call(
        &app,
        Method::POST,
        "/rewind",
        Some(json!({"to": rewinds[0], "position": "before"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(state(&app).await, live, "the session's end (seed {seed})");
}

#[tokio::test]
async fn an_exchange_shows_what_it_created_and_changed_and_two_points_compare() {
    let app = spawn_app().await;
    settle(&app).await;
    step(&app, 1, &mut None).await;
    let created = newest_exchange(&app, 1).await;
    let (status, changes) = call(
        &app,
        Method::GET,
        &format!("/traffic/{created}/changes"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{changes}");
    assert_eq!(changes["entry"], created);
    let resources = changes["resources"].as_array().unwrap();
    let account = resources
        .iter()
        .find(|r| r["resource"] == "account")
        .expect("the account");
    assert_eq!(
        (account["change"].as_str(), account["internal"].as_bool()),
        (Some("created"), Some(false))
    );
    assert_eq!(account["after"]["name"], "Konto 1");
    // A read changes nothing.
    app.get("/v1/sandbox/customers").send().await.assert_ok();
    let read = newest_exchange(&app, 2).await;
    let (_, nothing) = call(&app, Method::GET, &format!("/traffic/{read}/changes"), None).await;
    assert_eq!(
        (
            nothing["commits"].as_u64(),
            nothing["resources"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    // Compared: the state before the account and after it differ by the account (and its bookkeeping).
    let (status, compared) = call(
        &app,
        Method::GET,
        &format!("/state/compare?a={created}&aPosition=before&b={read}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{compared}");
    let differing: Vec<&str> = compared["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["internal"] == false)
        .map(|r| r["resource"].as_str().unwrap())
        .collect();
    // The account, and the TPP the simulated central register first saw with that request.
    assert_eq!(differing, ["account", "registered-tpp"], "{compared}");
}

#[tokio::test]
async fn every_refusal_says_its_status_and_code() {
    let app = spawn_app().await;
    settle(&app).await;
    step(&app, 1, &mut None).await;
    let id = newest_exchange(&app, 1).await;
    let refused = |status: u16, code: &str, body: &Value| {
        let messages = body["tppMessages"].as_array().expect("tppMessages");
        assert_eq!(messages[0]["code"], code, "{body}");
        status
    };
    // Unknown entries.
    for path in ["/traffic/999999/changes", "/state/at/999999"] {
        let (status, body) = call(&app, Method::GET, path, None).await;
        assert_eq!(
            refused(status.as_u16(), "RESOURCE_UNKNOWN", &body),
            404,
            "{path}"
        );
    }
    let (status, body) = call(
        &app,
        Method::POST,
        "/rewind",
        Some(json!({"to": 999999, "position": "after"})),
    )
    .await;
    assert_eq!(refused(status.as_u16(), "RESOURCE_UNKNOWN", &body), 404);
    let (status, body) = call(
        &app,
        Method::GET,
        &format!("/state/compare?a={id}&b=999999"),
        None,
    )
    .await;
    assert_eq!(refused(status.as_u16(), "RESOURCE_UNKNOWN", &body), 404);
    // Bad input.
    let (status, body) = call(
        &app,
        Method::POST,
        "/rewind",
        Some(json!({"to": id, "position": "sideways"})),
    )
    .await;
    assert_eq!(refused(status.as_u16(), "FORMAT_ERROR", &body), 400);
    let (status, body) = call(
        &app,
        Method::GET,
        &format!("/state/at/{id}?position=middle"),
        None,
    )
    .await;
    assert_eq!(refused(status.as_u16(), "FORMAT_ERROR", &body), 400);
    let (status, body) = call(&app, Method::GET, &format!("/state/compare?a={id}"), None).await;
    assert_eq!(
        refused(status.as_u16(), "QUERY_PARAMETER_REQUIRED", &body),
        400
    );
    let (status, body) = call(
        &app,
        Method::GET,
        &format!("/state/compare?a={id}&b={id}&c=1"),
        None,
    )
    .await;
    assert_eq!(refused(status.as_u16(), "FORMAT_ERROR", &body), 400);
    // A restart of an unknown journey, and of an exchange not in the journey.
    let (status, body) = call(
        &app,
        Method::POST,
        "/journeys/nope/restart",
        Some(json!({"from": id})),
    )
    .await;
    assert_eq!(refused(status.as_u16(), "RESOURCE_UNKNOWN", &body), 404);
    let (status, body) = call(
        &app,
        Method::POST,
        "/journeys/nope/restart",
        Some(json!({"from": id, "paceMs": 20000})),
    )
    .await;
    assert_eq!(refused(status.as_u16(), "FORMAT_ERROR", &body), 400);
}

#[tokio::test]
async fn without_the_journal_the_sandbox_refuses_with_409() {
    let mut config = crate::helpers::test_config();
    config.journal = false;
    let app = crate::helpers::spawn_app_with(config).await;
    settle(&app).await;
    step(&app, 1, &mut None).await;
    let id = newest_exchange(&app, 1).await;
    let (status, body) = call(
        &app,
        Method::POST,
        "/rewind",
        Some(json!({"to": id, "position": "before"})),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["tppMessages"][0]["code"], "CONFLICT");
    assert!(body["tppMessages"][0]["text"]
        .as_str()
        .unwrap()
        .contains("--no-journal"));
    let (status, body) = call(&app, Method::GET, &format!("/traffic/{id}/changes"), None).await;
    assert_eq!(
        (status.as_u16(), body["tppMessages"][0]["code"].as_str()),
        (409, Some("CONFLICT"))
    );
}

/// The exchanges a data directory got while the sandbox ran with `--no-journal` stay on the timeline
/// after a restart with the journal on, but the journal never saw what they did: rewinding to before one
/// of them (or asking for its changes or its state) is refused with 409 CONFLICT, naming the oldest
/// point it can return to, and nothing changes. The point after it, the journal's first, is reachable.
#[tokio::test]
async fn a_point_beyond_the_journals_reach_is_refused_with_409() {
    let dir = tempfile::tempdir().unwrap();
    let config = |journal: bool| xs2a_http::app::AppConfig {
        data: xs2a_http::app::DataDir::At(dir.path().to_owned()),
        journal,
        ..crate::helpers::test_config()
    };
    let unseen = {
        let app = crate::helpers::spawn_app_with(config(false)).await;
        settle(&app).await;
        step(&app, 0, &mut None).await;
        let id = newest_exchange(&app, 1).await;
        app.app.close().unwrap();
        id
    };
    let app = crate::helpers::spawn_app_with(config(true)).await;
    step(&app, 1, &mut None).await;
    let seen = newest_exchange(&app, 2).await;
    assert!(seen > unseen);
    let live = state(&app).await;
    let beyond = |body: &Value| {
        let message = &body["tppMessages"][0];
        assert_eq!(message["code"], "CONFLICT", "{body}");
        let text = message["text"].as_str().unwrap();
        assert!(
            text.contains("beyond the journal's reach")
                && text.contains("the oldest point it can return to"),
            "{text}"
        );
    };
    for position in ["before", "after"] {
        let (status, body) = call(
            &app,
            Method::POST,
            "/rewind",
            Some(json!({"to": unseen, "position": position})),
        )
        .await;
        assert_eq!(status, 409, "{position}: {body}");
        beyond(&body);
        assert_eq!(body["tppMessages"][0]["path"], "to");
    }
    for path in [
        format!("/traffic/{unseen}/changes"),
        format!("/state/at/{unseen}?position=before"),
        format!("/state/compare?a={unseen}&b={seen}"),
    ] {
        let (status, body) = call(&app, Method::GET, &path, None).await;
        assert_eq!(status, 409, "{path}: {body}");
        beyond(&body);
    }
    assert_eq!(state(&app).await, live, "a refused rewind changes nothing");
    // The first exchange the journal saw is within reach: the state before it is the state at the
    // restart, which holds the customer the unseen exchange created.
    let (status, body) = call(
        &app,
        Method::POST,
        "/rewind",
        Some(json!({"to": seen, "position": "before"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let accounts = state(&app).await["trees"]["sandbox-accounts"].clone();
    assert_eq!(
        accounts.as_array().map(Vec::len),
        live["trees"]["sandbox-accounts"]
            .as_array()
            .map(|a| a.len() - 1),
        "the account the seen exchange created is gone"
    );
}

/// The trainer's "restart from this step": a paid instant payment's journey restarted from its creation
/// returns the sandbox to the state before the payment (the payment gone, the money back), then plays the
/// journey again — a new payment, its SCA, its booking — so that afterwards the sandbox holds one payment
/// of the amount, settled, booked once, as after the original journey.
#[tokio::test]
async fn restarting_a_journey_rewinds_to_the_step_and_runs_it_again() {
    use crate::helpers::complete_sca;
    use crate::pis_support::{kari, pay, transfer, OLA_CURRENT, STRAKS};
    let app = spawn_app().await;
    settle(&app).await;
    let tpp = kari(&app).await;
    let created = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("125.50", OLA_CURRENT, json!({})),
    )
    .send()
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let original = created.body["paymentId"].as_str().unwrap().to_owned();
    let href = created.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    app.client.get(&href).send().await.unwrap();
    complete_sca(&app, &href, json!({"nationalId": KARI})).await;
    let journey = settled_journey(&app, &format!("payment:{original}")).await;
    let first = journey["entries"][0]["id"].as_u64().unwrap();
    assert_eq!(journey["entries"][0]["method"], "POST", "{journey}");
    // The payment, stored in a compact binary form, is shown as its JSON.
    let (status, changes) = call(
        &app,
        Method::GET,
        &format!("/traffic/{first}/changes"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{changes}");
    let payment = changes["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resource"] == "payment")
        .unwrap_or_else(|| panic!("the payment created: {changes}"));
    assert_eq!(payment["change"], "created");
    assert_eq!(payment["after"]["id"], original.as_str(), "{payment}");
    let after_original = state(&app).await;
    let before_original = {
        let (status, at) = call(
            &app,
            Method::GET,
            &format!("/state/at/{first}?position=before"),
            None,
        )
        .await;
        assert_eq!(status, 200, "{at}");
        at
    };
    assert_ne!(
        before_original["trees"]["sandbox-accounts"], after_original["trees"]["sandbox-accounts"],
        "the payment moved money"
    );

    let (status, restart) = call(
        &app,
        Method::POST,
        &format!("/journeys/payment:{original}/restart"),
        Some(json!({"from": first, "paceMs": 0})),
    )
    .await;
    assert_eq!(status, 202, "{restart}");
    assert_eq!(restart["rewound"]["to"]["entry"], first);
    assert_eq!(restart["rewound"]["to"]["position"], "before");
    assert_eq!(
        restart["persona"], "Sandbox AISP PISP AS",
        "the bundled TPP's key"
    );
    assert!(
        !restart["steps"].as_array().unwrap().is_empty(),
        "{restart}"
    );

    // The re-run: a new payment of the journey's amount, settled.
    let original_id = original.clone();
    let again = app
        .when_logged(|| {
            let (app, original) = (&app, original_id.clone());
            async move {
                let (_, journeys) = call(app, Method::GET, "/journeys", None).await;
                journeys.as_array().unwrap().iter().find_map(|j| {
                    let id = j["id"].as_str()?.strip_prefix("payment:")?;
                    (id != original && j["status"] == "ACSC").then(|| id.to_owned())
                })
            }
        })
        .await;
    let now = state(&app).await;
    let payments = now["trees"]["payments"].as_array().unwrap();
    let ids: Vec<&str> = payments.iter().filter_map(|p| p["id"].as_str()).collect();
    assert!(
        !ids.contains(&original.as_str()),
        "the original payment was rewound away"
    );
    assert!(ids.contains(&again.as_str()), "{ids:?}");
    assert_eq!(
        payments.len(),
        after_original["trees"]["payments"]
            .as_array()
            .unwrap()
            .len(),
        "one payment, as after the original journey"
    );
    let replayed = payments.iter().find(|p| p["id"] == again).unwrap();
    assert_eq!(replayed["status"], "ACSC", "{replayed}");
    // Booked once: the balances are those the original journey left.
    assert_eq!(
        now["trees"]["sandbox-accounts"], after_original["trees"]["sandbox-accounts"],
        "the money moved once"
    );
}

/// The journey `id` once its payment settled (its status change arrives after its exchanges).
async fn settled_journey(app: &TestApp, id: &str) -> Value {
    let path = format!("/journeys/{id}");
    app.when_logged(|| {
        let path = path.clone();
        async move {
            let (status, found) = call(app, Method::GET, &path, None).await;
            (status == 200 && found["journey"]["status"] == "ACSC").then_some(found)
        }
    })
    .await
}
