//! The workbench API as the UI uses it: reachable from this machine only, with the operator credential and
//! from the workbench's own origins; personas; the composer signing and sending over the real port; the
//! SCA callback giving the persona its PSU-ID; copy as curl and script.

use crate::helpers::{spawn_app, workbench_api as call};
use reqwest::Method;
use serde_json::{json, Value};

fn draft(persona: &str, method: &str, path: &str, headers: Value, body: Option<&str>) -> Value {
    json!({"personaId": persona, "method": method, "path": path, "headers": headers, "body": body})
}

fn ais_headers() -> Value {
    json!([
        ["TPP-Session-ID", "{{persona.tppSessionId}}"],
        ["TPP-Redirect-URI", "{{callbackUrl}}?persona={{persona.id}}"],
        ["PSU-ID", "{{persona.psuId}}"],
        ["PSU-IP-Address", "192.0.2.10"]
    ])
}

#[tokio::test]
async fn the_api_needs_the_operator_credential_and_refuses_foreign_origins() {
    let app = spawn_app().await;
    let url = format!("{}/workbench/api/session", app.base);
    let without = app.client.get(&url).send().await.unwrap();
    assert_eq!(without.status(), 401);
    let wrong = app
        .client
        .get(&url)
        .bearer_auth("0".repeat(64))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let by_query = app
        .client
        .get(format!("{url}?token={}", app.app.operator_token()))
        .send()
        .await
        .unwrap();
    assert_eq!(by_query.status(), 200);
    let foreign = app
        .client
        .get(&url)
        .bearer_auth(app.app.operator_token())
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
    let desktop = app
        .client
        .get(&url)
        .bearer_auth(app.app.operator_token())
        .header("Origin", "tauri://localhost")
        .send()
        .await
        .unwrap();
    assert_eq!(desktop.status(), 200);
    assert_eq!(
        desktop.headers()["access-control-allow-origin"],
        "tauri://localhost"
    );
    let preflight = app
        .client
        .request(Method::OPTIONS, &url)
        .header("Origin", "tauri://localhost")
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.status(), 204);
    assert!(preflight.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .contains("authorization"));
    // A page on another host name (DNS rebinding) is not this machine, whatever address it reached.
    let rebound = app
        .client
        .get(&url)
        .bearer_auth(app.app.operator_token())
        .header("Host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 403);
}

#[tokio::test]
async fn the_session_says_where_the_service_runs_and_the_sandbox_data_is_mirrored() {
    let app = spawn_app().await;
    let (status, session) = call(&app, Method::GET, "/session", None).await;
    assert_eq!(status, 200);
    assert_eq!(session["baseUrl"], app.base);
    assert_eq!(
        session["callbackUrl"],
        format!("{}/workbench/callback", app.base)
    );
    assert_eq!(session["mode"], "loopback");
    let (status, customers) = call(&app, Method::GET, "/sandbox/customers", None).await;
    assert_eq!(status, 200);
    assert!(customers.as_array().unwrap().len() >= 5);
    let (status, refused) = call(
        &app,
        Method::POST,
        "/sandbox/customers",
        Some(json!({"customerNumber": "123", "name": "X", "type": "private"})),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(refused["tppMessages"][0]["path"], "customerNumber");
    let account = customers[0]["accounts"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, made) = call(
        &app,
        Method::POST,
        &format!("/sandbox/accounts/{account}/transactions/generate"),
        Some(json!({"count": 30, "fromDate": "2026-03-01", "toDate": "2026-05-31"})),
    )
    .await;
    assert_eq!((status.as_u16(), made["created"].as_u64()), (201, Some(30)));
}

#[tokio::test]
async fn personas_are_issued_imported_patched_and_the_bundled_ones_stay() {
    let app = spawn_app().await;
    let (_, all) = call(&app, Method::GET, "/personas", None).await;
    let statuses: Vec<(&str, &str)> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["status"].as_str().unwrap()))
        .collect();
    assert!(statuses.contains(&("bundled-expired", "expired")));
    assert!(statuses.contains(&("bundled-aisp-pisp", "valid")));
    let (status, issued) = call(
        &app,
        Method::POST,
        "/personas",
        Some(json!({"name": "Old Acme", "roles": ["PSP_PI"], "expired": true})),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(issued["status"], "expired");
    let id = issued["id"].as_str().unwrap();
    let (status, patched) = call(
        &app,
        Method::PATCH,
        &format!("/personas/{id}"),
        Some(json!({"psuId": "abc", "name": "Older Acme"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        (patched["psuId"].as_str(), patched["name"].as_str()),
        (Some("abc"), Some("Older Acme"))
    );
    let (status, _) = call(&app, Method::DELETE, "/personas/bundled-aisp", None).await;
    assert_eq!(status, 409);
    let (status, _) = call(&app, Method::DELETE, &format!("/personas/{id}"), None).await;
    assert_eq!(status, 204);
    let cert =
        std::fs::read_to_string(crate::helpers::fixture_dir("pisp").join("cert.pem")).unwrap();
    let key = std::fs::read_to_string(crate::helpers::fixture_dir("aisp").join("key.pem")).unwrap();
    let (status, refused) = call(
        &app,
        Method::POST,
        "/personas/import",
        Some(json!({"name": "Mixed", "certificatePem": cert, "privateKeyPem": key})),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(refused["tppMessages"][0]["path"], "privateKeyPem");
}

#[tokio::test]
async fn the_composer_shows_the_signed_request_sends_it_and_the_sca_callback_keeps_the_psu_id() {
    let app = spawn_app().await;
    let lookup = draft("bundled-aisp-pisp", "GET", "/v1/users", ais_headers(), None);
    let (status, preview) =
        call(&app, Method::POST, "/compose/preview", Some(lookup.clone())).await;
    assert_eq!(status, 200);
    let signing = preview["signingString"].as_str().unwrap();
    assert!(
        signing.starts_with("(request-target): get /v1/users\ndate: "),
        "{signing}"
    );
    assert!(
        !preview["headers"].to_string().contains("psu-id"),
        "a persona without a PSU-ID sends no PSU-ID header"
    );
    let (status, sent) = call(&app, Method::POST, "/compose/send", Some(lookup)).await;
    assert_eq!(status, 200);
    assert_eq!(sent["response"]["status"], 401, "{sent}");
    let answer: Value = serde_json::from_str(sent["response"]["body"].as_str().unwrap()).unwrap();
    let href = answer["_links"]["scaRedirect"]["href"].as_str().unwrap();
    // The PSU approves through the automation endpoint, which answers with the redirect the browser follows.
    let done = crate::helpers::complete_sca(&app, href, json!({"nationalId": "14838510036"})).await;
    let redirect = done["redirect"]
        .as_str()
        .or(done["redirectUri"].as_str())
        .unwrap_or_else(|| panic!("the automation answer names the redirect: {done}"));
    assert!(redirect.starts_with(&format!(
        "{}/workbench/callback?persona=bundled-aisp-pisp",
        app.base
    )));
    let page = app.client.get(redirect).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("SCA finished"));
    let (_, callbacks) = call(&app, Method::GET, "/sca/callbacks", None).await;
    assert_eq!(callbacks[0]["outcome"], "success");
    let (_, personas) = call(&app, Method::GET, "/personas", None).await;
    let persona = personas
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "bundled-aisp-pisp")
        .unwrap();
    assert_eq!(persona["psuId"], callbacks[0]["psuId"]);
    // The next call carries the PSU-ID and succeeds.
    let agreements = draft(
        "bundled-aisp-pisp",
        "GET",
        "/v1/agreements",
        ais_headers(),
        None,
    );
    let (_, sent) = call(&app, Method::POST, "/compose/send", Some(agreements)).await;
    assert_eq!(sent["response"]["status"], 200, "{sent}");
    let (_, history) = call(&app, Method::GET, "/compose/history", None).await;
    assert_eq!(history.as_array().unwrap().len(), 2);
    assert_eq!(history[0]["path"], "/v1/agreements", "newest first");
    let id = history[1]["id"].as_str().unwrap();
    let (status, entry) = call(&app, Method::GET, &format!("/compose/history/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(entry["draft"]["path"], "/v1/users");
}

#[tokio::test]
async fn a_refused_request_shows_the_refusal_and_drafts_are_checked_at_the_field() {
    let app = spawn_app().await;
    let expired = draft(
        "bundled-expired",
        "GET",
        "/v1/sandbox/customers",
        json!([]),
        None,
    );
    let (_, sent) = call(&app, Method::POST, "/compose/send", Some(expired)).await;
    assert_eq!(sent["response"]["status"], 400);
    let answer: Value = serde_json::from_str(sent["response"]["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        answer["tppMessages"][0]["path"],
        "TPP-Signature-Certificate"
    );
    let bad_header = draft(
        "bundled-aisp",
        "GET",
        "/v1/accounts",
        json!([["Bad Name", "x"]]),
        None,
    );
    let (status, refused) = call(&app, Method::POST, "/compose/preview", Some(bad_header)).await;
    assert_eq!(status, 400);
    assert_eq!(refused["tppMessages"][0]["path"], "headers[0]");
    let bad_method = draft("bundled-aisp", "TRACE", "/v1/accounts", json!([]), None);
    let (status, refused) = call(&app, Method::POST, "/compose/preview", Some(bad_method)).await;
    assert_eq!(status, 400);
    assert_eq!(refused["tppMessages"][0]["path"], "method");
}

#[tokio::test]
async fn operations_and_exports_are_offered() {
    let app = spawn_app().await;
    let (_, operations) = call(&app, Method::GET, "/operations", None).await;
    let ids: Vec<&str> = operations
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    for expected in [
        "accounts",
        "straks",
        "basket",
        "bank-offered-consent",
        "payment-status",
    ] {
        assert!(ids.contains(&expected), "{expected} in {ids:?}");
    }
    let straks = draft(
        "bundled-pisp",
        "POST",
        "/v1/payments/instant-norwegian-domestic-credit-transfers-straks",
        json!([["x-accept-fix", "amount-as-string"]]),
        Some("{\"a\": 1}"),
    );
    let (status, curl) = call(
        &app,
        Method::POST,
        "/compose/export",
        Some(json!({"draft": straks, "format": "curl"})),
    )
    .await;
    assert_eq!(status, 200);
    let text = curl["text"].as_str().unwrap();
    assert!(text.starts_with("# POST /v1/payments/"), "{text}");
    assert!(text.contains("\n(\nset -eu\n"), "{text}");
    assert!(
        text.contains("xs2a-sandbox sign --cert-dir \"$dir\""),
        "{text}"
    );
    assert!(
        text.contains("curl -sS \\\n  -X POST \\\n  -H @\"$dir/headers.txt\""),
        "{text}"
    );
    let (_, script) = call(
        &app,
        Method::POST,
        "/compose/export",
        Some(json!({"draft": straks, "format": "script"})),
    )
    .await;
    assert!(script["text"]
        .as_str()
        .unwrap()
        .starts_with("#!/usr/bin/env bash\n"));
}

#[tokio::test]
async fn the_ui_is_served_to_this_machine_only() {
    let app = spawn_app().await;
    let page = app
        .client
        .get(format!("{}/workbench/", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let foreign = app
        .client
        .get(format!("{}/workbench/", app.base))
        .header("Host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
}

/// `GET /workbench` answers what the OpenAPI document declares: 308 to `/workbench/`, the query kept.
#[tokio::test]
async fn the_bare_workbench_address_redirects_permanently_with_the_query_kept() {
    let app = spawn_app().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (asked, to) in [
        ("/workbench", "/workbench/"),
        ("/workbench?token=abc", "/workbench/?token=abc"),
    ] {
        let answer = client
            .get(format!("{}{asked}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 308, "{asked}");
        assert_eq!(answer.headers()["location"], to, "{asked}");
    }
}

/// A second tab opens authorised: the tokenised URL sets a session cookie (HttpOnly, SameSite=Strict,
/// not the token itself) that the API takes from the workbench's own origin only — never from another
/// port of this machine (the same site), another origin, or a rebound host name.
#[tokio::test]
async fn the_tokenised_url_keeps_the_session_for_the_same_origin_only() {
    let app = spawn_app().await;
    let token = app.app.operator_token();
    let page = |query: String| {
        let url = format!("{}/workbench/{query}", app.base);
        let client = app.client.clone();
        async move { client.get(url).send().await.unwrap() }
    };
    let opened = page(format!("?token={token}")).await;
    assert_eq!(opened.status(), 200);
    let set = opened.headers()["set-cookie"].to_str().unwrap().to_owned();
    let port = app.base.rsplit(':').next().unwrap();
    assert!(set.starts_with(&format!("xs2a-workbench-{port}=")), "{set}");
    for attribute in ["Path=/workbench", "HttpOnly", "SameSite=Strict"] {
        assert!(set.contains(attribute), "{attribute} in {set}");
    }
    assert!(!set.contains(token), "the cookie is not the token: {set}");
    assert!(page(format!("?token={}", "0".repeat(64)))
        .await
        .headers()
        .get("set-cookie")
        .is_none());
    assert!(page(String::new())
        .await
        .headers()
        .get("set-cookie")
        .is_none());

    let cookie = set.split(';').next().unwrap().to_owned();
    let url = format!("{}/workbench/api/session", app.base);
    let own = format!("http://127.0.0.1:{port}");
    let with = |headers: &[(&str, &str)]| {
        let mut request = app.client.get(&url).header("Cookie", &cookie);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        async move { request.send().await.unwrap().status().as_u16() }
    };
    // Another tab of the workbench: same origin, as the browser says.
    assert_eq!(with(&[("Sec-Fetch-Site", "same-origin")]).await, 200);
    assert_eq!(
        with(&[("Origin", own.as_str())]).await,
        200,
        "a browser without Sec-Fetch-Site"
    );
    // A page on another port of this machine is the same site: SameSite sends the cookie, the API does not take it.
    assert_eq!(with(&[("Sec-Fetch-Site", "same-site")]).await, 401);
    assert_eq!(with(&[("Sec-Fetch-Site", "cross-site")]).await, 401);
    assert_eq!(with(&[]).await, 401, "nothing says where it came from");
    // The existing rules still hold with the cookie: foreign origins and rebound host names are refused.
    assert_eq!(
        with(&[
            ("Sec-Fetch-Site", "same-origin"),
            ("Origin", "http://127.0.0.1:3000")
        ])
        .await,
        403
    );
    assert_eq!(
        with(&[
            ("Sec-Fetch-Site", "same-origin"),
            ("Host", &format!("evil.example:{port}"))
        ])
        .await,
        403
    );
    let forged = app
        .client
        .get(&url)
        .header("Cookie", format!("xs2a-workbench-{port}=forged"))
        .header("Sec-Fetch-Site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
    // The event stream, which a browser opens without headers of its own, takes it too.
    let events = app
        .client
        .get(format!("{}/workbench/api/events", app.base))
        .header("Cookie", &cookie)
        .header("Sec-Fetch-Site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
}
