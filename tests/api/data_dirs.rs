//! Data directories across versions (docs/data-directory.md). Every directory a release made and stored
//! under fixtures/data-dirs/ (scripts/make-data-fixture.sh) opens with this build — migrated when its
//! format is older — and holds, read through the API, everything its expected.json says the script made,
//! unchanged in meaning; then it is used as any directory is. A directory of a newer format is refused
//! with both versions named, and not a byte of it changes.

use crate::helpers::{spawn_app_with, workbench_api, TestApp, TppState};
use axum::http::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;
use xs2a_core::store::format::{self, FormatFile, APP_VERSION};
use xs2a_core::store::migrate::{self, fixture};
use xs2a_http::app::{App, AppConfig, ClockStart, DataDir};

/// The workbench API's answer, which must be 2xx.
async fn operator(app: &TestApp, path: &str) -> Value {
    let (status, body) = workbench_api(app, Method::GET, path, None).await;
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

/// `list` as a map by the string member `key` of each item.
fn by(key: &str, list: &Value) -> BTreeMap<String, Value> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|item| (item[key].as_str().unwrap().to_owned(), item.clone()))
        .collect()
}

/// Asserts that `actual` has every member `expected` has, with the same value; amounts (strings of
/// digits with a point) are compared as numbers, so `"250.0"` would still be `"250.00"`.
#[track_caller]
fn holds(what: &str, expected: &Value, actual: &Value) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, value) in e {
                holds(
                    &format!("{what}.{key}"),
                    value,
                    a.get(key).unwrap_or(&Value::Null),
                );
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            assert_eq!(e.len(), a.len(), "{what}: {expected} against {actual}");
            for (i, (e, a)) in e.iter().zip(a).enumerate() {
                holds(&format!("{what}[{i}]"), e, a);
            }
        }
        (Value::String(e), Value::String(a)) if amount(e).is_some() => {
            assert_eq!(amount(e), amount(a), "{what}: {e} against {a}");
        }
        _ => assert_eq!(expected, actual, "{what}"),
    }
}

fn amount(text: &str) -> Option<Decimal> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let looks = digits.contains('.') && digits.chars().all(|c| c.is_ascii_digit() || c == '.');
    looks.then(|| Decimal::from_str(text).ok()).flatten()
}

/// The app on a copy of the stored directory of `version`, its clock as stored.
async fn open_fixture(version: &str, root: &Path) -> (TestApp, Value) {
    let dir = fixture::unpack(version, root).unwrap();
    let expected: Value = serde_json::from_slice(
        &std::fs::read(fixture::root().join(version).join("expected.json")).unwrap(),
    )
    .unwrap();
    let app = spawn_app_with(AppConfig {
        data: DataDir::At(dir),
        clock: ClockStart::AsStored,
        ..AppConfig::default()
    })
    .await;
    (app, expected)
}

/// What only the workbench API shows (read first: its own calls are not in the traffic log, so the
/// inspector's entries are compared before this test's signed requests add to them).
async fn check_workbench_views(app: &TestApp, expected: &Value, version: &str) {
    let traffic = operator(app, "/traffic?limit=1000").await;
    assert_eq!(traffic["nextBefore"], Value::Null, "{version}: one page");
    holds(
        &format!("{version} traffic"),
        &expected["traffic"],
        &traffic["entries"],
    );
    let journeys = operator(app, "/journeys?limit=1000").await;
    let journeys = by("id", &journeys);
    assert_eq!(
        journeys.len(),
        expected["journeys"].as_array().unwrap().len()
    );
    for journey in expected["journeys"].as_array().unwrap() {
        holds(
            "journey",
            journey,
            &journeys[journey["id"].as_str().unwrap()],
        );
    }
    holds(
        "clock",
        &expected["clock"],
        &operator(app, "/sandbox/clock").await,
    );
    let customers = by("id", &operator(app, "/sandbox/customers").await);
    assert_eq!(
        customers.len(),
        expected["customers"].as_array().unwrap().len()
    );
    for customer in expected["customers"].as_array().unwrap() {
        let actual = &customers[customer["id"].as_str().unwrap()];
        let ids = |list: &Value| -> Vec<Value> {
            let mut ids: Vec<Value> = list
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["id"].clone())
                .collect();
            ids.sort_by_key(|id| id.to_string());
            ids
        };
        let mut accounts = customer["accounts"].as_array().unwrap().clone();
        accounts.sort_by_key(|id| id.to_string());
        let mut cards = customer["cardAccounts"].as_array().unwrap().clone();
        cards.sort_by_key(|id| id.to_string());
        holds(
            "customer",
            &json!({"customerNumber": customer["customerNumber"], "name": customer["name"], "type": customer["type"]}),
            actual,
        );
        assert_eq!(ids(&actual["accounts"]), accounts, "accounts of {customer}");
        assert_eq!(ids(&actual["cardAccounts"]), cards, "cards of {customer}");
    }
    let payments = by(
        "paymentId",
        &operator(app, "/sandbox/payments?limit=1000").await,
    );
    assert_eq!(
        payments.len(),
        expected["payments"].as_array().unwrap().len()
    );
    for payment in expected["payments"].as_array().unwrap() {
        holds(
            "payment",
            payment,
            &payments[payment["paymentId"].as_str().unwrap()],
        );
    }
    let consents = operator(app, "/sandbox/consents").await;
    let mut consents: Vec<Value> = consents
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut flat = c["consent"].clone();
            flat["customerNumber"] = c["customerNumber"].clone();
            flat
        })
        .collect();
    consents.sort_by_key(|c| c["customerNumber"].to_string());
    holds("consents", &expected["consents"], &Value::Array(consents));
    let runs = operator(app, "/sandbox/batch-runs").await;
    holds("batch runs", &expected["batchRuns"], &runs);
    holds(
        "snapshots",
        &expected["snapshots"],
        &operator(app, "/snapshots").await,
    );
    let snapshot = operator(app, "/snapshots/before-payments").await;
    let counted = json!({
        "customers": snapshot["trees"]["sandbox-customers"].as_array().map_or(0, Vec::len),
        "payments": snapshot["trees"]["payments"].as_array().map_or(0, Vec::len),
    });
    holds(
        "the snapshot",
        &expected["snapshotBeforePayments"],
        &counted,
    );
    holds(
        "settings",
        &expected["settings"],
        &operator(app, "/sandbox/settings").await,
    );
    let personas = operator(app, "/personas").await;
    let mut personas = personas.as_array().unwrap().clone();
    personas.sort_by_key(|p| p["id"].to_string());
    holds("personas", &expected["personas"], &Value::Array(personas));
    holds(
        "composer history",
        &expected["composerHistory"],
        &operator(app, "/compose/history").await,
    );
    holds(
        "callbacks",
        &expected["callbacks"],
        &operator(app, "/sca/callbacks").await,
    );
}

/// What the bank's and the sandbox's signed interface shows: balances, transactions, the basket, the TPP
/// contact, and whether each consent still allows a read with the PSU away (valid at the stored clock).
async fn check_signed_views(app: &TestApp, expected: &Value) {
    for account in expected["accounts"].as_array().unwrap() {
        let id = account["id"].as_str().unwrap();
        check_balances(app, &format!("/v1/sandbox/accounts/{id}"), account).await;
        let listed = app
            .get(&format!(
                "/v1/sandbox/accounts/{id}/transactions?limit=100000"
            ))
            .send()
            .await;
        listed.assert_ok();
        let list = listed.body.as_array().unwrap();
        let pending = list.iter().filter(|t| t["status"] == "pending").count();
        holds(
            &format!("transactions of {id}"),
            &account["transactions"],
            &json!({"booked": list.len() - pending, "pending": pending}),
        );
    }
    for card in expected["cardAccounts"].as_array().unwrap() {
        let id = card["id"].as_str().unwrap();
        check_balances(app, &format!("/v1/sandbox/card-accounts/{id}"), card).await;
        let listed = app
            .get(&format!(
                "/v1/sandbox/card-accounts/{id}/transactions?bookingStatus=both&limit=100000"
            ))
            .send()
            .await;
        listed.assert_ok();
        let counts = json!({
            "booked": listed.body["cardTransactions"]["booked"].as_array().unwrap().len(),
            "pending": listed.body["cardTransactions"]["pending"].as_array().unwrap().len(),
        });
        holds(
            &format!("card transactions of {id}"),
            &card["transactions"],
            &counts,
        );
    }
    let kari = kari(expected);
    for basket in expected["baskets"].as_array().unwrap() {
        let id = basket["basketId"].as_str().unwrap();
        let read = kari
            .get(app, &format!("/v1/signing-baskets/{id}"))
            .header("x-accept-fix", "amount-as-string")
            .send()
            .await;
        read.assert_ok();
        holds(
            &format!("basket {id}"),
            basket,
            &json!({"basketId": id, "transactionStatus": read.body["transactionStatus"], "payments": read.body["payments"]}),
        );
    }
    let contact = app.get("/v1/tpp-dialogue/contact").send().await;
    holds("TPP contact", &expected["tppContact"], &contact.body);
    for check in expected["unattendedReads"].as_array().unwrap() {
        let read = app
            .get(&format!(
                "/v1/accounts/{}/balances",
                check["accountId"].as_str().unwrap()
            ))
            .header("PSU-ID", check["psuId"].as_str().unwrap())
            .send()
            .await;
        let code = read.body["tppMessages"][0]["code"].clone();
        holds(
            "a read with the PSU away",
            check,
            &json!({"psuId": check["psuId"], "accountId": check["accountId"], "status": read.status, "code": code}),
        );
    }
}

/// The balances the sandbox answers at `path` (an account or a card account) against `expected`'s.
async fn check_balances(app: &TestApp, path: &str, expected: &Value) {
    let read = app.get(path).send().await;
    read.assert_ok();
    let balances: Vec<Value> = read.body["balances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| json!({"balanceType": b["balanceType"], "amount": b["balanceAmount"]["amount"], "currency": b["balanceAmount"]["currency"]}))
        .collect();
    holds(
        &format!("balances at {path}"),
        &expected["balances"],
        &Value::Array(balances),
    );
}

/// Kari at the script's TPP session, with the psu-id the script was given.
fn kari(expected: &Value) -> TppState {
    let mut kari = TppState::new("fixture-kari");
    kari.psu_id = Some(
        expected["named"]["psuIds"]["kari"]
            .as_str()
            .unwrap()
            .to_owned(),
    );
    kari
}

/// The directory works on: a new payment, a batch run, a snapshot restore.
async fn check_it_works_on(app: &TestApp, expected: &Value) {
    let kari = kari(expected);
    let straks = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";
    let created = kari
        .post(app, straks, &json!({
            "instructedAmount": {"currency": "NOK", "amount": "42.00"},
            "debtorAccount": {"bban": "12051000003", "currency": "NOK"},
            "creditorName": "Ola Nordmann",
            "creditorAccount": {"bban": "12051001018", "currency": "NOK"},
            "creditorAddress": {"street": "Storgata", "buildingNumber": "1", "postalCode": "0155", "townName": "Oslo", "country": "NO"},
            "remittanceInformationUnstructured": "Etter oppgraderingen"}))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let href = created.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap();
    crate::helpers::complete_sca(app, href, json!({})).await;
    let id = created.body["paymentId"].as_str().unwrap();
    let status = kari
        .get(app, &format!("{straks}/{id}/status"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert_eq!(status.body["transactionStatus"], "ACSC", "{}", status.body);

    let waiting = expected["named"]["payments"]["domestic ACTC (waits for 14:00)"]
        .as_str()
        .unwrap();
    let run = app.post("/v1/sandbox/batch-runs", &json!({})).send().await;
    assert_eq!(run.status, 201, "{}", run.body);
    let payments = by(
        "paymentId",
        &operator(app, "/sandbox/payments?limit=1000").await,
    );
    assert_eq!(payments[waiting]["status"], "ACSC", "booked by the run");

    // A snapshot of the state now (an export of every record as this build stores it), the stored one
    // restored, and the new one restored again.
    let (status, taken) = workbench_api(app, Method::PUT, "/snapshots/after-upgrade", None).await;
    assert_eq!(status, 201, "{taken}");
    let restore = |name: &'static str| async move {
        let path = format!("/snapshots/{name}/restore");
        let (status, restored) = workbench_api(app, Method::POST, &path, None).await;
        assert_eq!(status, 200, "{restored}");
    };
    restore("before-payments").await;
    assert_eq!(
        operator(app, "/sandbox/payments?limit=1000").await,
        json!([])
    );
    let customers = operator(app, "/sandbox/customers").await;
    assert_eq!(
        customers.as_array().unwrap().len() as u64,
        expected["snapshotBeforePayments"]["customers"]
            .as_u64()
            .unwrap()
    );
    restore("after-upgrade").await;
    let after = by(
        "paymentId",
        &operator(app, "/sandbox/payments?limit=1000").await,
    );
    assert_eq!(after.len(), payments.len());
    assert_eq!(after[waiting]["status"], "ACSC");
    assert_eq!(after[id]["status"], "ACSC");
}

#[tokio::test]
async fn every_stored_data_directory_opens_with_nothing_lost_and_works_on() {
    let versions = fixture::versions();
    assert!(
        versions.iter().any(|v| v == "0.1.0"),
        "the directory of 0.1.0 is stored: {versions:?}"
    );
    for version in versions {
        let root = tempfile::tempdir().unwrap();
        let (app, expected) = open_fixture(&version, root.path()).await;
        let stored_format = expected["dataFormat"].as_u64().unwrap() as u32;
        let session = operator(&app, "/session").await;
        let data_format = &session["dataFormat"];
        assert_eq!(
            data_format["version"],
            xs2a_core::bank::migrations::current(),
            "{version}"
        );
        if stored_format < xs2a_core::bank::migrations::current() {
            assert_eq!(data_format["migratedFrom"], stored_format, "{version}");
            assert_eq!(data_format["migratedNow"], true);
            let backup = root.path().join(format!("data.before-{APP_VERSION}"));
            assert_eq!(data_format["backup"], backup.display().to_string());
            assert_eq!(migrate::format_of(&backup).unwrap(), stored_format);
        }
        check_workbench_views(&app, &expected, &version).await;
        check_signed_views(&app, &expected).await;
        check_it_works_on(&app, &expected).await;
        app.app.close().unwrap();
        assert_eq!(
            format::read(&root.path().join("data"))
                .unwrap()
                .map(|f| (f.format, f.app)),
            Some((
                xs2a_core::bank::migrations::current(),
                APP_VERSION.to_owned()
            )),
            "{version}"
        );
    }
}

#[tokio::test]
async fn an_older_build_refuses_a_newer_directory_and_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("data");
    App::build(AppConfig {
        data: DataDir::At(dir.clone()),
        ..AppConfig::default()
    })
    .unwrap()
    .close()
    .unwrap();
    let newer = xs2a_core::bank::migrations::current() + 1;
    format::write(
        &dir,
        &FormatFile {
            format: newer,
            app: "99.1.0".into(),
            migrated: None,
        },
    )
    .unwrap();
    let before = fixture::contents(&dir);
    let wants = |text: &str| {
        for part in [
            format!("holds data format {newer}, written by xs2a-sandbox 99.1.0"),
            format!(
                "this is xs2a-sandbox {APP_VERSION}, which reads data formats up to {}",
                xs2a_core::bank::migrations::current()
            ),
            "Nothing was changed. Start xs2a-sandbox 99.1.0 (or newer) on it".to_owned(),
        ] {
            assert!(text.contains(&part), "'{part}' in: {text}");
        }
    };
    let refused = App::build(AppConfig {
        data: DataDir::At(dir.clone()),
        ..AppConfig::default()
    })
    .err()
    .expect("refused");
    wants(&refused);
    assert_eq!(fixture::contents(&dir), before, "App::build wrote nothing");

    // The same through the binary: serve and export exit with the message.
    for args in [
        vec!["serve", "--port", "0", "--data"],
        vec!["export", "--out", "-", "--data"],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
            .args(&args)
            .arg(&dir)
            .env("HOME", root.path())
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: the CLI's exit code for a failure"
        );
        wants(&String::from_utf8_lossy(&output.stderr));
        assert_eq!(fixture::contents(&dir), before, "{args:?} wrote nothing");
    }
}

#[tokio::test]
async fn the_session_says_the_data_format_of_a_temporary_store() {
    let app = spawn_app_with(crate::helpers::test_config()).await;
    let session = operator(&app, "/session").await;
    assert_eq!(
        session["dataFormat"],
        json!({"version": xs2a_core::bank::migrations::current(), "migratedNow": false})
    );
}
