//! The bank platform's developer kit against this sandbox, unchanged: its 13 mock-data scripts (60
//! requests, as data in `shared/reference/platform-kit`, or the copy under `tests/data/platform-kit`)
//! signed as its proxy signs them, each answered 2xx with exactly the WARNINGs listed; then its test
//! script's flow (list customers, delete each by customerId, run the first private script again); and its
//! proxy with a CA whose issuer has non-ASCII letters (L=Tromsø), sent as raw ISO-8859-1 bytes.

use crate::helpers::{spawn_app, spawn_app_with, test_config, TestApp, TestResponse};
use crate::kit_proxy;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use xs2a_core::signing::issue::{tpp_request_defaults, CertificateAuthority};
use xs2a_core::signing::qc_statements::Psd2Role;
use xs2a_core::signing::subject::parse_subject;

/// The kit's data: beside the repository in `shared/`, else the copy in `tests/data`.
fn kit_dir() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../shared/reference/platform-kit");
    if shared.join("manifest.json").is_file() {
        shared
    } else {
        manifest.join("tests/data/platform-kit")
    }
}

fn read_json(name: &str) -> Value {
    let text = std::fs::read_to_string(kit_dir().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// One request of a script, placeholders filled.
struct KitRequest {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: String,
}

/// What the placeholders stand for (the manifest's values, and ids answered earlier).
#[derive(Default)]
struct Filled {
    values: HashMap<String, String>,
}

impl Filled {
    fn from_manifest(manifest: &Value) -> Self {
        let mut values = HashMap::new();
        for (name, spec) in manifest["placeholders"].as_object().unwrap() {
            // Request ids are fresh per request (see `apply`); ids from answers are filled in later.
            let literal =
                name != "__INSERT_X_REQUEST_ID__" && spec.get("from_response_of").is_none();
            if let Some(value) = spec["value"].as_str().filter(|_| literal) {
                values.insert(name.clone(), value.to_owned());
            }
        }
        Filled { values }
    }

    fn apply(&self, text: &str) -> String {
        let mut text = text.replace("__INSERT_X_REQUEST_ID__", &uuid::Uuid::new_v4().to_string());
        for (name, value) in &self.values {
            text = text.replace(name, value);
        }
        text
    }

    fn request(&self, raw: &Value) -> KitRequest {
        KitRequest {
            method: raw["method"].as_str().unwrap().to_owned(),
            path: self.apply(raw["path"].as_str().unwrap()),
            headers: raw["headers"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(n, v)| (n.clone(), self.apply(v.as_str().unwrap())))
                .collect(),
            body: self.apply(raw["body"].as_str().unwrap_or("")),
        }
    }
}

/// The fixture TPP's certificate and key, which the sandbox trusts by default.
fn fixture_tpp() -> (String, String) {
    let dir = crate::helpers::fixture_dir("aisp-pisp");
    (
        std::fs::read_to_string(dir.join("cert.pem")).unwrap(),
        std::fs::read_to_string(dir.join("key.pem")).unwrap(),
    )
}

async fn through_proxy(
    app: &TestApp,
    tpp: &(String, String),
    request: &KitRequest,
) -> TestResponse {
    let forwarded = kit_proxy::sign(app, &tpp.0, &tpp.1, &request.headers, &request.body);
    kit_proxy::send(app, &request.method, &request.path, forwarded).await
}

/// The warnings a request's answer must carry, by the JSON path they name (computed from the data: the
/// kit's quirks listed in its README).
fn expected_warnings(request: &KitRequest) -> Vec<String> {
    let body: Value = serde_json::from_str(&request.body).unwrap();
    let path = request.path.as_str();
    if path.ends_with("/sandbox/customers") {
        let corporate = body["customerNumber"].as_str().unwrap().len() == 8;
        return if corporate {
            vec!["customerNumber".into()]
        } else {
            vec![]
        };
    }
    if path.ends_with("/sandbox/accounts") {
        let bban = body["bban"].as_str().unwrap();
        let valid = xs2a_core::domain::Bban::parse(bban).is_ok();
        return if valid { vec![] } else { vec!["bban".into()] };
    }
    if path.ends_with("/sandbox/card-accounts") {
        return vec!["balances[1].balanceType".into()];
    }
    if path.ends_with("/sandbox/agreements") {
        return vec!["owner".into(), "engagements[0].account.iban".into()];
    }
    let items = body.as_array().unwrap();
    let field = if path.contains("/card-accounts/") {
        "merchantCategoryCode"
    } else {
        "purposeCode"
    };
    (0..items.len()).map(|i| format!("[{i}].{field}")).collect()
}

/// Runs every script in the manifest's order; returns the answers, script by script.
pub(crate) async fn run_scripts(app: &TestApp) -> Vec<(String, Vec<TestResponse>)> {
    let manifest = read_json("manifest.json");
    let tpp = fixture_tpp();
    let mut filled = Filled::from_manifest(&manifest);
    let mut answers = Vec::new();
    for script in manifest["scripts"].as_array().unwrap() {
        let name = script.as_str().unwrap();
        let mut responses = Vec::new();
        for raw in read_json(name)["requests"].as_array().unwrap() {
            let request = filled.request(raw);
            let response = through_proxy(app, &tpp, &request).await;
            assert!(
                (200..300).contains(&response.status),
                "{name}: {} {} answered {}: {}",
                request.method,
                request.path,
                response.status,
                response.body
            );
            let warnings = response.warnings();
            let expected = expected_warnings(&request);
            assert_eq!(
                warnings.len(),
                expected.len(),
                "{name} {}: warnings {warnings:?}, expected at {expected:?}",
                request.path
            );
            for path in &expected {
                assert!(
                    warnings.iter().any(|w| w.contains(path.as_str())),
                    "{name} {}: no warning names {path}: {warnings:?}",
                    request.path
                );
            }
            // The ids later scripts name, as the kit's README says to fill them in.
            if name == "init_01078900497_private.json" {
                if response.body["bban"] == "90412263056" {
                    let id = response.body["id"].as_str().unwrap().to_owned();
                    filled.values.insert("__INSERT_ACCOUNT_ID__".into(), id);
                }
                if request.path.ends_with("/card-accounts") {
                    let id = response.body["id"].as_str().unwrap().to_owned();
                    filled
                        .values
                        .insert("__INSERT_CARD_ACCOUNT_ID__".into(), id);
                }
            }
            responses.push(response);
        }
        answers.push((name.to_owned(), responses));
    }
    answers
}

#[tokio::test]
async fn platform_kit_all_sixty_script_requests_succeed_unchanged_with_the_warnings_listed() {
    let app = spawn_app().await;
    let answers = run_scripts(&app).await;
    let total: usize = answers.iter().map(|(_, r)| r.len()).sum();
    assert_eq!((answers.len(), total), (13, 60));

    // What the scripts made is there: six card accounts sharing one masked PAN, each its own id.
    let customers = app.get("/api-sandbox/v1/sandbox/customers").send().await;
    customers.assert_ok();
    let list = customers.body.as_array().unwrap();
    let cards: Vec<&Value> = list
        .iter()
        .flat_map(|c| c["cardAccounts"].as_array().unwrap())
        .filter(|c| c["maskedPan"] == "1234xxxxxxxx4321")
        .collect();
    assert_eq!(cards.len(), 6);
    let mut ids: Vec<&str> = cards.iter().map(|c| c["id"].as_str().unwrap()).collect();
    ids.dedup();
    assert_eq!(ids.len(), 6);
    let kit_customer = list
        .iter()
        .find(|c| c["customerNumber"] == "01078900497")
        .unwrap();
    assert_eq!(kit_customer["accounts"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn platform_kit_test_script_deletes_every_customer_and_reruns_the_first_script() {
    let app = spawn_app().await;
    run_scripts(&app).await;
    let manifest = read_json("manifest.json");
    let test = &manifest["testscript"];
    let base = test["base"].as_str().unwrap();
    let tpp = fixture_tpp();
    let headers: Vec<(String, String)> = test["headers"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(n, v)| {
            let value = v.as_str().unwrap().replace("<random 0..999999>", "4711");
            (n.clone(), value)
        })
        .collect();
    let call = |method: &str, path: String| KitRequest {
        method: method.into(),
        path,
        headers: headers.clone(),
        body: String::new(),
    };

    let listed = through_proxy(&app, &tpp, &call("GET", format!("{base}/customers"))).await;
    listed.assert_ok();
    let ids: Vec<String> = listed
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["customerId"].as_str().unwrap().to_owned())
        .collect();
    assert!(ids.len() >= 10, "seeded and scripted customers: {ids:?}");
    for id in &ids {
        let deleted = through_proxy(
            &app,
            &tpp,
            &call("DELETE", format!("{base}/customers/{id}")),
        )
        .await;
        assert_eq!(deleted.status, 204, "{id}: {}", deleted.body);
    }
    let again = through_proxy(
        &app,
        &tpp,
        &call("DELETE", format!("{base}/customers/{}", ids[0])),
    )
    .await;
    again.assert_refused(404, "RESOURCE_UNKNOWN", Some("customerId"));
    let empty = through_proxy(&app, &tpp, &call("GET", format!("{base}/customers"))).await;
    assert_eq!(empty.body, serde_json::json!([]));

    // `sh scripts/init_01078900497_private.sh`: its output is what curl printed, answer after answer.
    let mut filled = Filled::from_manifest(&manifest);
    filled.values.clear();
    let mut output = String::new();
    for raw in read_json("init_01078900497_private.json")["requests"]
        .as_array()
        .unwrap()
    {
        let response = through_proxy(&app, &tpp, &filled.request(raw)).await;
        response.assert_ok();
        output.push_str(&String::from_utf8(response.bytes).unwrap());
    }
    let expect = test["expect"].as_str().unwrap();
    assert!(output.contains(expect), "{expect} not in {output}");
}

/// A CA as a Norwegian bank might have one: a locality with a non-ASCII letter, a state, an
/// organizationIdentifier.
const NORWEGIAN_CA: &str = "CN=Testbank Issuing CA,O=Testbank ASA,OU=PSD2,L=Tromsø,ST=Troms og Finnmark,C=NO,organizationIdentifier=NTRNO-987654321";

#[tokio::test]
async fn platform_kit_proxy_signing_with_a_tromso_ca_is_accepted_with_warnings() {
    let now = time::OffsetDateTime::now_utc();
    let ca = CertificateAuthority::generate_with_subject(
        parse_subject(NORWEGIAN_CA).unwrap(),
        now - time::Duration::days(400),
        now + time::Duration::days(400),
    )
    .unwrap();
    let mut request = tpp_request_defaults("Kit TPP", vec![Psd2Role::PspAi, Psd2Role::PspPi], now);
    request.not_before = ca.not_before;
    let issued = ca.issue_tpp(&request).unwrap();
    let mut config = test_config();
    config.trust_ca_pems = vec![ca.cert_pem.clone()];
    let app = spawn_app_with(config).await;
    let tpp = (issued.cert_pem.clone(), issued.key_pem.clone());
    assert_eq!(
        kit_proxy::proxy_issuer(&tpp.0),
        "CN=Testbank Issuing CA,O=Testbank ASA,OU=PSD2,L=Tromsø,S=Troms og Finnmark,C=NO"
    );

    let headers = vec![
        ("accept".to_owned(), "application/json".to_owned()),
        (
            "content-type".to_owned(),
            "application/json; charset=UTF-8".to_owned(),
        ),
        ("x-request-id".to_owned(), uuid::Uuid::new_v4().to_string()),
    ];
    let get = KitRequest {
        method: "GET".into(),
        path: "/api-sandbox/v1/sandbox/customers".into(),
        headers: headers.clone(),
        body: String::new(),
    };
    let listed = through_proxy(&app, &tpp, &get).await;
    listed.assert_ok();
    let warnings = listed.warnings();
    for expected in [
        "raw non-ASCII bytes",
        "'S' for 'ST'",
        "organizationIdentifier",
    ] {
        assert!(
            warnings.iter().any(|w| w.contains(expected)),
            "no warning about {expected}: {warnings:?}"
        );
    }

    let post = KitRequest {
        method: "POST".into(),
        path: "/api-sandbox/v1/sandbox/customers".into(),
        headers,
        body: r#"{"customerNumber":"01078900497","name":"Test Testperson 1","type":"private"}"#
            .into(),
    };
    let created = through_proxy(&app, &tpp, &post).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let text = String::from_utf8(created.bytes).unwrap();
    assert!(
        text.contains(r#""customerNumber":"01078900497","customerType":"private","customerName":"Test Testperson 1""#),
        "the gate's warnings must not reorder the answer: {text}"
    );
}
