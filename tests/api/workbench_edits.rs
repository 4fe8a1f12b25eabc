//! Editing mock data from the workbench (issue 18: Rename customer and Edit account answered 405): each
//! edit's answer, that it is on disk (read back after a restart), that it tells the live views, and each
//! refusal's status and code. Also: the edits exist under /workbench/api only, never under /v1.

use crate::helpers::{spawn_app_with, test_config, workbench_api as call, TestApp};
use reqwest::Method;
use serde_json::{json, Value};
use xs2a_http::app::{AppConfig, DataDir};

/// A private customer of the seed with an account and a card account.
async fn seeded_customer(app: &TestApp) -> Value {
    let (status, list) = call(app, Method::GET, "/sandbox/customers", None).await;
    assert_eq!(status, 200);
    list.as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["customerType"] == "private"
                && !c["accounts"].as_array().unwrap().is_empty()
                && !c["cardAccounts"].as_array().unwrap().is_empty()
        })
        .expect("a seeded customer with accounts and cards")
        .clone()
}

fn refusal(body: &Value) -> (&str, &str) {
    (
        body["tppMessages"][0]["code"].as_str().unwrap_or_default(),
        body["tppMessages"][0]["path"].as_str().unwrap_or_default(),
    )
}

/// Reads `sandbox.changed` events from the workbench's event stream until one says `what`.
pub async fn changed_event(app: &TestApp, after: u64, what: &str) -> Value {
    let mut response = app
        .client
        .get(format!(
            "{}/workbench/api/events?lastEventId={after}",
            app.base
        ))
        .bearer_auth(app.app.operator_token())
        .send()
        .await
        .unwrap();
    let mut text = String::new();
    // Read until the event comes (the stream resumes after `after`, so it is not missed); an event that
    // never comes ends the stream with the test's run, not at a time guessed here.
    loop {
        let chunk = response
            .chunk()
            .await
            .unwrap()
            .expect("the stream stays open");
        text.push_str(&String::from_utf8_lossy(&chunk));
        for data in text.lines().filter_map(|l| l.strip_prefix("data: ")) {
            let event: Value = serde_json::from_str(data).unwrap();
            if event["kind"] == "sandbox.changed" && event["data"]["what"] == what {
                return event;
            }
        }
    }
}

fn config(dir: &std::path::Path) -> AppConfig {
    AppConfig {
        data: DataDir::At(dir.to_owned()),
        ..test_config()
    }
}

#[tokio::test]
async fn a_customer_an_account_and_a_card_account_are_edited_kept_across_a_restart_and_announced() {
    let dir = tempfile::tempdir().unwrap();
    let (customer_id, account_id, card_id);
    {
        let app = spawn_app_with(config(dir.path())).await;
        call(&app, Method::POST, "/sandbox/initialize", None).await;
        let customer = seeded_customer(&app).await;
        customer_id = customer["customerId"].as_str().unwrap().to_owned();
        account_id = customer["accounts"][0]["id"].as_str().unwrap().to_owned();
        card_id = customer["cardAccounts"][0]["id"]
            .as_str()
            .unwrap()
            .to_owned();

        let (status, renamed) = call(
            &app,
            Method::PUT,
            &format!("/sandbox/customers/{customer_id}"),
            Some(json!({"customerName": "Kari Nordmann-Li"})),
        )
        .await;
        assert_eq!(status, 200, "{renamed}");
        assert_eq!(renamed["customerName"], "Kari Nordmann-Li");
        assert_eq!(renamed["name"], "Kari Nordmann-Li");
        assert_eq!(
            renamed["accounts"], customer["accounts"],
            "as the list shows it"
        );
        changed_event(&app, 0, "customers").await;

        let (status, account) = call(
            &app,
            Method::PUT,
            &format!("/sandbox/accounts/{account_id}"),
            Some(json!({"name": "Felleskonto", "product": "Brukskonto Pluss",
                "cashAccountType": "CACC", "creditLine": {"amount": "5000", "currency": "NOK"},
                "balances": [{"balanceType": "interimAvailable",
                              "balanceAmount": {"amount": "123.45", "currency": "NOK"}}]})),
        )
        .await;
        assert_eq!(status, 200, "{account}");
        assert_eq!(
            (&account["name"], &account["product"], &account["ownerName"]),
            (
                &json!("Felleskonto"),
                &json!("Brukskonto Pluss"),
                &json!("Kari Nordmann-Li")
            )
        );
        assert_eq!(
            account["creditLine"],
            json!({"amount": "5000.00", "currency": "NOK"})
        );
        assert_eq!(account["balances"][0]["balanceAmount"]["amount"], "123.45");
        changed_event(&app, 0, "accounts").await;

        let (status, card) = call(
            &app,
            Method::PUT,
            &format!("/sandbox/card-accounts/{card_id}"),
            Some(json!({"name": "Reisekort", "status": "blocked",
                "creditLimit": {"amount": 20000, "currency": "NOK"}, "relatedAccount": null})),
        )
        .await;
        assert_eq!(status, 200, "{card}");
        assert_eq!(
            (&card["name"], &card["status"]),
            (&json!("Reisekort"), &json!("blocked"))
        );
        assert!(card.get("relatedAccount").is_none(), "{card}");
        changed_event(&app, 0, "cardAccounts").await;
        app.app.close().unwrap();
    }
    // spawn_app_with waits for the closed app to let go of the directory.
    let app = spawn_app_with(config(dir.path())).await;
    let (_, list) = call(&app, Method::GET, "/sandbox/customers", None).await;
    let customer = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["customerId"] == customer_id.as_str())
        .unwrap();
    assert_eq!(customer["customerName"], "Kari Nordmann-Li");
    let (_, account) = call(
        &app,
        Method::GET,
        &format!("/sandbox/accounts/{account_id}"),
        None,
    )
    .await;
    assert_eq!(account["name"], "Felleskonto");
    assert_eq!(account["creditLine"]["amount"], "5000.00");
    let (_, card) = call(
        &app,
        Method::GET,
        &format!("/sandbox/card-accounts/{card_id}"),
        None,
    )
    .await;
    assert_eq!(card["name"], "Reisekort");
    assert_eq!(card["creditLimit"]["amount"], "20000.00");
}

#[tokio::test]
async fn each_refused_edit_says_its_status_code_and_field() {
    let app = crate::helpers::spawn_app().await;
    call(&app, Method::POST, "/sandbox/initialize", None).await;
    let customer = seeded_customer(&app).await;
    let customer_id = customer["customerId"].as_str().unwrap();
    let account_id = customer["accounts"][0]["id"].as_str().unwrap();
    let card_id = customer["cardAccounts"][0]["id"].as_str().unwrap();
    let cases: Vec<(String, Value, u16, &str, &str)> = vec![
        (
            format!("/sandbox/customers/{customer_id}"),
            json!({"customerName": ""}),
            400,
            "FORMAT_ERROR",
            "customerName",
        ),
        (
            format!("/sandbox/customers/{customer_id}"),
            json!({"customerNumber": "974760673"}),
            400,
            "FORMAT_ERROR",
            "customerNumber",
        ),
        (
            format!("/sandbox/customers/{customer_id}"),
            json!({"nickname": "x"}),
            400,
            "FORMAT_ERROR",
            "nickname",
        ),
        (
            format!("/sandbox/customers/{customer_id}"),
            json!({"customerName": "A", "name": "B"}),
            400,
            "FORMAT_ERROR",
            "name",
        ),
        (
            "/sandbox/customers/no-such-customer".into(),
            json!({"customerName": "A"}),
            404,
            "RESOURCE_UNKNOWN",
            "customerId",
        ),
        (
            format!("/sandbox/accounts/{account_id}"),
            json!({"currency": "EUR"}),
            400,
            "FORMAT_ERROR",
            "currency",
        ),
        (
            format!("/sandbox/accounts/{account_id}"),
            json!({"bban": "86011117947"}),
            400,
            "FORMAT_ERROR",
            "bban",
        ),
        (
            format!("/sandbox/accounts/{account_id}"),
            json!({"customerNumber": "974760673"}),
            400,
            "FORMAT_ERROR",
            "customerNumber",
        ),
        (
            format!("/sandbox/accounts/{account_id}"),
            json!({"creditLine": {"amount": "1", "currency": "SEK"}}),
            400,
            "FORMAT_ERROR",
            "creditLine.currency",
        ),
        (
            format!("/sandbox/accounts/{account_id}"),
            json!({"balances": [{"balanceType": "closingBooked"}]}),
            400,
            "FORMAT_ERROR",
            "balances[0].balanceAmount",
        ),
        (
            "/sandbox/accounts/no-such-account".into(),
            json!({"name": "A"}),
            404,
            "RESOURCE_UNKNOWN",
            "mockAccountId",
        ),
        (
            format!("/sandbox/card-accounts/{card_id}"),
            json!({"maskedPan": "4444 44** **** 4444"}),
            400,
            "FORMAT_ERROR",
            "maskedPan",
        ),
        (
            format!("/sandbox/card-accounts/{card_id}"),
            json!({"relatedAccount": "86011117947"}),
            404,
            "RESOURCE_UNKNOWN",
            "relatedAccount",
        ),
        (
            "/sandbox/card-accounts/no-such-card".into(),
            json!({"name": "A"}),
            404,
            "RESOURCE_UNKNOWN",
            "mockCardAccountId",
        ),
    ];
    for (path, body, status, code, at) in cases {
        let (got, answer) = call(&app, Method::PUT, &path, Some(body.clone())).await;
        assert_eq!(got.as_u16(), status, "{path} {body}: {answer}");
        assert_eq!(refusal(&answer), (code, at), "{path} {body}: {answer}");
    }
    // Nothing of the refused edits was written.
    assert_eq!(seeded_customer(&app).await, customer);
}

#[tokio::test]
async fn the_edits_are_the_workbenchs_only_and_not_routed_under_v1() {
    let app = crate::helpers::spawn_app().await;
    call(&app, Method::POST, "/sandbox/initialize", None).await;
    let customer = seeded_customer(&app).await;
    let id = customer["customerId"].as_str().unwrap();
    let response = app
        .put(
            &format!("/v1/sandbox/customers/{id}"),
            &json!({"customerName": "X"}),
        )
        .send()
        .await;
    assert_eq!(response.status, 405, "{}", response.body);
}
