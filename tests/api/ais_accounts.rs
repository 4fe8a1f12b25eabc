//! Account information over HTTP: accounts, card accounts, balances and transactions for a PSU who
//! granted consent, each refusal rule with its status and code, the PSU-not-present limits on a frozen
//! clock, and x-accept-fix. Consent is given by driving the SCA engine directly after a real 401.

use crate::helpers::{spawn_app, TestApp, TestRequest, TestResponse};
use serde_json::{json, Value};
use time::macros::datetime;
use time::Duration;
use xs2a_core::bank::sca::authorisation::AuthMethod;
use xs2a_core::bank::sca::engine;
use xs2a_core::bank::sca::Context;
use xs2a_core::signing::issue::{tpp_request_defaults, CertificateAuthority};
use xs2a_core::signing::qc_statements::Psd2Role;
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};

/// Kari Nordmann, the first private customer of the seed.
const KARI: &str = "14838510036";
const REDIRECT: &str = "https://tpp.example/callback";

/// A PSU as the TPP knows it after SCA.
struct Psu {
    psu_id: String,
    session: String,
}

/// What the consent screen offered, by kind.
struct Granted {
    current: String,
    savings: String,
    card: String,
}

/// Runs the consent flow for Kari: a real GET /v1/accounts answers 401 with a scaRedirect, then the
/// PSU identifies, picks a method and the private context, and ticks the current account and the card
/// (not the savings account). The redirect's psu-id is what later requests send.
async fn consent_for_kari(app: &TestApp) -> (Psu, Granted) {
    consent_with(app, |req| req).await
}

async fn consent_with<'a>(
    app: &'a TestApp,
    sign: impl FnOnce(TestRequest<'a>) -> TestRequest<'a>,
) -> (Psu, Granted) {
    let session = uuid::Uuid::new_v4().to_string();
    let asked = sign(
        app.get("/v1/accounts")
            .header("TPP-Session-ID", &session)
            .header("TPP-Redirect-URI", REDIRECT)
            .header("PSU-IP-Address", "192.0.2.10"),
    )
    .send()
    .await;
    asked.assert_refused(401, "CONSENT_INVALID", None);
    let href = asked.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = href.rsplit('/').next().unwrap().to_owned();
    let (store, now) = (&app.state.store, app.state.clock.now());
    engine::identify(store, &id, KARI, now).unwrap();
    engine::choose_method(store, &id, AuthMethod::Ha2, now).unwrap();
    engine::choose_context(store, &id, Context::Private, None, now).unwrap();
    let auth = engine::load(store, &id).unwrap();
    let choices = engine::consent_choices(store, &auth).unwrap();
    let find = |name: &str, card: bool| {
        choices
            .iter()
            .find(|c| c.is_card == card && (card || c.name == name))
            .unwrap_or_else(|| panic!("{name} among {choices:?}"))
            .id
            .clone()
    };
    let granted = Granted {
        current: find("Brukskonto", false),
        savings: find("Sparekonto", false),
        card: find("", true),
    };
    let done = engine::grant(
        store,
        &id,
        &[granted.current.clone(), granted.card.clone()],
        now,
    )
    .unwrap();
    let redirect = done.redirect.unwrap();
    let query = redirect.split_once('?').unwrap().1;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap();
    let psu_id = pairs.iter().find(|(k, _)| k == "psu-id").unwrap().1.clone();
    (Psu { psu_id, session }, granted)
}

/// A request on Kari's behalf with the PSU present (PSU-IP-Address sent).
fn present<'a>(app: &'a TestApp, psu: &Psu, path: &str) -> TestRequest<'a> {
    unattended(app, psu, path).header("PSU-IP-Address", "192.0.2.10")
}

/// A request on Kari's behalf without the PSU (no PSU-IP-Address).
fn unattended<'a>(app: &'a TestApp, psu: &Psu, path: &str) -> TestRequest<'a> {
    app.get(path)
        .header("PSU-ID", &psu.psu_id)
        .header("TPP-Session-ID", &psu.session)
        .header("TPP-Redirect-URI", REDIRECT)
}

fn ok(response: TestResponse) -> Value {
    response.assert_ok();
    response.body
}

/// Adds `count` booked transactions of -1.00 NOK on `date` through the sandbox API.
async fn add_transactions(app: &TestApp, account: &str, count: usize, date: &str) {
    let items: Vec<Value> = (0..count)
        .map(|i| json!({"amount": "-1.00", "currency": "NOK", "bookingDate": date, "remittanceInformationUnstructured": format!("Test {i}")}))
        .collect();
    let created = app
        .post(
            &format!("/v1/sandbox/accounts/{account}/transactions"),
            &json!(items),
        )
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
}

#[tokio::test]
async fn the_account_list_holds_only_the_consented_accounts_with_links() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let body = ok(present(&app, &psu, "/v1/accounts").send().await);
    let accounts = body["accounts"].as_array().unwrap();
    assert_eq!(accounts.len(), 1, "{body}");
    let account = &accounts[0];
    assert_eq!(account["resourceId"], granted.current.as_str());
    assert_eq!(account["currency"], "NOK");
    assert_eq!(account["cashAccountType"], "CACC");
    assert_eq!(account["status"], "enabled");
    assert_eq!(account["usage"], "PRIV");
    assert_eq!(account["ownerName"], "Kari Nordmann");
    assert!(account["iban"].as_str().unwrap().starts_with("NO"));
    assert_eq!(account["bban"].as_str().unwrap().len(), 11);
    assert_eq!(
        account["_links"]["balances"],
        json!({"href": format!("/v1/accounts/{}/balances", granted.current), "verbs": ["GET"]})
    );
    assert_eq!(
        account["_links"]["transactions"]["href"],
        format!("/v1/accounts/{}/transactions", granted.current)
    );

    let one = ok(
        present(&app, &psu, &format!("/v1/accounts/{}", granted.current))
            .send()
            .await,
    );
    assert_eq!(one["account"], *account);

    let cards = ok(present(&app, &psu, "/v1/card-accounts").send().await);
    let cards = cards["cardAccounts"].as_array().unwrap();
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0]["resourceId"], granted.card.as_str());
    assert!(cards[0]["maskedPan"].as_str().unwrap().contains("**"));
    assert_eq!(
        cards[0]["creditLimit"],
        json!({"currency": "NOK", "amount": "50000.00"})
    );
    assert_eq!(cards[0]["status"], "enabled");
}

#[tokio::test]
async fn an_account_outside_the_consent_is_unknown() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    for path in [
        format!("/v1/accounts/{}", granted.savings),
        format!("/v1/accounts/{}/balances", granted.savings),
        format!(
            "/v1/accounts/{}/transactions?bookingStatus=booked",
            granted.savings
        ),
        // A granted card account is not an account.
        format!("/v1/accounts/{}/balances", granted.card),
        format!("/v1/card-accounts/{}/balances", granted.current),
    ] {
        present(&app, &psu, &path)
            .send()
            .await
            .assert_refused(404, "RESOURCE_UNKNOWN", None);
    }
}

#[tokio::test]
async fn a_certificate_with_only_the_pisp_role_is_forbidden() {
    let app = spawn_app().await;
    let (psu, _) = consent_for_kari(&app).await;
    present(&app, &psu, "/v1/accounts")
        .signed_by("pisp")
        .send()
        .await
        .assert_refused(403, "FORBIDDEN", None);
}

#[tokio::test]
async fn balances_carry_the_account_currency_and_string_amounts() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let body = ok(present(
        &app,
        &psu,
        &format!("/v1/accounts/{}/balances", granted.current),
    )
    .send()
    .await);
    let currency = body["account"]["currency"].as_str().unwrap();
    assert_eq!(currency, "NOK");
    assert!(body["account"]["iban"].is_string() && body["account"]["bban"].is_string());
    let balances = body["balances"].as_array().unwrap();
    assert!(!balances.is_empty());
    for balance in balances {
        assert_eq!(balance["balanceAmount"]["currency"], currency, "{balance}");
        let amount = balance["balanceAmount"]["amount"].as_str().unwrap();
        assert_eq!(amount.split('.').nth(1).map(str::len), Some(2), "{amount}");
        assert!(balance["balanceType"].is_string());
    }
}

#[tokio::test]
async fn card_balances_include_interim_booked() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let body = ok(present(
        &app,
        &psu,
        &format!("/v1/card-accounts/{}/balances", granted.card),
    )
    .send()
    .await);
    assert!(body["cardAccount"]["maskedPan"].is_string());
    let types: Vec<&str> = body["balances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["balanceType"].as_str().unwrap())
        .collect();
    assert!(types.contains(&"interimBooked"), "{types:?}");
    for balance in body["balances"].as_array().unwrap() {
        assert_eq!(balance["balanceAmount"]["currency"], "NOK");
    }
}

#[tokio::test]
async fn without_pagination_parameters_a_page_holds_200_and_the_links_say_so() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    add_transactions(&app, &granted.current, 205, "2026-05-20").await;
    let path = format!("/v1/accounts/{}/transactions", granted.current);
    let first = ok(present(&app, &psu, &format!("{path}?bookingStatus=booked"))
        .send()
        .await);
    let report = &first["transactions"];
    assert_eq!(report["booked"].as_array().unwrap().len(), 200);
    assert_eq!(
        report["pending"],
        Value::Null,
        "booked only: no pending group"
    );
    let links = &report["_links"];
    assert_eq!(
        links["self"]["href"],
        format!("{path}?bookingStatus=booked&limit=200&offset=0")
    );
    assert_eq!(
        links["next"]["href"],
        format!("{path}?bookingStatus=booked&limit=200&offset=200")
    );
    assert_eq!(links["next"]["verbs"], json!(["GET"]));
    assert!(links.get("previous").is_none());
    assert_eq!(first["account"]["currency"], "NOK");

    let next = links["next"]["href"].as_str().unwrap();
    let second = ok(present(&app, &psu, next).send().await);
    let rest = second["transactions"]["booked"].as_array().unwrap().len();
    assert!((5..200).contains(&rest), "{rest}");
    assert!(second["transactions"]["_links"].get("next").is_none());
    assert_eq!(
        second["transactions"]["_links"]["previous"]["href"],
        format!("{path}?bookingStatus=booked&limit=200&offset=0")
    );

    let both = ok(
        present(&app, &psu, &format!("{path}?bookingStatus=both&limit=3"))
            .send()
            .await,
    );
    assert_eq!(both["transactions"]["booked"].as_array().unwrap().len(), 3);
    assert_eq!(both["transactions"]["pending"], json!([]));
}

#[tokio::test]
async fn limit_zero_is_a_format_error() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    present(
        &app,
        &psu,
        &format!(
            "/v1/accounts/{}/transactions?bookingStatus=booked&limit=0",
            granted.current
        ),
    )
    .send()
    .await
    .assert_refused(400, "FORMAT_ERROR", Some("limit"));
}

#[tokio::test]
async fn a_missing_booking_status_is_a_required_query_parameter() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    present(
        &app,
        &psu,
        &format!("/v1/accounts/{}/transactions", granted.current),
    )
    .send()
    .await
    .assert_refused(400, "QUERY_PARAMETER_REQUIRED", Some("bookingStatus"));
    present(
        &app,
        &psu,
        &format!(
            "/v1/accounts/{}/transactions?bookingStatus=later",
            granted.current
        ),
    )
    .send()
    .await
    .assert_refused(400, "FORMAT_ERROR", Some("bookingStatus"));
}

#[tokio::test]
async fn the_slim_list_links_to_full_details_and_booked_ids_are_stable() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let path = format!(
        "/v1/accounts/{}/transactions?bookingStatus=booked",
        granted.current
    );
    let first = ok(present(&app, &psu, &path).send().await);
    let second = ok(present(&app, &psu, &path).send().await);
    let ids = |b: &Value| -> Vec<String> {
        b["transactions"]["booked"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["transactionId"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(!ids(&first).is_empty());
    assert_eq!(ids(&first), ids(&second));

    let item = &first["transactions"]["booked"][0];
    assert!(item["transactionAmount"]["amount"].is_string());
    assert!(
        item.get("creditorAccount").is_none(),
        "the list is slim: {item}"
    );
    let href = item["_links"]["transactionDetails"]["href"]
        .as_str()
        .unwrap();
    assert_eq!(
        href,
        format!(
            "/v1/accounts/{}/transactions/{}",
            granted.current,
            item["transactionId"].as_str().unwrap()
        )
    );
    let details = ok(present(&app, &psu, href).send().await);
    let full = &details["transactionsDetails"];
    assert_eq!(full["transactionId"], item["transactionId"]);
    assert_eq!(full["transactionAmount"], item["transactionAmount"]);
    for field in [
        "creditorAccount",
        "debtorAccount",
        "bankTransactionCode",
        "ultimateDebtor",
        "ultimateCreditor",
        "purposeCode",
        "additionalInformationProprietary1",
    ] {
        assert!(!full[field].is_null(), "{field} in {full}");
    }
    assert!(full["creditorAccount"]["iban"].is_string());

    present(
        &app,
        &psu,
        &format!("/v1/accounts/{}/transactions/no-such-id", granted.current),
    )
    .send()
    .await
    .assert_refused(404, "RESOURCE_UNKNOWN", Some("transactionId"));
}

#[tokio::test]
async fn card_transactions_list_booked_and_pending_card_transactions() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let body = ok(present(
        &app,
        &psu,
        &format!(
            "/v1/card-accounts/{}/transactions?bookingStatus=both",
            granted.card
        ),
    )
    .send()
    .await);
    assert!(body["cardAccount"]["maskedPan"].is_string());
    let booked = body["cardTransactions"]["booked"].as_array().unwrap();
    let pending = body["cardTransactions"]["pending"].as_array().unwrap();
    assert_eq!((booked.len(), pending.len()), (2, 1), "{body}");
    let item = &booked[0];
    for field in [
        "cardTransactionId",
        "transactionDate",
        "bookingDate",
        "merchantCategoryCode",
    ] {
        assert!(item[field].is_string(), "{field} in {item}");
    }
    assert!(item["transactionAmount"]["amount"].is_string());
    assert!(item["originalAmount"]["amount"].is_string());
    assert!(pending[0]["cardTransactionId"].is_string());
    assert!(body["cardTransactions"]["_links"]["self"]["href"]
        .as_str()
        .unwrap()
        .contains("limit=200&offset=0"));
    // Today the card account's currency is the transaction amount's (the fix is the default).
    let foreign = booked
        .iter()
        .find(|t| t["originalAmount"]["currency"] == "EUR")
        .expect("the seed has a purchase in EUR");
    assert_eq!(foreign["transactionAmount"]["currency"], "NOK");
}

#[tokio::test]
async fn without_the_psu_the_fifth_balances_call_in_a_day_is_refused_until_the_window_passes() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let path = format!("/v1/accounts/{}/balances", granted.current);
    ok(present(&app, &psu, &path).send().await);
    for _ in 0..4 {
        ok(unattended(&app, &psu, &path).send().await);
    }
    unattended(&app, &psu, &path)
        .send()
        .await
        .assert_refused(429, "ACCESS_EXCEEDED", None);
    // With the PSU present there is no such limit.
    ok(present(&app, &psu, &path).send().await);

    app.state.clock.advance(Duration::hours(23));
    unattended(&app, &psu, &path)
        .send()
        .await
        .assert_refused(429, "ACCESS_EXCEEDED", None);
    app.state
        .clock
        .advance(Duration::hours(1) + Duration::seconds(1));
    ok(unattended(&app, &psu, &path).send().await);
}

#[tokio::test]
async fn without_the_psu_history_is_limited_to_90_days_with_a_warning() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    // 2026-01-31 is 121 days before the test clock's 2026-06-01.
    add_transactions(&app, &granted.current, 1, "2026-01-31").await;
    let path = format!(
        "/v1/accounts/{}/transactions?bookingStatus=booked&dateFrom=2026-01-01",
        granted.current
    );
    let online = ok(present(&app, &psu, &path).send().await);
    let dates = |b: &Value| -> Vec<String> {
        b["transactions"]["booked"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["bookingDate"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(dates(&online).contains(&"2026-01-31".to_owned()));
    assert!(online.get("tppMessages").is_none(), "{online}");

    let response = unattended(&app, &psu, &path).send().await;
    let warnings = response.warnings();
    let offline = ok(response);
    assert!(!dates(&offline).is_empty());
    assert!(
        dates(&offline).iter().all(|d| d.as_str() >= "2026-03-03"),
        "{offline}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("90 days")),
        "{warnings:?}"
    );
    assert!(offline["transactions"]["_links"]["self"]["href"]
        .as_str()
        .unwrap()
        .contains("dateFrom=2026-03-03"));
}

#[tokio::test]
async fn granting_consent_is_online_access_which_lasts_90_days_for_unattended_reads() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    let paths = [
        format!("/v1/accounts/{}/balances", granted.current),
        format!(
            "/v1/accounts/{}/transactions?bookingStatus=booked",
            granted.current
        ),
        format!("/v1/card-accounts/{}/balances", granted.card),
    ];
    // The consent screen itself was SCA with the PSU present: no online read is needed first.
    for path in &paths {
        unattended(&app, &psu, path).send().await.assert_ok();
    }
    // 91 days later (the consent's SCA is still within its 180 days), without a read with the PSU.
    app.state.clock.advance(Duration::days(91));
    for path in &paths {
        unattended(&app, &psu, path).send().await.assert_refused(
            401,
            "CONSENT_EXPIRED",
            Some("PSU-IP-Address"),
        );
    }
}

#[tokio::test]
async fn listing_accounts_with_the_psu_present_counts_as_online_access() {
    let app = spawn_app().await;
    let (psu, granted) = consent_for_kari(&app).await;
    app.state.clock.advance(Duration::days(60));
    // A new session (the old one expired): an SCA that grants nothing (GET /v1/users), then the lists
    // are read with the PSU present.
    let session = "listing-later";
    let asked = app
        .get("/v1/users")
        .header("PSU-ID", &psu.psu_id)
        .header("TPP-Session-ID", session)
        .header("TPP-Redirect-URI", REDIRECT)
        .header("PSU-IP-Address", "192.0.2.10")
        .send()
        .await;
    asked.assert_refused(401, "CONSENT_INVALID", None);
    let id = asked.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let (store, now) = (&app.state.store, app.state.clock.now());
    engine::choose_method(store, &id, AuthMethod::Ha2, now).unwrap();
    engine::choose_context(store, &id, Context::Private, None, now).unwrap();
    engine::confirm(store, &id, now).unwrap();
    let later = Psu {
        psu_id: psu.psu_id.clone(),
        session: session.to_owned(),
    };
    present(&app, &later, "/v1/accounts")
        .send()
        .await
        .assert_ok();
    present(&app, &later, "/v1/card-accounts")
        .send()
        .await
        .assert_ok();
    // 60 + 45 days after the consent, 45 after the lists were read: unattended reads still work.
    app.state.clock.advance(Duration::days(45));
    for path in [
        format!("/v1/accounts/{}/balances", granted.current),
        format!("/v1/card-accounts/{}/balances", granted.card),
    ] {
        unattended(&app, &later, &path).send().await.assert_ok();
    }
}

#[tokio::test]
async fn an_unknown_fix_name_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let (psu, _) = consent_for_kari(&app).await;
    let response = present(&app, &psu, "/v1/accounts")
        .header("x-accept-fix", "longer-names, shorter-names")
        .send()
        .await;
    response.assert_ok();
    let messages = response.body["tppMessages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(messages[0]["category"], "WARNING");
    assert!(messages[0]["text"]
        .as_str()
        .unwrap()
        .contains("shorter-names"));
    assert!(
        messages[0]["text"]
            .as_str()
            .unwrap()
            .contains("unknown fixes, ignored: shorter-names."),
        "only the unknown name is reported: {messages:?}"
    );
}

/// Sends a GET signed with `credentials` (the helper's builder signs only with fixture certificates).
async fn send_signed(
    app: &TestApp,
    credentials: &SigningCredentials,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let mut map = reqwest::header::HeaderMap::new();
    for (name, value) in headers {
        map.insert(
            reqwest::header::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    credentials.sign(
        "GET",
        path,
        &mut map,
        b"",
        app.state.clock.now(),
        &SignOptions::default(),
    );
    let response = app
        .client
        .get(format!("{}{path}", app.base))
        .headers(map)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn before_the_switch_date_card_amounts_are_swapped_unless_the_fix_is_named() {
    let app = spawn_app().await;
    app.state.clock.set(datetime!(2024-01-01 12:00 UTC));
    // The fixture certificates start in 2025: issue an AISP certificate valid on the clock's date.
    let mut request = tpp_request_defaults(
        "Old Clock AISP",
        vec![Psd2Role::PspAi],
        datetime!(2023-01-01 0:00 UTC),
    );
    request.not_after = datetime!(2030-01-01 0:00 UTC);
    let issued = CertificateAuthority::bundled_test_ca()
        .issue_tpp(&request)
        .unwrap();
    let credentials = SigningCredentials::from_pem(&issued.cert_pem, &issued.key_pem).unwrap();

    let session = uuid::Uuid::new_v4().to_string();
    let base = [
        ("TPP-Session-ID", session.as_str()),
        ("TPP-Redirect-URI", REDIRECT),
        ("PSU-IP-Address", "192.0.2.10"),
    ];
    let (status, asked) = send_signed(&app, &credentials, "/v1/accounts", &base).await;
    assert_eq!(status, 401, "{asked}");
    let href = asked["_links"]["scaRedirect"]["href"].as_str().unwrap();
    let id = href.rsplit('/').next().unwrap();
    let (store, now) = (&app.state.store, app.state.clock.now());
    engine::identify(store, id, KARI, now).unwrap();
    engine::choose_method(store, id, AuthMethod::Ha2, now).unwrap();
    engine::choose_context(store, id, Context::Private, None, now).unwrap();
    let auth = engine::load(store, id).unwrap();
    let all: Vec<String> = engine::consent_choices(store, &auth)
        .unwrap()
        .into_iter()
        .map(|c| c.id)
        .collect();
    let done = engine::grant(store, id, &all, now).unwrap();
    let redirect = done.redirect.unwrap();
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(redirect.split_once('?').unwrap().1).unwrap();
    let psu_id = pairs.iter().find(|(k, _)| k == "psu-id").unwrap().1.clone();
    let mut headers = base.to_vec();
    headers.push(("PSU-ID", psu_id.as_str()));

    let (status, cards) = send_signed(&app, &credentials, "/v1/card-accounts", &headers).await;
    assert_eq!(status, 200, "{cards}");
    let card = cards["cardAccounts"][0]["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/v1/card-accounts/{card}/transactions?bookingStatus=booked");
    let foreign = |body: &Value| -> Value {
        body["cardTransactions"]["booked"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["merchantCategoryCode"] == "5812")
            .unwrap()
            .clone()
    };

    let (status, old) = send_signed(&app, &credentials, &path, &headers).await;
    assert_eq!(status, 200, "{old}");
    let t = foreign(&old);
    assert_eq!(
        t["transactionAmount"]["currency"], "EUR",
        "the old mapping: {t}"
    );
    assert_eq!(t["originalAmount"]["currency"], "NOK");
    assert!(
        t["transactionAmount"]["amount"].is_string(),
        "amount-as-string is default since 2020"
    );

    let mut with_fix = headers.clone();
    with_fix.push((
        "x-accept-fix",
        "cardaccount-switch-originalamount-and-transactionamount",
    ));
    let (status, fixed) = send_signed(&app, &credentials, &path, &with_fix).await;
    assert_eq!(status, 200, "{fixed}");
    let t = foreign(&fixed);
    assert_eq!(t["transactionAmount"]["currency"], "NOK", "{t}");
    assert_eq!(t["originalAmount"]["currency"], "EUR");

    // cash-account-type-iso is not the default either in 2024.
    let (_, accounts) = send_signed(&app, &credentials, "/v1/accounts", &headers).await;
    let types: Vec<&str> = accounts["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["cashAccountType"].as_str().unwrap())
        .collect();
    assert!(
        types.contains(&"CURRENT") && types.contains(&"SAVINGS"),
        "{types:?}"
    );
}
