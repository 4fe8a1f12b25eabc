//! The authorisation sub-resources of payments, bulk payments and signing baskets (issue 32; Berlin Group
//! 1.3 where the bank names only the links): a creation answer carries scaRedirect and scaStatus (the
//! authorisation it started), not startAuthorisation beside them; `GET …/authorisations` lists the ids
//! started on the resource, oldest first; `GET …/authorisations/{id}` reads one's scaStatus.

use crate::helpers::{TestApp, TppState};
use crate::pis_support::{
    kari, pay, transfer, BASKETS, BULK, FIX, KARI_CURRENT, OLA_CURRENT, STRAKS,
};
use serde_json::{json, Value};

fn bulk(amounts: &[&str]) -> Value {
    let payments: Vec<Value> = amounts
        .iter()
        .map(|amount| {
            let mut order = transfer(amount, OLA_CURRENT, json!({}));
            order.as_object_mut().unwrap().remove("debtorAccount");
            order
        })
        .collect();
    json!({"debtorAccount": {"bban": KARI_CURRENT, "currency": "NOK"}, "payments": payments})
}

/// The path of a link's href, whether absolute or not.
fn href(links: &Value, name: &str) -> String {
    links[name]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no {name} link in {links}"))
        .to_owned()
}

/// A creation answer's links: scaRedirect and scaStatus of the authorisation it started, self and
/// status; no startAuthorisation beside a started one (the bank's "scaRedirect or startAuthorisation":
/// docs/reference/payments.md#endpoints-and-products).
/// Returns the started authorisation's id, read from scaStatus.
fn started_links(links: &Value, resource_path: &str) -> String {
    assert!(links.get("startAuthorisation").is_none(), "{links}");
    assert!(href(links, "scaRedirect").contains("/sca/"), "{links}");
    assert_eq!(href(links, "self"), resource_path);
    assert_eq!(href(links, "status"), format!("{resource_path}/status"));
    let status = href(links, "scaStatus");
    let id = status
        .strip_prefix(&format!("{resource_path}/authorisations/"))
        .unwrap_or_else(|| panic!("scaStatus {status} is not under {resource_path}"));
    id.to_owned()
}

async fn listed(app: &TestApp, tpp: &TppState, resource_path: &str) -> Vec<String> {
    let response = tpp
        .get(app, &format!("{resource_path}/authorisations"))
        .header("x-accept-fix", FIX)
        .send()
        .await;
    response.assert_ok();
    response.body["authorisationIds"]
        .as_array()
        .unwrap_or_else(|| panic!("no authorisationIds in {}", response.body))
        .iter()
        .map(|id| id.as_str().unwrap().to_owned())
        .collect()
}

async fn sca_status(app: &TestApp, tpp: &TppState, status_path: &str) -> String {
    let response = tpp
        .get(app, status_path)
        .header("x-accept-fix", FIX)
        .send()
        .await;
    response.assert_ok();
    response.body["scaStatus"].as_str().unwrap().to_owned()
}

/// Starts another authorisation with the resource's startAuthorisation path; returns its id after
/// checking the answer's links.
async fn start_again(app: &TestApp, tpp: &TppState, resource_path: &str) -> String {
    let started = tpp
        .post(app, &format!("{resource_path}/authorisations"), &json!({}))
        .header("x-accept-fix", FIX)
        .send()
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let id = started.body["authorisationId"].as_str().unwrap().to_owned();
    let links = &started.body["_links"];
    assert!(href(links, "scaRedirect").contains("/sca/"), "{links}");
    assert_eq!(
        href(links, "scaStatus"),
        format!("{resource_path}/authorisations/{id}")
    );
    id
}

#[tokio::test]
async fn a_payments_authorisations_are_linked_listed_and_read() {
    let app = spawn().await;
    let tpp = kari(&app).await;
    for (product, body) in [
        (STRAKS, transfer("61.01", OLA_CURRENT, json!({}))),
        (BULK, bulk(&["61.02", "61.03"])),
    ] {
        let created = pay(&app, &tpp, product, &body).send().await;
        assert_eq!(created.status, 201, "{}", created.body);
        let id = created.body["paymentId"].as_str().unwrap();
        let path = format!("{product}/{id}");
        let first = started_links(&created.body["_links"], &path);
        assert_eq!(
            sca_status(&app, &tpp, &format!("{path}/authorisations/{first}")).await,
            "psuIdentified"
        );
        assert_eq!(
            listed(&app, &tpp, &path).await,
            std::slice::from_ref(&first)
        );
        let second = start_again(&app, &tpp, &path).await;
        assert_eq!(listed(&app, &tpp, &path).await, [first, second]);
    }
}

#[tokio::test]
async fn a_baskets_authorisations_are_linked_listed_and_read() {
    let app = spawn().await;
    let tpp = kari(&app).await;
    let mut ids = Vec::new();
    for amount in ["62.01", "62.02"] {
        let created = pay(
            &app,
            &tpp,
            STRAKS,
            &transfer(amount, OLA_CURRENT, json!({})),
        )
        .send()
        .await;
        assert_eq!(created.status, 201, "{}", created.body);
        ids.push(created.body["paymentId"].as_str().unwrap().to_owned());
    }
    let basket = pay(&app, &tpp, BASKETS, &json!({"paymentIds": ids}))
        .send()
        .await;
    assert_eq!(basket.status, 201, "{}", basket.body);
    let path = format!("{BASKETS}/{}", basket.body["basketId"].as_str().unwrap());
    let first = started_links(&basket.body["_links"], &path);
    let status_path = format!("{path}/authorisations/{first}");
    assert_eq!(sca_status(&app, &tpp, &status_path).await, "psuIdentified");
    assert_eq!(
        listed(&app, &tpp, &path).await,
        std::slice::from_ref(&first)
    );
    let second = start_again(&app, &tpp, &path).await;
    assert_eq!(listed(&app, &tpp, &path).await, [first, second]);
    // A payment's own list leaves out the basket's authorisations.
    let payment = format!("{STRAKS}/{}", ids[0]);
    assert_eq!(listed(&app, &tpp, &payment).await.len(), 1);
    // Read later, the basket offers to start one: no authorisation was started by that answer.
    let read = tpp
        .get(&app, &path)
        .header("x-accept-fix", FIX)
        .send()
        .await;
    read.assert_ok();
    let links = &read.body["_links"];
    assert_eq!(
        href(links, "startAuthorisation"),
        format!("{path}/authorisations")
    );
    assert!(links.get("scaRedirect").is_none(), "{links}");
    // An authorisation of another resource is not this basket's.
    let other = listed(&app, &tpp, &payment).await.remove(0);
    tpp.get(&app, &format!("{path}/authorisations/{other}"))
        .header("x-accept-fix", FIX)
        .send()
        .await
        .assert_refused(404, "SCA_NOT_FOUND", Some("authorisationId"));
}

async fn spawn() -> TestApp {
    crate::helpers::spawn_app().await
}
