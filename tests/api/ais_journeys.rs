//! End-to-end account information journeys as a TPP lives them: 401 with scaRedirect, SCA completed
//! through the sandbox automation endpoint (what a tester's CI does), then reads with the psu-id; and
//! every SCA, session, consent and corporate-context rule with its status and code.

use crate::helpers::{
    complete_sca, sca_redirect, spawn_app, TestApp, TppState, AIS_REDIRECT as REDIRECT,
};
use serde_json::json;
use time::Duration;

const KARI: &str = "14838510036";

/// A private consent for Kari to all her accounts; returns the TPP's state afterwards.
pub(crate) async fn private_consent(app: &TestApp, session: &str) -> TppState {
    let mut tpp = TppState::new(session);
    let href = sca_redirect(&tpp.get(app, "/v1/accounts").send().await);
    let done = complete_sca(
        app,
        &href,
        json!({"nationalId": KARI, "context": "PRIVATE"}),
    )
    .await;
    assert_eq!(done["outcome"], "SUCCEEDED", "{done}");
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    tpp
}

#[tokio::test]
async fn private_journey_users_sca_accounts_balances_and_transaction_pages() {
    let app = spawn_app().await;
    let mut tpp = TppState::new("session-1");
    // GET /v1/users starts SCA to obtain a psu-id.
    let href = sca_redirect(&tpp.get(&app, "/v1/users").send().await);
    let done = complete_sca(&app, &href, json!({"nationalId": KARI})).await;
    let redirect = done["redirect"].as_str().unwrap();
    assert!(
        redirect.starts_with(&format!("{REDIRECT}?psu-id=")),
        "{redirect}"
    );
    assert!(
        redirect.contains("tpp-session-id=session-1") && redirect.contains("context=PRIVATE"),
        "{redirect}"
    );
    let psu_id = done["psuId"].as_str().unwrap().to_owned();
    assert!(uuid::Uuid::parse_str(&psu_id).is_ok());
    tpp.psu_id = Some(psu_id.clone());
    let user = tpp.get(&app, "/v1/users").send().await;
    user.assert_ok();
    assert_eq!(user.body["psuId"], psu_id.as_str());

    // No consent yet: the consent flow, this time without asking who the PSU is.
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let state = app
        .get(&format!(
            "/v1/sandbox/sca/{}",
            href.rsplit('/').next().unwrap()
        ))
        .send()
        .await;
    assert_ne!(
        state.body["step"], "identify",
        "the PSU is known from PSU-ID: {}",
        state.body
    );
    let done = complete_sca(&app, &href, json!({"context": "PRIVATE"})).await;
    assert_eq!(
        done["psuId"],
        psu_id.as_str(),
        "the same psu-id every time for this TPP"
    );

    let accounts = tpp.get(&app, "/v1/accounts").send().await;
    accounts.assert_ok();
    let list = accounts.body["accounts"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{}", accounts.body);
    let id = list[0]["resourceId"].as_str().unwrap();
    let balances = tpp
        .get(&app, &format!("/v1/accounts/{id}/balances"))
        .send()
        .await;
    balances.assert_ok();
    let currency = &balances.body["account"]["currency"];
    for balance in balances.body["balances"].as_array().unwrap() {
        assert_eq!(&balance["balanceAmount"]["currency"], currency);
        assert!(
            balance["balanceAmount"]["amount"].is_string(),
            "amounts are strings"
        );
    }
    let page = tpp
        .get(
            &app,
            &format!("/v1/accounts/{id}/transactions?bookingStatus=booked&limit=2"),
        )
        .send()
        .await;
    page.assert_ok();
    assert_eq!(
        page.body["transactions"]["booked"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let next = page.body["transactions"]["_links"]["next"]["href"]
        .as_str()
        .expect("a next page")
        .to_owned();
    tpp.get(&app, &next).send().await.assert_ok();
}

#[tokio::test]
async fn corporate_journey_needs_psu_corporate_id_and_lists_agreements() {
    let app = spawn_app().await;
    let mut tpp = TppState::new("corp-1");
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let agreements = app.get("/v1/sandbox/agreements").send().await.body;
    let fjordkraft = agreements
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["owner"] == "910000004")
        .unwrap()["id"]
        .clone();
    let done = complete_sca(
        &app,
        &href,
        json!({"nationalId": KARI, "context": "CORPORATE", "agreementId": fjordkraft}),
    )
    .await;
    assert_eq!(done["context"], "CORPORATE", "{done}");
    let redirect = done["redirect"].as_str().unwrap();
    assert!(
        redirect.contains("psu-corporate-id=") && redirect.contains("context=CORPORATE"),
        "{redirect}"
    );
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());

    // docs/reference/ais-sca.md: a corporate user without PSU-Corporate-ID is 400.
    let without = tpp.get(&app, "/v1/accounts").send().await;
    without.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("PSU-Corporate-ID"));

    tpp.corporate_id = Some(done["psuCorporateId"].as_str().unwrap().to_owned());
    let accounts = tpp.get(&app, "/v1/accounts").send().await;
    accounts.assert_ok();
    assert!(!accounts.body["accounts"].as_array().unwrap().is_empty());

    // The agreements, each with the psu-corporate-id to send.
    let mut plain = tpp.clone();
    plain.corporate_id = None;
    let agreements = plain.get(&app, "/v1/agreements").send().await;
    agreements.assert_ok();
    let list = agreements.body["agreements"].as_array().unwrap();
    assert_eq!(
        list.len(),
        2,
        "Kari acts for two corporations: {}",
        agreements.body
    );
    let other = list
        .iter()
        .map(|a| a["psuCorporateId"].as_str().unwrap().to_owned())
        .find(|id| Some(id) != tpp.corporate_id.as_ref())
        .unwrap();

    // A new agreement context without consent: a consent flow that does not ask for the agreement again.
    tpp.corporate_id = Some(other);
    let href = sca_redirect(&tpp.get(&app, "/v1/accounts").send().await);
    let id = href.rsplit('/').next().unwrap();
    let state = app.get(&format!("/v1/sandbox/sca/{id}")).send().await;
    assert_ne!(state.body["step"], "context", "{}", state.body);
    complete_sca(&app, &href, json!({})).await;
    tpp.get(&app, "/v1/accounts").send().await.assert_ok();
}

#[tokio::test]
async fn a_consent_revoked_at_the_bank_asks_for_sca_again() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    tpp.get(&app, "/v1/accounts").send().await.assert_ok();
    let revoked = app
        .post(
            "/v1/sandbox/consents/revoke",
            &json!({"customerNumber": KARI}),
        )
        .send()
        .await;
    revoked.assert_ok();
    let after = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(after.code(), "CONSENT_INVALID");
    sca_redirect(&after);
}

#[tokio::test]
async fn an_account_revoked_at_the_bank_disappears_from_the_list() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let accounts = tpp.get(&app, "/v1/accounts").send().await.body;
    let first = accounts["accounts"][0]["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        "/v1/sandbox/consents/revoke",
        &json!({"customerNumber": KARI, "accounts": [first.clone()]}),
    )
    .send()
    .await
    .assert_ok();
    let after = tpp.get(&app, "/v1/accounts").send().await;
    let ids: Vec<&str> = after.body["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["resourceId"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&first.as_str()));
    tpp.get(&app, &format!("/v1/accounts/{first}/balances"))
        .send()
        .await
        .assert_refused(404, "RESOURCE_UNKNOWN", None);
}

#[tokio::test]
async fn the_session_expires_after_one_simulated_hour() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    app.state.clock.advance(Duration::minutes(59));
    tpp.get(&app, "/v1/accounts").send().await.assert_ok();
    app.state.clock.advance(Duration::minutes(1));
    let expired = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(expired.code(), "SCA_EXPIRED");
    sca_redirect(&expired);
}

#[tokio::test]
async fn a_new_session_id_needs_a_new_sca_which_then_retires_the_old_one() {
    let app = spawn_app().await;
    let old = private_consent(&app, "old").await;
    let mut new = old.clone();
    new.session = "new".into();
    let response = new.get(&app, "/v1/accounts").send().await;
    assert_eq!(response.code(), "CONSENT_INVALID");
    // Before the new SCA completes, the old session still works.
    old.get(&app, "/v1/accounts").send().await.assert_ok();
    complete_sca(
        &app,
        &sca_redirect(&response),
        json!({"context": "PRIVATE"}),
    )
    .await;
    new.get(&app, "/v1/accounts").send().await.assert_ok();
    let retired = old.get(&app, "/v1/accounts").send().await;
    assert_eq!(retired.code(), "CONSENT_INVALID");
    assert!(retired.text().contains("replaced"), "{}", retired.text());
}

#[tokio::test]
async fn an_aborted_sca_leaves_the_old_session_valid() {
    let app = spawn_app().await;
    let old = private_consent(&app, "old").await;
    let mut new = old.clone();
    new.session = "new".into();
    let href = sca_redirect(&new.get(&app, "/v1/accounts").send().await);
    let cancelled = complete_sca(&app, &href, json!({"outcome": "cancel"})).await;
    assert_eq!(cancelled["outcome"], "CANCELLED");
    let redirect = cancelled["redirect"].as_str().unwrap();
    for part in [
        "system=",
        "status=401",
        "code=SCA_INVALID",
        "message=The%20PSU%20cancelled%20the%20authorisation.",
    ] {
        assert!(redirect.contains(part), "{redirect}");
    }
    assert!(
        !redirect.contains('+'),
        "spaces are %20 (RFC 3986): {redirect}"
    );
    old.get(&app, "/v1/accounts").send().await.assert_ok();
}

#[tokio::test]
async fn psu_not_present_reads_are_limited_to_four_per_day() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    let id = tpp.get(&app, "/v1/accounts").send().await.body["accounts"][0]["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    tpp.get(&app, &format!("/v1/accounts/{id}/balances"))
        .send()
        .await
        .assert_ok();
    tpp.present = false;
    let path = format!("/v1/accounts/{id}/balances");
    for _ in 0..4 {
        tpp.get(&app, &path).send().await.assert_ok();
    }
    tpp.get(&app, &path)
        .send()
        .await
        .assert_refused(429, "ACCESS_EXCEEDED", None);
    app.state.clock.advance(Duration::hours(24));
    tpp.get(&app, &path).send().await.assert_ok();
}

#[tokio::test]
async fn history_without_the_psu_is_limited_to_90_days() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    let id = tpp.get(&app, "/v1/accounts").send().await.body["accounts"][0]["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    tpp.get(&app, &format!("/v1/accounts/{id}/balances"))
        .send()
        .await
        .assert_ok();
    tpp.present = false;
    let response = tpp
        .get(
            &app,
            &format!("/v1/accounts/{id}/transactions?bookingStatus=booked&dateFrom=2020-01-01"),
        )
        .send()
        .await;
    response.assert_ok();
    assert!(!response.warnings().is_empty(), "{}", response.body);
    let floor = (crate::helpers::TEST_NOW - Duration::days(90))
        .date()
        .to_string();
    for item in response.body["transactions"]["booked"].as_array().unwrap() {
        assert!(
            item["bookingDate"].as_str().unwrap() >= floor.as_str(),
            "{item}"
        );
    }
}

#[tokio::test]
async fn the_sca_behind_a_consent_is_renewed_after_180_days() {
    let app = spawn_app().await;
    let mut tpp = private_consent(&app, "s").await;
    app.state.clock.advance(Duration::days(180));
    tpp.session = "later".into();
    let response = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(response.code(), "CONSENT_EXPIRED");
    sca_redirect(&response);
}

#[tokio::test]
async fn a_pisp_only_certificate_gets_403_for_account_information() {
    let app = spawn_app().await;
    let response = app.get("/v1/accounts").signed_by("pisp").send().await;
    response.assert_refused(403, "FORBIDDEN", None);
    assert!(response.text().contains("PSP_AI"));
}

#[tokio::test]
async fn a_psu_id_from_another_tpp_is_unknown_here() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let response = tpp.get(&app, "/v1/accounts").signed_by("aisp").send().await;
    assert_eq!(
        (response.status, response.code()),
        (401, "PSU_CREDENTIALS_INVALID"),
        "{}",
        response.body
    );
}

#[tokio::test]
async fn post_consents_is_deprecated_and_returns_the_sca_redirect() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/consents",
            &json!({"access": {"allPsd2": "allAccounts"}}),
        )
        .header("TPP-Session-ID", "s")
        .header("TPP-Redirect-URI", REDIRECT)
        .send()
        .await;
    sca_redirect(&response);
    // RFC 9745: the deprecation date (2024-01-01) as @<unix seconds>.
    assert_eq!(response.headers["deprecation"], "@1704067200");
    let response = app
        .post("/v1/bank-offered-consents", &json!({}))
        .header("TPP-Session-ID", "s")
        .header("TPP-Redirect-URI", REDIRECT)
        .send()
        .await;
    sca_redirect(&response);
    assert!(response.headers.get("deprecation").is_none());
}

#[tokio::test]
async fn the_current_consent_shows_the_granted_accounts() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let response = tpp.get(&app, "/v1/bank-offered-consents").send().await;
    response.assert_ok();
    assert_eq!(
        response.body["access"]["accounts"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        response.body["access"]["cardAccounts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn starting_sca_needs_a_redirect_uri_and_a_session_id() {
    let app = spawn_app().await;
    let response = app
        .get("/v1/accounts")
        .header("TPP-Session-ID", "s")
        .send()
        .await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("TPP-Redirect-URI"));
    let response = app
        .get("/v1/accounts")
        .header("TPP-Redirect-URI", REDIRECT)
        .send()
        .await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("TPP-Session-ID"));
}

#[tokio::test]
async fn payment_permission_can_be_removed_while_the_account_stays_visible() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    let id = tpp.get(&app, "/v1/accounts").send().await.body["accounts"][0]["resourceId"]
        .as_str()
        .unwrap()
        .to_owned();
    let response = app
        .put(
            &format!("/v1/sandbox/accounts/{id}/payment-permission"),
            &json!({"allowed": false}),
        )
        .send()
        .await;
    response.assert_ok();
    assert_eq!(response.body["paymentsAllowed"], false);
    tpp.get(&app, &format!("/v1/accounts/{id}"))
        .send()
        .await
        .assert_ok();
}

#[tokio::test]
async fn initialisation_removes_consents_and_sessions() {
    let app = spawn_app().await;
    let tpp = private_consent(&app, "s").await;
    app.post("/v1/sandbox/initialize", &json!({}))
        .send()
        .await
        .assert_ok();
    let response = tpp.get(&app, "/v1/accounts").send().await;
    assert_eq!(response.status, 401, "{}", response.body);
}
