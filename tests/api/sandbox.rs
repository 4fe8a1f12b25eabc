//! The sandbox mock-data API over HTTP, through the real gate: initialisation, customers, accounts,
//! card accounts, transactions, agreements, and each refusal with its status, code and path.

use crate::helpers::spawn_app;
use serde_json::{json, Value};

const KARI: &str = "14838510036";
const FJORDKRAFT: &str = "910000004";

fn ids(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c[field].as_str().unwrap().to_owned())
        .collect()
}

async fn kari_current_account(app: &crate::helpers::TestApp) -> String {
    let customers = app.get("/v1/sandbox/customers").send().await.body;
    let kari = customers
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["customerNumber"] == KARI)
        .unwrap()
        .clone();
    kari["accounts"][0]["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_fresh_sandbox_starts_initialised_with_private_and_corporate_customers() {
    let app = spawn_app().await;
    let customers = app.get("/v1/sandbox/customers").send().await;
    customers.assert_ok();
    let list = customers.body.as_array().unwrap();
    let private: Vec<&Value> = list.iter().filter(|c| c["type"] == "private").collect();
    let corporate: Vec<&Value> = list.iter().filter(|c| c["type"] == "corporate").collect();
    assert!(!private.is_empty() && !corporate.is_empty());
    for person in private {
        assert_eq!(person["accounts"].as_array().unwrap().len(), 2, "{person}");
        assert_eq!(
            person["cardAccounts"].as_array().unwrap().len(),
            1,
            "{person}"
        );
    }
    for company in corporate {
        assert_eq!(
            company["accounts"].as_array().unwrap().len(),
            2,
            "{company}"
        );
    }
}

#[tokio::test]
async fn initialisation_is_deterministic_and_removes_manual_data() {
    let app = spawn_app().await;
    let before = app.get("/v1/sandbox/customers").send().await.body;
    let created = app
        .post(
            "/v1/sandbox/customers",
            &json!({"customerNumber": "914000009", "name": "Manuell AS", "type": "corporate"}),
        )
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    app.post("/v1/sandbox/initialize", &json!({}))
        .send()
        .await
        .assert_ok();
    let after = app.get("/v1/sandbox/customers").send().await.body;
    assert_eq!(
        before, after,
        "same customers, numbers and ids after a reset"
    );
    assert!(!ids(&after, "customerNumber").contains(&"914000009".to_owned()));
}

#[tokio::test]
async fn a_customer_with_a_bad_national_identity_number_is_refused() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/customers",
            &json!({"customerNumber": "14838510037", "name": "Feil", "type": "private"}),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("customerNumber"));
}

#[tokio::test]
async fn a_duplicate_customer_is_a_conflict() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/customers",
            &json!({"customerNumber": KARI, "name": "Kari igjen", "type": "private"}),
        )
        .send()
        .await;
    response.assert_refused(409, "CONFLICT", Some("customerNumber"));
}

#[tokio::test]
async fn an_account_is_created_and_its_transactions_listed_with_every_field() {
    let app = spawn_app().await;
    let account = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "accountName": "Feriekonto", "bban": "12051503005", "currency": "NOK",
                    "balances": [{"balanceType": "interimAvailable", "balanceAmount": {"amount": "1000.00", "currency": "NOK"}}]}),
        )
        .send()
        .await;
    assert_eq!(account.status, 201, "{}", account.body);
    let id = account.body["id"].as_str().unwrap().to_owned();
    assert_eq!(account.body["iban"], "NO5612051503005");

    let path = format!("/v1/sandbox/accounts/{id}/transactions");
    let posted = app
        .post(&path, &json!([{"amount": "-125.50", "currency": "NOK", "bookingDate": "2026-05-30", "remittanceInformationUnstructured": "Kaffe"}]))
        .send()
        .await;
    assert_eq!(posted.status, 201, "{}", posted.body);
    let listed = app.get(&path).send().await;
    listed.assert_ok();
    let item = &listed.body[0];
    for field in [
        "id",
        "amount",
        "currency",
        "valueDate",
        "remittanceInformationUnstructured",
        "creditorName",
        "creditorAccount",
        "debtorName",
        "debtorAccount",
        "bankTransactionCode",
        "ultimateDebtor",
        "ultimateCreditor",
        "purposeCode",
        "bookingDate",
        "_links",
    ] {
        assert!(!item[field].is_null(), "{field} missing in {item}");
    }
    assert_eq!(
        item["amount"], -12550,
        "int32 minor units, the bank's shape"
    );
    assert_eq!(item["_links"]["self"]["verbs"], json!(["GET"]));
}

#[tokio::test]
async fn an_account_without_a_product_is_labelled_by_its_kind_not_as_a_current_account() {
    let app = spawn_app().await;
    let create = |bban: &str, fields: Value| {
        let mut body = json!({"customerNumber": KARI, "bban": bban, "currency": "NOK"});
        body.as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        body
    };
    // A savings account named so, with no type or product: a Sparekonto of kind SVGS, and a WARNING that
    // the name decided the kind.
    let savings = app
        .post(
            "/v1/sandbox/accounts",
            &create("12051503013", json!({"accountName": "Sparekonto"})),
        )
        .send()
        .await;
    assert_eq!(savings.status, 201, "{}", savings.body);
    assert_eq!(
        (&savings.body["product"], &savings.body["cashAccountType"]),
        (&json!("Sparekonto"), &json!("SVGS")),
        "{}",
        savings.body
    );
    assert!(
        savings
            .warnings()
            .iter()
            .any(|w| w.contains("taken from the account name")),
        "{}",
        savings.body
    );
    // A kind given: its product.
    let typed = app
        .post(
            "/v1/sandbox/accounts",
            &create(
                "12051503021",
                json!({"cashAccountType": "SVGS", "accountName": "Feriepenger"}),
            ),
        )
        .send()
        .await;
    assert_eq!(typed.body["product"], "Sparekonto", "{}", typed.body);
    // A name that tells no kind: no kind's product is claimed.
    let named = app
        .post(
            "/v1/sandbox/accounts",
            &create("12051503048", json!({"accountName": "Feriekonto"})),
        )
        .send()
        .await;
    assert_eq!(named.body["product"], "Konto", "{}", named.body);
    assert_ne!(named.body["product"], "Brukskonto");
    // Nothing said at all: the default current account, named as one.
    let plain = app
        .post("/v1/sandbox/accounts", &create("12051503056", json!({})))
        .send()
        .await;
    assert_eq!(
        (&plain.body["product"], &plain.body["cashAccountType"]),
        (&json!("Brukskonto"), &json!("CACC"))
    );
}

#[tokio::test]
async fn a_bad_bban_check_digit_is_accepted_as_mock_data_with_a_warning_at_bban() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "bban": "12051503006", "currency": "NOK"}),
        )
        .send()
        .await;
    assert_eq!(response.status, 201, "{}", response.body);
    assert_eq!(response.body["tppMessages"][0]["category"], "WARNING");
    assert_eq!(response.body["tppMessages"][0]["path"], "bban");
    let short = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "bban": "1205150300", "currency": "NOK"}),
        )
        .send()
        .await;
    short.assert_refused(400, "FORMAT_ERROR", Some("bban"));
}

#[tokio::test]
async fn a_bad_iban_is_refused_with_its_path() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "iban": "NO5712051503005", "currency": "NOK"}),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("iban"));
}

#[tokio::test]
async fn an_unknown_currency_is_refused_with_its_path() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "bban": "12051503005", "currency": "XYZ"}),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("currency"));
}

#[tokio::test]
async fn an_account_for_an_unknown_customer_is_resource_unknown() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": "02917910262", "bban": "12051503005", "currency": "NOK"}),
        )
        .send()
        .await;
    response.assert_refused(404, "RESOURCE_UNKNOWN", Some("customerNumber"));
}

#[tokio::test]
async fn a_duplicate_bban_is_a_conflict() {
    let app = spawn_app().await;
    let response = app
        .post(
            "/v1/sandbox/accounts",
            &json!({"customerNumber": KARI, "bban": "12051000003", "currency": "NOK"}),
        )
        .send()
        .await;
    response.assert_refused(409, "CONFLICT", Some("bban"));
}

#[tokio::test]
async fn one_bad_transaction_in_a_batch_stores_nothing() {
    let app = spawn_app().await;
    let account = kari_current_account(&app).await;
    let path = format!("/v1/sandbox/accounts/{account}/transactions");
    let before = app.get(&path).send().await.body.as_array().unwrap().len();
    let response = app
        .post(
            &path,
            &json!([
                {"amount": "10.00", "currency": "NOK", "bookingDate": "2026-05-01"},
                {"amount": "10.001", "currency": "NOK", "bookingDate": "2026-05-01"}
            ]),
        )
        .send()
        .await;
    response.assert_refused(400, "FORMAT_ERROR", Some("[1].amount"));
    assert_eq!(
        app.get(&path).send().await.body.as_array().unwrap().len(),
        before
    );
}

#[tokio::test]
async fn transactions_of_an_unknown_account_are_resource_unknown() {
    let app = spawn_app().await;
    let response = app
        .get("/v1/sandbox/accounts/no-such-account/transactions")
        .send()
        .await;
    response.assert_refused(404, "RESOURCE_UNKNOWN", None);
}

#[tokio::test]
async fn listing_limit_must_be_at_least_one_and_dates_well_formed() {
    let app = spawn_app().await;
    let account = kari_current_account(&app).await;
    let path = format!("/v1/sandbox/accounts/{account}/transactions");
    app.get(&format!("{path}?limit=0"))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("limit"));
    app.get(&format!("{path}?fromDate=01.05.2026"))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("fromDate"));
    let page = app.get(&format!("{path}?limit=2&offset=1")).send().await;
    assert_eq!(page.body.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn card_transactions_need_a_booking_status() {
    let app = spawn_app().await;
    let customers = app.get("/v1/sandbox/customers").send().await.body;
    let card = customers[0]["cardAccounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/v1/sandbox/card-accounts/{card}/transactions");
    app.get(&path).send().await.assert_refused(
        400,
        "QUERY_PARAMETER_REQUIRED",
        Some("bookingStatus"),
    );
    app.get(&format!("{path}?bookingStatus=some"))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("bookingStatus"));
    let both = app.get(&format!("{path}?bookingStatus=both")).send().await;
    both.assert_ok();
    assert!(both.body["cardAccount"]["maskedPan"].is_string());
    assert!(both.body["cardTransactions"]["booked"].is_array());
    assert!(both.body["cardTransactions"]["pending"].is_array());
}

#[tokio::test]
async fn an_agreement_links_a_person_to_a_corporate_account() {
    let app = spawn_app().await;
    let customers = app.get("/v1/sandbox/customers").send().await.body;
    let company = customers
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["customerNumber"] == FJORDKRAFT)
        .unwrap()
        .clone();
    let iban = company["accounts"][0]["iban"].as_str().unwrap();
    let created = app
        .post(
            "/v1/sandbox/agreements",
            &json!({"owner": FJORDKRAFT, "name": "Regnskap", "engagements": [{"customer": KARI, "account": {"iban": iban}, "roles": ["VIEW", "REGISTER"]}]}),
        )
        .send()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let unknown_person = app
        .post(
            "/v1/sandbox/agreements",
            &json!({"owner": FJORDKRAFT, "name": "Annet", "engagements": [{"customer": "02917910262", "account": {"iban": iban}, "roles": ["VIEW"]}]}),
        )
        .send()
        .await;
    assert_eq!(
        (unknown_person.status, unknown_person.code()),
        (404, "RESOURCE_UNKNOWN"),
        "{}",
        unknown_person.body
    );
}
