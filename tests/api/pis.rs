//! Payment initiation end to end: create, sign in a basket through SCA, execute in a batch run, see the
//! booked transactions; and the refusal rules of payments and baskets with their status and code.

use crate::helpers::{authorisation_id, complete_sca, sca_redirect, spawn_app, TestApp, TppState};
use crate::pis_support::*;
use serde_json::{json, Value};

async fn status(app: &TestApp, tpp: &TppState, product_path: &str, id: &str) -> Value {
    let response = tpp
        .get(app, &format!("{product_path}/{id}/status"))
        .send()
        .await;
    response.assert_ok();
    response.body
}

#[tokio::test]
async fn done_means_straks_and_kid_payments_signed_in_one_basket_then_booked_at_the_next_run() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let straks = created(
        &pay(
            &app,
            &tpp,
            STRAKS,
            &transfer(
                "250.00",
                OLA_CURRENT,
                json!({"remittanceInformationUnstructured": "Middag"}),
            ),
        )
        .send()
        .await,
    );
    let kid_body = transfer(
        "1234.50",
        FJORDKRAFT,
        json!({"remittanceInformationStructured": {"reference": valid_kid(), "referenceType": "KID"}}),
    );
    let domestic = created(&pay(&app, &tpp, DOMESTIC, &kid_body).send().await);
    let ola_before = booked_on(&app, OLA_CURRENT).await.len();
    let fjordkraft_before = booked_on(&app, FJORDKRAFT).await.len();

    let basket = pay(
        &app,
        &tpp,
        "/v1/signing-baskets",
        &json!({"paymentIds": [straks, domestic]}),
    )
    .send()
    .await;
    assert_eq!(basket.status, 201, "{}", basket.body);
    assert_eq!(basket.body["transactionStatus"], "RCVD");
    let basket_id = basket.body["basketId"].as_str().unwrap().to_owned();
    let href = basket.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();

    // The PSU is known from PSU-ID; after choosing a method the page shows what is approved (dynamic linking).
    let chosen = app
        .client
        .post(format!("{href}/method"))
        .form(&[("method", "HA2")])
        .send()
        .await
        .unwrap();
    assert!(chosen.status().is_success() || chosen.status().is_redirection());
    let page = app
        .client
        .get(&href)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("250.00") && page.contains("1234.50") && page.contains(FJORDKRAFT),
        "{page}"
    );
    let done = complete_sca(&app, &href, json!({})).await;
    assert_eq!(done["outcome"], "SUCCEEDED", "{done}");

    // Instant: booked at once. Domestic: accepted, waiting for the batch run.
    assert_eq!(
        status(&app, &tpp, STRAKS, &straks).await["transactionStatus"],
        "ACSC"
    );
    assert_eq!(booked_on(&app, OLA_CURRENT).await.len(), ola_before + 1);
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &domestic).await["transactionStatus"],
        "ACTC"
    );
    let signed = tpp
        .get(&app, &format!("/v1/signing-baskets/{basket_id}/status"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert_eq!(signed.body["transactionStatus"], "ACTC", "{}", signed.body);

    // The next run is 14:00; advancing the clock performs it before answering.
    app.put("/v1/sandbox/clock", &json!({"advance": "PT2H"}))
        .send()
        .await
        .assert_ok();
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &domestic).await["transactionStatus"],
        "ACSC"
    );
    let credited = booked_on(&app, FJORDKRAFT).await;
    assert_eq!(credited.len(), fjordkraft_before + 1);
    assert!(
        credited.iter().any(|t| t["amount"] == 123450),
        "{credited:?}"
    );
    let runs = app.get("/v1/sandbox/batch-runs").send().await;
    runs.assert_ok();
    assert!(
        !runs.body["runs"].as_array().unwrap().is_empty(),
        "{}",
        runs.body
    );
}

#[tokio::test]
async fn a_basket_is_acctc_once_signed_and_its_status_is_the_worst_case() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let ok = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("10.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let short = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("99999999.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let third = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("11.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let basket = pay(
        &app,
        &tpp,
        "/v1/signing-baskets",
        &json!({"paymentIds": [ok, short, third]}),
    )
    .send()
    .await;
    let basket_id = basket.body["basketId"].as_str().unwrap().to_owned();
    complete_sca(
        &app,
        basket.body["_links"]["scaRedirect"]["href"]
            .as_str()
            .unwrap(),
        json!({}),
    )
    .await;
    let read = tpp
        .get(&app, &format!("/v1/signing-baskets/{basket_id}"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    read.assert_ok();
    assert_eq!(read.body["transactionStatus"], "ACTC");
    assert_eq!(read.body["payments"].as_array().unwrap().len(), 3);

    app.put("/v1/sandbox/clock", &json!({"advance": "PT2H"}))
        .send()
        .await
        .assert_ok();
    let lacking = status(&app, &tpp, DOMESTIC, &short).await;
    assert_eq!(lacking["transactionStatus"], "ACCP", "{lacking}");
    assert_eq!(lacking["fundsAvailable"], false);
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &ok).await["transactionStatus"],
        "ACSC"
    );
    // The day's last run (18:00) rejects what is still short; the basket is not atomic.
    app.put("/v1/sandbox/clock", &json!({"advance": "PT4H"}))
        .send()
        .await
        .assert_ok();
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &short).await["transactionStatus"],
        "RJCT"
    );
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &third).await["transactionStatus"],
        "ACSC"
    );
    let basket_status = tpp
        .get(&app, &format!("/v1/signing-baskets/{basket_id}/status"))
        .header("x-accept-fix", "amount-as-string")
        .send()
        .await;
    assert_eq!(
        basket_status.body["transactionStatus"], "PATC",
        "{}",
        basket_status.body
    );
}

#[tokio::test]
async fn creation_needs_x_accept_fix_psp_pi_and_a_known_product() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer("10.00", OLA_CURRENT, json!({}));
    let without_fix = tpp.post(&app, STRAKS, &body).send().await;
    without_fix.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("x-accept-fix"));
    // The refusal says which values to send, not only that the header is missing.
    let text = without_fix.body["tppMessages"][0]["text"].as_str().unwrap();
    for fix in [
        "amount-as-string",
        "cardaccount-switch-originalamount-and-transactionamount",
        "longer-names",
        "cash-account-type-iso",
    ] {
        assert!(text.contains(fix), "{fix} in {text}");
    }
    assert!(text.contains("'x-accept-fix: amount-as-string'"), "{text}");
    pay(&app, &tpp, "/v1/payments/swish-payments", &body)
        .send()
        .await
        .assert_refused(404, "PRODUCT_UNKNOWN", None);
    let response = pay(&app, &tpp, STRAKS, &body)
        .signed_by("aisp")
        .send()
        .await;
    response.assert_refused(403, "FORBIDDEN", None);
}

#[tokio::test]
async fn an_invalid_kid_and_a_missing_kid_are_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let bad = transfer(
        "10.00",
        FJORDKRAFT,
        json!({"remittanceInformationStructured": {"reference": "123456789", "referenceType": "KID"}}),
    );
    let response = pay(&app, &tpp, DOMESTIC, &bad).send().await;
    assert_eq!(
        (response.status, response.code()),
        (400, "KID_INVALID"),
        "{}",
        response.body
    );
    let missing = transfer(
        "10.00",
        FJORDKRAFT,
        json!({"remittanceInformationStructured": {"reference": "", "referenceType": "KID"}}),
    );
    let response = pay(&app, &tpp, DOMESTIC, &missing).send().await;
    assert_eq!(
        (response.status, response.code()),
        (400, "KID_MISSING"),
        "{}",
        response.body
    );
}

#[tokio::test]
async fn an_emoji_in_any_text_is_400() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer(
        "10.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Takk for maten 😀"}),
    );
    pay(&app, &tpp, STRAKS, &body).send().await.assert_refused(
        400,
        "FORMAT_ERROR",
        Some("remittanceInformationUnstructured"),
    );
}

#[tokio::test]
async fn bulk_and_periodic_payments_cannot_join_a_basket() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let mut periodic = transfer("100.00", OLA_CURRENT, json!({}));
    let start = (crate::helpers::TEST_NOW + time::Duration::days(1))
        .date()
        .to_string();
    periodic["startDate"] = json!(start);
    periodic["frequency"] = json!("Monthly");
    let standing = created(
        &pay(
            &app,
            &tpp,
            "/v1/periodic-payments/norwegian-domestic-credit-transfers",
            &periodic,
        )
        .send()
        .await,
    );
    let single = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("12.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let response = pay(
        &app,
        &tpp,
        "/v1/signing-baskets",
        &json!({"paymentIds": [single, standing]}),
    )
    .send()
    .await;
    response.assert_refused(400, "REFERENCE_MIX_INVALID", Some("paymentIds[1]"));
}

#[tokio::test]
async fn a_basket_holds_at_most_ten_existing_payments() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let ids: Vec<String> = (0..11).map(|i| format!("p-{i}")).collect();
    pay(
        &app,
        &tpp,
        "/v1/signing-baskets",
        &json!({"paymentIds": ids}),
    )
    .send()
    .await
    .assert_refused(400, "FORMAT_ERROR", Some("paymentIds"));
    pay(
        &app,
        &tpp,
        "/v1/signing-baskets",
        &json!({"paymentIds": ["no-such-payment"]}),
    )
    .send()
    .await
    .assert_refused(404, "RESOURCE_UNKNOWN", Some("paymentIds[0]"));
}

#[tokio::test]
async fn deleting_follows_the_status_rules() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    // An unapproved instant payment can be deleted.
    let instant = created(
        &pay(
            &app,
            &tpp,
            STRAKS,
            &transfer("10.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    assert_eq!(
        tpp.get(&app, &format!("{STRAKS}/{instant}"))
            .send()
            .await
            .status,
        200
    );
    let deleted = app
        .delete(&format!("{STRAKS}/{instant}"))
        .header("PSU-ID", tpp.psu_id.as_deref().unwrap())
        .send()
        .await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(
        status(&app, &tpp, STRAKS, &instant).await["transactionStatus"],
        "CANC"
    );
    // A pending (PDNG) payment cannot.
    let pending = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer(
                "13.00",
                OLA_CURRENT,
                json!({"remittanceInformationUnstructured": "SANDBOX:PDNG"}),
            ),
        )
        .send()
        .await,
    );
    let href = tpp
        .post(
            &app,
            &format!("{DOMESTIC}/{pending}/authorisations"),
            &json!({}),
        )
        .send()
        .await
        .body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    complete_sca(&app, &href, json!({})).await;
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &pending).await["transactionStatus"],
        "PDNG"
    );
    let refused = app.delete(&format!("{DOMESTIC}/{pending}")).send().await;
    refused.assert_refused(409, "CONFLICT", Some("paymentId"));
    assert!(refused.text().contains("PDNG"), "{}", refused.text());
}

#[tokio::test]
async fn the_known_issue_hides_unapproved_domestic_payments_until_switched_off() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("14.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let hidden = tpp
        .get(&app, &format!("{DOMESTIC}/{id}/status"))
        .send()
        .await;
    hidden.assert_refused(404, "RESOURCE_UNKNOWN", Some("paymentId"));
    assert!(hidden.text().contains("known issue"), "{}", hidden.text());
    app.put(
        "/v1/sandbox/settings",
        &json!({"reproduceDomesticReadBeforeApprovalIssue": false}),
    )
    .send()
    .await
    .assert_ok();
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &id).await["transactionStatus"],
        "RCVD"
    );
}

#[tokio::test]
async fn a_logical_duplicate_is_refused_unless_allowed() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let body = transfer(
        "15.00",
        OLA_CURRENT,
        json!({"remittanceInformationUnstructured": "Husleie"}),
    );
    created(&pay(&app, &tpp, DOMESTIC, &body).send().await);
    pay(&app, &tpp, DOMESTIC, &body)
        .send()
        .await
        .assert_refused(409, "CONFLICT", None);
    created(
        &pay(
            &app,
            &tpp,
            &format!("{DOMESTIC}?allowLogicalDuplicate=true"),
            &body,
        )
        .send()
        .await,
    );
}

#[tokio::test]
async fn a_forced_rejection_ends_in_rjct_at_the_run() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer(
                "16.00",
                OLA_CURRENT,
                json!({"remittanceInformationUnstructured": "SANDBOX:RJCT"}),
            ),
        )
        .send()
        .await,
    );
    let href = tpp
        .post(&app, &format!("{DOMESTIC}/{id}/authorisations"), &json!({}))
        .send()
        .await
        .body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    complete_sca(&app, &href, json!({})).await;
    app.put("/v1/sandbox/clock", &json!({"advance": "PT2H"}))
        .send()
        .await
        .assert_ok();
    assert_eq!(
        status(&app, &tpp, DOMESTIC, &id).await["transactionStatus"],
        "RJCT"
    );
}

#[tokio::test]
async fn without_payment_permission_the_account_cannot_pay() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let account = app
        .get("/v1/sandbox/customers")
        .send()
        .await
        .body
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["accounts"].as_array().unwrap().clone())
        .find(|a| a["bban"] == KARI_CURRENT)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.put(
        &format!("/v1/sandbox/accounts/{account}/payment-permission"),
        &json!({"allowed": false}),
    )
    .send()
    .await
    .assert_ok();
    let response = pay(
        &app,
        &tpp,
        DOMESTIC,
        &transfer("17.00", OLA_CURRENT, json!({})),
    )
    .send()
    .await;
    response.assert_refused(403, "PRODUCT_INVALID", Some("debtorAccount"));
}

#[tokio::test]
async fn fee_information_for_instant_payments_answers_at_specs_path() {
    let app = spawn_app().await;
    let body = json!({
        "instructedAmount": {"amount": "20000.00", "currency": "NOK"},
        "debtorAccount": {"bban": KARI_CURRENT, "currency": "NOK"},
        "creditorAccount": {"bban": OLA_CURRENT, "currency": "NOK"},
    });
    let response = app
        .post(
            "/v1/payments/instant-norwegian-credit-transfers-straks/fee-information",
            &body,
        )
        .send()
        .await;
    response.assert_ok();
    assert_eq!(
        response.body["transactionFeeIndicator"], true,
        "{}",
        response.body
    );
    assert!(response.body["transactionFees"]["amount"].is_string());
}

#[tokio::test]
async fn a_payment_authorisation_for_a_known_psu_skips_identification() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let id = created(
        &pay(
            &app,
            &tpp,
            DOMESTIC,
            &transfer("18.00", OLA_CURRENT, json!({})),
        )
        .send()
        .await,
    );
    let response = tpp
        .post(&app, &format!("{DOMESTIC}/{id}/authorisations"), &json!({}))
        .send()
        .await;
    assert_eq!(response.status, 201, "{}", response.body);
    let href = response.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    // The PSU is preset from PSU-ID; the automation endpoint finishes as Kari, who owns the account.
    let state = app
        .get(&format!("/v1/sandbox/sca/{}", authorisation_id(&href)))
        .send()
        .await;
    assert_ne!(state.body["step"], "identify", "{}", state.body);
}

#[tokio::test]
async fn a_payment_only_journey_needs_a_single_sca_with_psu_context() {
    let app = spawn_app().await;
    let tpp = TppState::new("single-1");
    // No PSU-ID and no X-PSU-IDENTITY: PSU-Context starts a single-SCA journey.
    let response = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("42.00", OLA_CURRENT, json!({})),
    )
    .header("PSU-Context", "PRIVATE")
    .send()
    .await;
    let id = created(&response);
    let href = response.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    let done = complete_sca(&app, &href, json!({"nationalId": KARI})).await;
    assert_eq!(done["outcome"], "SUCCEEDED", "{done}");
    let psu_id = done["psuId"]
        .as_str()
        .expect("the payment's SCA returns the psu-id")
        .to_owned();
    let mut known = tpp.clone();
    known.psu_id = Some(psu_id);
    assert_eq!(
        status(&app, &known, STRAKS, &id).await["transactionStatus"],
        "ACSC"
    );
}

#[tokio::test]
async fn a_single_sca_by_someone_who_may_not_pay_from_the_account_is_refused() {
    let app = spawn_app().await;
    let tpp = TppState::new("single-2");
    let response = pay(
        &app,
        &tpp,
        STRAKS,
        &transfer("43.00", OLA_CURRENT, json!({})),
    )
    .header("PSU-Context", "PRIVATE")
    .send()
    .await;
    created(&response);
    let href = response.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    // Ola may not pay from Kari's account.
    let refused = app
        .post(
            &format!("/v1/sandbox/sca/{}", authorisation_id(&href)),
            &json!({"nationalId": "02917910181"}),
        )
        .send()
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (401, "PSU_CREDENTIALS_INVALID"),
        "{}",
        refused.body
    );
}

#[tokio::test]
async fn a_corporate_user_without_psu_corporate_id_is_refused_on_payments() {
    let app = spawn_app().await;
    let mut tpp = TppState::new("corp-pay");
    let agreements = app.get("/v1/sandbox/agreements").send().await.body;
    let fjordkraft = agreements
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["owner"] == "910000004")
        .unwrap()["id"]
        .clone();
    let href = sca_redirect(&tpp.get(&app, "/v1/users").send().await);
    let done = complete_sca(
        &app,
        &href,
        json!({"nationalId": KARI, "context": "CORPORATE", "agreementId": fjordkraft}),
    )
    .await;
    tpp.psu_id = Some(done["psuId"].as_str().unwrap().to_owned());
    let mut body = transfer("44.00", OLA_CURRENT, json!({}));
    body["debtorAccount"]["bban"] = json!(FJORDKRAFT);
    let response = pay(&app, &tpp, DOMESTIC, &body).send().await;
    response.assert_refused(400, "HTTP_HEADER_REQUIRED", Some("PSU-Corporate-ID"));
    tpp.corporate_id = Some(done["psuCorporateId"].as_str().unwrap().to_owned());
    created(&pay(&app, &tpp, DOMESTIC, &body).send().await);
}

#[tokio::test]
async fn an_unknown_x_accept_fix_name_is_accepted_with_a_warning() {
    let app = spawn_app().await;
    let tpp = kari(&app).await;
    let response = tpp
        .post(&app, STRAKS, &transfer("45.00", OLA_CURRENT, json!({})))
        .header("x-accept-fix", "amount-as-string,no-such-fix")
        .send()
        .await;
    created(&response);
    assert!(
        response
            .warnings()
            .iter()
            .any(|w| w.contains("no-such-fix")),
        "{}",
        response.body
    );
}
