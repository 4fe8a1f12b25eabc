//! The account information rules one by one, each over HTTP with its status and code: PSU-not-present
//! limits, the 90-day online-access window, PSU-Corporate-ID and context, the SCA and consent entry
//! points, resource ids outside the consent, date parameters, the identify page's refusals, the sandbox
//! automation's owner check, and that psu-ids are separate per TPP.

use crate::helpers::{
    authorisation_id, complete_sca, complete_sca_as, sca_redirect, spawn_app, TestApp,
    TestResponse, TppState, AIS_REDIRECT,
};
use crate::sca_pages::{browser, get_page, post_form, start_sca, stranger, TPP_REDIRECT};
use serde_json::{json, Value};
use time::Duration;
use xs2a_core::bank::mock::seed;

/// The seeded persons' national identity numbers: Kari (Fjordkraft and Nordlys), Ola (Fjordkraft), Per
/// (Nordlys).
fn person(index: usize) -> String {
    seed::private_customers()[index].0.clone()
}

fn kari() -> String {
    person(0)
}

/// A private consent for Kari to every account offered, at the TPP with `certificate` (None: the
/// default aisp-pisp).
async fn private_consent_as(
    app: &TestApp,
    certificate: Option<&'static str>,
    session: &str,
) -> TppState {
    let mut tpp = TppState::new(session);
    tpp.certificate = certificate;
    let href = sca_redirect(&tpp.get(app, "/v1/accounts").send().await);
    let done = complete_sca_as(
        app,
        certificate,
        &href,
        json!({"nationalId": kari(), "context": "PRIVATE"}),
    )
    .await;
    assert_eq!(done["outcome"], "SUCCEEDED", "{done}");
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    tpp
}

async fn private_consent(app: &TestApp, session: &str) -> TppState {
    private_consent_as(app, None, session).await
}

/// A user lookup (GET /v1/users) for the person with `national_id`: the TPP state with the psu-id.
async fn looked_up(app: &TestApp, session: &str, national_id: &str) -> TppState {
    let mut tpp = TppState::new(session);
    let href = sca_redirect(&tpp.get(app, "/v1/users").send().await);
    let done = complete_sca(app, &href, json!({"nationalId": national_id})).await;
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    tpp
}

/// The sandbox id of the agreement owned by the corporation with this organisation number.
async fn agreement_id(app: &TestApp, owner: &str) -> Value {
    let agreements = app.get("/v1/sandbox/agreements").send().await.body;
    agreements
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["owner"] == owner)
        .unwrap_or_else(|| panic!("no agreement of {owner}: {agreements}"))["id"]
        .clone()
}

const FJORDKRAFT: &str = "910000004";

/// The first id of a list answer (`accounts` or `cardAccounts`).
async fn first_id(tpp: &TppState, app: &TestApp, path: &str, list: &str) -> String {
    let response = tpp.get(app, path).send().await;
    response.assert_ok();
    response.body[list][0]["resourceId"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", response.body))
        .to_owned()
}

#[track_caller]
fn assert_status_code(response: &TestResponse, status: u16, code: &str) {
    response.assert_refused(status, code, None);
}

#[tokio::test]
async fn ais_rules_the_fifth_unattended_transactions_read_is_429_access_exceeded() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    let id = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    tpp.present = false;
    let path = format!("/v1/accounts/{id}/transactions?bookingStatus=booked");
    for _ in 0..4 {
        tpp.get(&app, &path).send().await.assert_ok();
    }
    let fifth = tpp.get(&app, &path).send().await;
    assert_status_code(&fifth, 429, "ACCESS_EXCEEDED");
    // Balances are counted apart.
    tpp.get(&app, &format!("/v1/accounts/{id}/balances"))
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn ais_rules_the_fifth_unattended_card_balances_read_is_429_access_exceeded() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    let card = first_id(&tpp, &app, "/v1/card-accounts", "cardAccounts").await;
    tpp.present = false;
    let path = format!("/v1/card-accounts/{card}/balances");
    for _ in 0..4 {
        tpp.get(&app, &path).send().await.assert_ok();
    }
    assert_status_code(&tpp.get(&app, &path).send().await, 429, "ACCESS_EXCEEDED");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ais_rules_parallel_unattended_reads_count_exactly_four() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    let id = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    tpp.present = false;
    let path = format!("/v1/accounts/{id}/balances");
    let send = || tpp.get(&app, &path).send();
    let responses = tokio::join!(
        send(),
        send(),
        send(),
        send(),
        send(),
        send(),
        send(),
        send()
    );
    let responses = [
        responses.0,
        responses.1,
        responses.2,
        responses.3,
        responses.4,
        responses.5,
        responses.6,
        responses.7,
    ];
    let ok = responses.iter().filter(|r| r.status == 200).count();
    let exceeded: Vec<&TestResponse> = responses.iter().filter(|r| r.status == 429).collect();
    assert_eq!((ok, exceeded.len()), (4, 4), "statuses: {:?}", {
        responses.iter().map(|r| r.status).collect::<Vec<_>>()
    });
    for response in exceeded {
        assert_eq!(response.code(), "ACCESS_EXCEEDED");
    }
}

#[tokio::test]
async fn ais_rules_an_account_not_read_online_for_over_90_days_is_401_consent_expired() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    let id = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    tpp.present = false;
    let path = format!("/v1/accounts/{id}/balances");
    tpp.get(&app, &path).send().await.assert_ok();
    app.state.clock.advance(Duration::days(91));
    let response = tpp.get(&app, &path).send().await;
    response.assert_refused(401, "CONSENT_EXPIRED", Some("PSU-IP-Address"));
}

#[tokio::test]
async fn ais_rules_an_unknown_psu_corporate_id_is_400_format_error() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    tpp.corporate_id = Some(uuid::Uuid::new_v4().to_string());
    tpp.get(&app, "/v1/accounts").send().await.assert_refused(
        400,
        "FORMAT_ERROR",
        Some("PSU-Corporate-ID"),
    );
}

#[tokio::test]
async fn ais_rules_an_agreement_the_psu_is_not_engaged_in_is_403_forbidden() {
    let app = spawn_app().await;
    // Per acts for Nordlys only; his agreement list gives its psu-corporate-id at this TPP.
    let per = looked_up(&app, "per", &person(2)).await;
    let agreements = per.get(&app, "/v1/agreements").send().await;
    agreements.assert_ok();
    let list = agreements.body["agreements"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{}", agreements.body);
    let nordlys = list[0]["psuCorporateId"].as_str().unwrap().to_owned();
    // Ola acts for Fjordkraft only (Kari acts for both, so she would be allowed).
    let mut ola = looked_up(&app, "ola", &person(1)).await;
    ola.corporate_id = Some(nordlys);
    let response = ola.get(&app, "/v1/accounts").send().await;
    assert_status_code(&response, 403, "FORBIDDEN");
}

#[tokio::test]
async fn ais_rules_psu_present_with_a_consent_but_no_session_id_is_400() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let response = app
        .get("/v1/accounts")
        .header("PSU-ID", tpp.psu_id.as_deref().unwrap())
        .header("PSU-IP-Address", "192.0.2.10")
        .header("TPP-Redirect-URI", AIS_REDIRECT)
        .send()
        .await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("TPP-Session-ID"));
}

#[tokio::test]
async fn ais_rules_users_without_a_psu_id_is_401_consent_invalid_with_a_redirect() {
    let app = spawn_app().await;
    let response = TppState::new("s").get(&app, "/v1/users").send().await;
    // The consent journey's code: Berlin Group pairs CONSENT_INVALID with 401, SCA_INVALID with 400.
    assert_status_code(&response, 401, "CONSENT_INVALID");
    sca_redirect(&response);
    assert!(
        response
            .text()
            .contains("No PSU-ID: the PSU has not been identified by SCA yet."),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn ais_rules_an_unknown_psu_id_is_401_naming_psu_id_unless_sca_cannot_start() {
    let app = spawn_app().await;
    let stranger_id = uuid::Uuid::new_v4().to_string();
    for path in ["/v1/users", "/v1/accounts"] {
        let mut tpp = TppState::new("s");
        tpp.psu_id = Some(stranger_id.clone());
        let response = tpp.get(&app, path).send().await;
        response.assert_refused(401, "PSU_CREDENTIALS_INVALID", Some("PSU-ID"));
        sca_redirect(&response);
        assert!(response.text().contains("not known to this TPP"));
        // Without TPP-Redirect-URI no SCA can start: that 400 is what the TPP must fix, and it says so.
        let response = app
            .get(path)
            .header("PSU-ID", &stranger_id)
            .header("TPP-Session-ID", "s")
            .send()
            .await;
        response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("TPP-Redirect-URI"));
    }
}

#[tokio::test]
async fn ais_rules_agreements_without_a_valid_session_is_401_with_sca_redirect() {
    let app = spawn_app().await;
    let response = TppState::new("s").get(&app, "/v1/agreements").send().await;
    assert_status_code(&response, 401, "CONSENT_INVALID");
    sca_redirect(&response);

    let mut tpp = looked_up(&app, "s", &kari()).await;
    tpp.session = "another".into();
    let response = tpp.get(&app, "/v1/agreements").send().await;
    assert_status_code(&response, 401, "CONSENT_INVALID");
    sca_redirect(&response);

    tpp.session = "s".into();
    app.state.clock.advance(Duration::hours(1));
    let response = tpp.get(&app, "/v1/agreements").send().await;
    assert_status_code(&response, 401, "SCA_EXPIRED");
    sca_redirect(&response);
}

#[tokio::test]
async fn ais_rules_consent_endpoints_answer_401_consent_unknown_and_403_to_a_pisp() {
    let app = spawn_app().await;
    for path in ["/v1/consents", "/v1/bank-offered-consents"] {
        let response = TppState::new("s").post(&app, path, &json!({})).send().await;
        assert_status_code(&response, 401, "CONSENT_INVALID");
        sca_redirect(&response);
        let response = TppState::new("s")
            .signing_as("pisp")
            .post(&app, path, &json!({}))
            .send()
            .await;
        assert_status_code(&response, 403, "FORBIDDEN");
    }
}

#[tokio::test]
async fn ais_rules_card_accounts_are_403_for_a_pisp_only_certificate() {
    let app = spawn_app().await;
    let response = TppState::new("s")
        .signing_as("pisp")
        .get(&app, "/v1/card-accounts")
        .send()
        .await;
    assert_status_code(&response, 403, "FORBIDDEN");
}

#[tokio::test]
async fn ais_rules_a_new_agreement_context_is_401_consent_unknown() {
    let app = spawn_app().await;
    let mut tpp = TppState::new("corp");
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let fjordkraft = agreement_id(&app, FJORDKRAFT).await;
    let done = complete_sca(
        &app,
        &href,
        json!({"nationalId": kari(), "context": "CORPORATE", "agreementId": fjordkraft}),
    )
    .await;
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    let own = done["psuCorporateId"].as_str().unwrap().to_owned();
    let mut plain = tpp.clone();
    plain.corporate_id = None;
    // In the corporate session, no PSU-Corporate-ID is 400 (docs/reference/ais-sca.md).
    plain.get(&app, "/v1/accounts").send().await.assert_refused(
        400,
        "HTTP_HEADER_REQUIRED",
        Some("PSU-Corporate-ID"),
    );
    let agreements = plain.get(&app, "/v1/agreements").send().await.body;
    let other = agreements["agreements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["psuCorporateId"].as_str().unwrap().to_owned())
        .find(|id| *id != own)
        .expect("Kari's second agreement");
    tpp.corporate_id = Some(other);
    let response = tpp.get(&app, "/v1/accounts").send().await;
    assert_status_code(&response, 401, "CONSENT_INVALID");
    sca_redirect(&response);
}

#[tokio::test]
async fn ais_rules_without_psu_corporate_id_a_private_session_is_the_private_context() {
    let app = spawn_app().await;
    // Kari has only a corporate consent at this TPP ...
    let mut corporate = TppState::new("corp");
    let href = sca_redirect(&corporate.get(&app, "/v1/accounts").send().await);
    let fjordkraft = agreement_id(&app, FJORDKRAFT).await;
    let done = complete_sca(
        &app,
        &href,
        json!({"nationalId": kari(), "context": "CORPORATE", "agreementId": fjordkraft}),
    )
    .await;
    corporate.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    // ... then completes SCA in private context in a new session (a user lookup).
    let mut private = corporate.clone();
    private.session = "private".into();
    let href = sca_redirect(&private.get(&app, "/v1/users").send().await);
    complete_sca(&app, &href, json!({"context": "PRIVATE"})).await;
    // Without PSU-Corporate-ID that is the private context, with no consent yet: the consent flow.
    let response = private.get(&app, "/v1/accounts").send().await;
    assert_status_code(&response, 401, "CONSENT_INVALID");
    let href = sca_redirect(&response);
    let started = app
        .get(&format!("/v1/sandbox/sca/{}", authorisation_id(&href)))
        .send()
        .await;
    assert_eq!(started.body["agreementId"], Value::Null, "{}", started.body);
    complete_sca(&app, &href, json!({"context": "PRIVATE"})).await;
    private.get(&app, "/v1/accounts").send().await.assert_ok();
}

#[tokio::test]
async fn ais_rules_a_preset_agreement_the_person_is_not_engaged_in_is_dropped() {
    let app = spawn_app().await;
    let per = looked_up(&app, "per", &person(2)).await;
    let nordlys = per.get(&app, "/v1/agreements").send().await.body["agreements"][0]
        ["psuCorporateId"]
        .as_str()
        .unwrap()
        .to_owned();
    // Ola is known (PSU-ID) but has no engagement in Nordlys: the context page asks instead.
    let mut ola = looked_up(&app, "ola", &person(1)).await;
    ola.corporate_id = Some(nordlys.clone());
    let response = ola
        .post(&app, "/v1/bank-offered-consents", &json!({}))
        .send()
        .await;
    let href = sca_redirect(&response);
    let state = app
        .get(&format!("/v1/sandbox/sca/{}", authorisation_id(&href)))
        .send()
        .await
        .body;
    assert_eq!(state["agreementId"], Value::Null, "{state}");
    assert_eq!(state["context"], Value::Null, "{state}");

    // Not yet identified: the preset is dropped when Ola identifies.
    let mut anonymous = TppState::new("anon");
    anonymous.corporate_id = Some(nordlys);
    let response = anonymous
        .post(&app, "/v1/bank-offered-consents", &json!({}))
        .send()
        .await;
    let href = sca_redirect(&response);
    let done = complete_sca(&app, &href, json!({"nationalId": person(1)})).await;
    assert_eq!(done["context"], "PRIVATE", "{done}");
    assert!(done.get("psuCorporateId").is_none(), "{done}");
}

#[tokio::test]
async fn ais_rules_a_psu_id_from_another_tpp_is_401_with_sca_redirect() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let response = tpp
        .clone()
        .signing_as("aisp")
        .get(&app, "/v1/accounts")
        .send()
        .await;
    response.assert_refused(401, "PSU_CREDENTIALS_INVALID", Some("PSU-ID"));
    sca_redirect(&response);
}

#[tokio::test]
async fn ais_rules_the_same_person_has_a_different_psu_id_at_each_tpp() {
    let app = spawn_app().await;
    let here = private_consent(&app, "s").await;
    let there = private_consent_as(&app, Some("aisp"), "s").await;
    assert_ne!(here.psu_id, there.psu_id);
    here.get(&app, "/v1/accounts").send().await.assert_ok();
    there.get(&app, "/v1/accounts").send().await.assert_ok();
    // Each psu-id is unknown at the other TPP.
    let mut crossed = there.clone();
    crossed.psu_id = here.psu_id.clone();
    crossed
        .get(&app, "/v1/accounts")
        .send()
        .await
        .assert_refused(401, "PSU_CREDENTIALS_INVALID", Some("PSU-ID"));
}

#[tokio::test]
async fn ais_rules_a_consent_at_one_tpp_gives_no_access_at_another() {
    let app = spawn_app().await;
    let here = private_consent(&app, "s").await;
    here.get(&app, "/v1/accounts").send().await.assert_ok();
    // At the aisp TPP Kari is identified (user lookup) but has granted nothing there.
    let mut there = TppState::new("s").signing_as("aisp");
    let href = sca_redirect(&there.get(&app, "/v1/users").send().await);
    let done = complete_sca_as(&app, Some("aisp"), &href, json!({"nationalId": kari()})).await;
    there.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    assert_ne!(there.psu_id, here.psu_id);
    let response = there.get(&app, "/v1/accounts").send().await;
    assert_status_code(&response, 401, "CONSENT_INVALID");
    sca_redirect(&response);
}

#[tokio::test]
async fn ais_rules_card_ids_outside_the_consent_and_account_ids_as_cards_are_404() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let account = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    let card = first_id(&tpp, &app, "/v1/card-accounts", "cardAccounts").await;
    // An account id is not a card account.
    for path in [
        format!("/v1/card-accounts/{account}"),
        format!("/v1/card-accounts/{account}/balances"),
    ] {
        tpp.get(&app, &path).send().await.assert_refused(
            404,
            "RESOURCE_UNKNOWN",
            Some("accountId"),
        );
    }
    // The PSU takes the card out of the consent at the bank.
    app.post(
        "/v1/sandbox/consents/revoke",
        &json!({"customerNumber": kari(), "accounts": [card.clone()]}),
    )
    .send()
    .await
    .assert_ok();
    for path in [
        format!("/v1/card-accounts/{card}"),
        format!("/v1/card-accounts/{card}/balances"),
        format!("/v1/card-accounts/{card}/transactions?bookingStatus=booked"),
    ] {
        tpp.get(&app, &path).send().await.assert_refused(
            404,
            "RESOURCE_UNKNOWN",
            Some("accountId"),
        );
    }
}

#[tokio::test]
async fn ais_rules_bad_date_parameters_are_400_format_error() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let id = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    for query in [
        "bookingStatus=booked&dateFrom=2026-05-01&dateTo=2026-04-01",
        "bookingStatus=booked&dateFrom=1.1.2026",
        "bookingStatus=booked&dateFrom=2026-13-01",
    ] {
        tpp.get(&app, &format!("/v1/accounts/{id}/transactions?{query}"))
            .send()
            .await
            .assert_refused(400, "FORMAT_ERROR", Some("dateFrom"));
    }
    // A date of the right form that names no day is called that, not a wrong form.
    let response = tpp
        .get(
            &app,
            &format!("/v1/accounts/{id}/transactions?bookingStatus=booked&dateFrom=2026-02-30"),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("dateFrom"));
    assert!(
        response
            .text()
            .contains("dateFrom 2026-02-30 is not a calendar date (February 2026 has 28 days)."),
        "{}",
        response.text()
    );
}

#[tokio::test]
async fn ais_rules_paging_links_keep_booking_status_all() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let id = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    let page = tpp
        .get(
            &app,
            &format!("/v1/accounts/{id}/transactions?bookingStatus=all&limit=1"),
        )
        .send()
        .await;
    page.assert_ok();
    let links = &page.body["transactions"]["_links"];
    for name in ["self", "next"] {
        let href = links[name]["href"]
            .as_str()
            .unwrap_or_else(|| panic!("{links}"));
        assert!(href.contains("bookingStatus=all"), "{name}: {href}");
    }
}

#[tokio::test]
async fn ais_rules_any_completed_sca_renews_the_consent_of_its_context() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    app.state.clock.advance(Duration::days(100));
    // A user lookup in a new session, in private context: SCA without the consent screen.
    tpp.session = "lookup".into();
    let href = sca_redirect(&tpp.get(&app, "/v1/users").send().await);
    complete_sca(&app, &href, json!({"context": "PRIVATE"})).await;
    let consent = tpp.get(&app, "/v1/bank-offered-consents").send().await;
    consent.assert_ok();
    let today = (crate::helpers::TEST_NOW + Duration::days(100))
        .date()
        .to_string();
    assert_eq!(
        consent.body["lastActionDate"],
        today.as_str(),
        "{}",
        consent.body
    );
    // 200 days after the consent, 100 after the lookup: still within the 180 days.
    app.state.clock.advance(Duration::days(100));
    tpp.present = false;
    tpp.get(&app, "/v1/accounts").send().await.assert_ok();
}

#[tokio::test]
async fn ais_rules_the_identify_page_refuses_bad_check_digits_with_400() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let mut bad = kari();
    let last = bad.pop().unwrap();
    bad.push(if last == '9' {
        '0'
    } else {
        (last as u8 + 1) as char
    });
    let page = post_form(
        &app,
        &client,
        &format!("/sca/{}/identify", started.id),
        &[("nationalId", &bad)],
    )
    .await;
    assert_eq!(page.status, 400, "{}", page.html);
    assert!(
        page.html
            .contains("That is not a valid national identity number"),
        "{}",
        page.html
    );
}

#[tokio::test]
async fn ais_rules_the_identify_page_says_why_an_x_psu_identity_preset_was_not_used() {
    let app = spawn_app().await;
    let client = browser();
    let nobody = stranger();
    for (preset, message) in [
        (
            "12345678901",
            "That is not a valid national identity number",
        ),
        (
            nobody.as_str(),
            "No sandbox customer has that national identity number",
        ),
    ] {
        let started = start_sca(
            &app,
            "/v1/accounts",
            TPP_REDIRECT,
            &[("X-PSU-IDENTITY", preset)],
        )
        .await;
        let page = get_page(&app, &client, &started.page, None).await;
        assert_eq!(page.status, 200);
        assert!(page.html.contains("id=\"nationalId\""), "{}", page.html);
        assert!(page.html.contains("id=\"error\""), "{}", page.html);
        assert!(page.html.contains(message), "{preset}: {}", page.html);
    }
    // A usable preset shows no message (identify is skipped).
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[("X-PSU-IDENTITY", &kari())],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    assert!(!page.html.contains("id=\"error\""), "{}", page.html);
}

#[tokio::test]
async fn ais_rules_sca_automation_answers_only_the_tpp_that_started_the_authorisation() {
    let app = spawn_app().await;
    let tpp = TppState::new("s");
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let path = format!("/v1/sandbox/sca/{}", authorisation_id(&href));
    for response in [
        app.get(&path).signed_by("aisp").send().await,
        app.post(&path, &json!({"nationalId": kari()}))
            .signed_by("aisp")
            .send()
            .await,
    ] {
        assert_status_code(&response, 404, "SCA_NOT_FOUND");
    }
    // Untouched: the TPP that started it can still see and complete it.
    let state = app.get(&path).send().await;
    state.assert_ok();
    assert_eq!(state.body["step"], "identify");
    let done = complete_sca(&app, &href, json!({"nationalId": kari()})).await;
    assert_eq!(done["outcome"], "SUCCEEDED");
}

#[tokio::test]
async fn ais_rules_a_booking_status_written_in_another_case_is_named_in_the_refusal() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let id = first_id(&tpp, &app, "/v1/accounts", "accounts").await;
    let response = tpp
        .get(
            &app,
            &format!("/v1/accounts/{id}/transactions?BookingStatus=booked"),
        )
        .send()
        .await;
    response.assert_refused(400, "QUERY_PARAMETER_REQUIRED", Some("bookingStatus"));
    assert!(
        response
            .text()
            .contains("'BookingStatus' was sent, which differs from it only in case"),
        "{}",
        response.body
    );
}

#[tokio::test]
async fn ais_rules_a_national_id_sent_as_psu_id_gets_a_pointer_to_x_psu_identity() {
    let app = spawn_app().await;
    let response = app
        .get("/v1/accounts")
        .header("PSU-ID", &kari())
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("PSU-ID"));
    let text = response.text();
    assert!(
        text.contains("looks like a national identity number"),
        "{text}"
    );
    assert!(text.contains("X-PSU-IDENTITY"), "{text}");
    assert!(text.contains("psu-id"), "{text}");
}
