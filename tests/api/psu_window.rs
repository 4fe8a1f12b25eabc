//! The workbench's PSU window (`/sca/{id}?workbench=1`): at the end of the SCA it shows where the bank
//! sends the PSU — the TPP-Redirect-URI, the psu-id and psu-corporate-id — with a link onwards that then
//! redirects as the bank does, so an outside app that is not running leaves no browser error page; a TPP
//! app's own browser flow still gets the bank's 303 at once; the SCA screen lists the same.

use crate::helpers::{spawn_app, workbench_api as call, TestApp};
use crate::sca_pages::{
    action, browser, get_page, inputs, kari, param, post_form, start_sca, submit, tpp_params, Page,
    TPP_REDIRECT,
};
use reqwest::Method;

/// Walks identify and method in the PSU window, checking each step keeps the mark; returns the context page.
async fn to_context_in_window(
    app: &TestApp,
    client: &reqwest::Client,
    window: &str,
    id: &str,
) -> Page {
    let page = get_page(app, client, window, None).await;
    assert_eq!(page.status, 200, "{}", page.html);
    assert!(action(&page.html, "identify").ends_with("?workbench=1"));
    let next = submit(
        app,
        client,
        &page.html,
        "identify",
        &[("nationalId", &kari())],
    )
    .await;
    assert_eq!(
        next,
        format!("/sca/{id}?workbench=1"),
        "the mark is carried on"
    );
    let page = get_page(app, client, &next, None).await;
    let next = submit(app, client, &page.html, "method", &[("method", "HA2")]).await;
    get_page(app, client, &next, None).await
}

#[tokio::test]
async fn the_psu_window_shows_where_the_psu_is_sent_and_the_link_onwards_redirects_as_the_bank() {
    let app = spawn_app().await;
    let client = browser();
    // Corporate context, the consent of one of Kari's agreements: both ids go back.
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let window = format!("{}?workbench=1", started.page);
    let page = to_context_in_window(&app, &client, &window, &started.id).await;
    let agreement = inputs(&page.html, "context")
        .into_iter()
        .map(|(v, _)| v)
        .find(|v| v.starts_with("CORPORATE:"))
        .expect("Kari has agreements");
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", &agreement)],
    )
    .await;
    let consent = get_page(&app, &client, &next, None).await;
    let account = inputs(&consent.html, "account")[0].0.clone();

    // The last step: not a redirect into the unknown, but the page that says where the PSU goes.
    let last = post_form(
        &app,
        &client,
        &action(&consent.html, "consent"),
        &[("account", &account)],
    )
    .await;
    assert_eq!(
        (last.status, last.location.as_deref()),
        (200, None),
        "{}",
        last.html
    );
    assert!(
        last.html.contains("Back to Sandbox AISP PISP AS"),
        "{}",
        last.html
    );
    assert!(last.html.contains("id=\"handover-address\""));
    assert!(last.html.contains(TPP_REDIRECT), "{}", last.html);
    for name in ["psu-id", "psu-corporate-id", "context", "tpp-session-id"] {
        assert!(
            last.html.contains(&format!("<dt>{name}</dt>")),
            "{name}: {}",
            last.html
        );
    }
    assert!(!last.html.contains("<script"), "no JavaScript");
    // The link onwards is the authorisation's page outside the window: the bank's 303 to the TPP, with
    // the values the page showed.
    let onward = format!("/sca/{}", started.id);
    assert!(
        last.html
            .contains(&format!("id=\"onward\" href=\"{onward}\"")),
        "{}",
        last.html
    );
    let gone = get_page(&app, &client, &onward, None).await;
    assert_eq!(gone.status, 303);
    let location = gone.location.unwrap();
    let params = tpp_params(&location, TPP_REDIRECT);
    let psu_id = param(&params, "psu-id").unwrap().to_owned();
    let corporate_id = param(&params, "psu-corporate-id").unwrap().to_owned();
    assert!(last.html.contains(&psu_id) && last.html.contains(&corporate_id));
    assert_eq!(param(&params, "context"), Some("CORPORATE"));
    // A reload of the window shows the page again.
    let again = get_page(&app, &client, &window, None).await;
    assert_eq!(again.status, 200);
    assert!(again.html.contains(&psu_id));

    // The SCA screen lists the same, newest first.
    let (status, finished) = call(&app, Method::GET, "/sca/finished", None).await;
    assert_eq!(status, 200);
    let newest = &finished[0];
    assert_eq!(newest["id"], started.id.as_str());
    assert_eq!(newest["kind"], "consent");
    assert_eq!(newest["outcome"], "SUCCEEDED");
    assert_eq!(newest["tppName"], "Sandbox AISP PISP AS");
    assert_eq!(newest["redirect"], location.as_str());
    assert_eq!(newest["redirectUri"], TPP_REDIRECT);
    assert_eq!(newest["psuId"], psu_id.as_str());
    assert_eq!(newest["psuCorporateId"], corporate_id.as_str());
    assert_eq!(
        newest["parameters"][0],
        serde_json::json!(["psu-id", psu_id])
    );
}

#[tokio::test]
async fn outside_the_window_and_to_the_workbenchs_own_callback_the_last_step_redirects_at_once() {
    let app = spawn_app().await;
    let client = browser();
    // A TPP app's own browser flow: no mark, the bank's 303 straight to its redirect URI.
    let started = start_sca(&app, "/v1/users", TPP_REDIRECT, &[]).await;
    let page = get_page(&app, &client, &started.page, None).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "identify",
        &[("nationalId", &kari())],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    let next = submit(&app, &client, &page.html, "method", &[("method", "HA2")]).await;
    let page = get_page(&app, &client, &next, None).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    let location = submit(&app, &client, &page.html, "confirm", &[]).await;
    assert!(location.starts_with(TPP_REDIRECT), "{location}");

    // In the window, the workbench's own callback is redirected to: it is a page of its own.
    let callback = format!("{}/workbench/callback?persona=bundled-aisp", app.base);
    let started = start_sca(&app, "/v1/users", &callback, &[]).await;
    let window = format!("{}?workbench=1", started.page);
    let page = to_context_in_window(&app, &client, &window, &started.id).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    let location = submit(&app, &client, &page.html, "confirm", &[]).await;
    assert!(location.starts_with(&callback), "{location}");

    // A cancel in the window shows the failure's values the same way.
    let started = start_sca(&app, "/v1/users", TPP_REDIRECT, &[]).await;
    let window = format!("{}?workbench=1&lang=nb", started.page);
    let page = get_page(&app, &client, &window, None).await;
    let cancelled = post_form(&app, &client, &action(&page.html, "cancel"), &[]).await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.html);
    assert!(
        cancelled.html.contains("Tilbake til"),
        "in the page's language: {}",
        cancelled.html
    );
    for name in ["status", "code", "message"] {
        assert!(
            cancelled.html.contains(&format!("<dt>{name}</dt>")),
            "{name}: {}",
            cancelled.html
        );
    }
    assert!(
        cancelled
            .html
            .contains(&format!("href=\"/sca/{}?lang=nb\"", started.id)),
        "{}",
        cancelled.html
    );
}
