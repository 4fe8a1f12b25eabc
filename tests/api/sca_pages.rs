//! The bank's authorisation pages driven as a browser without JavaScript drives them: a TPP request gets
//! 401 with scaRedirect, the PSU's client GETs each page, posts its form and follows each 303 by hand,
//! until the last one lands on the TPP's redirect URI. Also the sandbox automation endpoint
//! (`/v1/sandbox/sca/{id}`) that takes the same steps without a browser, with each of its refusals.

use crate::helpers::{spawn_app, TestApp};
use reqwest::redirect::Policy;
use reqwest::Url;
use serde_json::json;
use time::Duration;
use xs2a_core::bank::mock::seed;
use xs2a_core::bank::sca::authorisation::AuthMethod;
use xs2a_core::bank::sca::engine;
use xs2a_core::domain::NationalId;

pub const TPP_REDIRECT: &str = "https://tpp.example/cb";
/// The fixture TPP the helpers sign with (aisp-pisp), as its certificate names it.
const TPP_NAME: &str = "Sandbox AISP PISP AS";

/// The seeded private customers' national identity numbers: Kari Nordmann (two agreements), Ola
/// Nordmann (one), Per Hansen (one).
pub fn kari() -> String {
    seed::private_customers()[0].0.clone()
}

/// A valid national identity number no sandbox customer has.
pub fn stranger() -> String {
    (100..500)
        .find_map(|i| NationalId::synthetic(time::macros::date!(1950 - 06 - 15), i))
        .unwrap()
        .as_str()
        .to_owned()
}

/// An authorisation the PSU is sent to.
pub struct Started {
    pub id: String,
    /// The absolute scaRedirect URL.
    pub page: String,
}

/// Starts SCA as a TPP does: a signed `GET path` (`/v1/accounts` for a consent, `/v1/users` for a user
/// lookup) that answers 401 with `_links.scaRedirect`, with `extra` headers (X-PSU-IDENTITY,
/// X-PSU-AuthMethod-Preferred, TPP-Redirect-Preferred, ...).
pub async fn start_sca(
    app: &TestApp,
    path: &str,
    redirect_uri: &str,
    extra: &[(&str, &str)],
) -> Started {
    let mut request = app
        .get(path)
        .header("TPP-Redirect-URI", redirect_uri)
        .header("TPP-Session-ID", "s-1")
        .header("PSU-IP-Address", "192.0.2.1");
    for (name, value) in extra {
        request = request.header(name, value);
    }
    let response = request.send().await;
    assert_eq!(response.status, 401, "{path}: {}", response.body);
    let href = response.body["_links"]["scaRedirect"]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("401 without scaRedirect: {}", response.body))
        .to_owned();
    assert!(href.starts_with(&format!("{}/sca/", app.base)), "{href}");
    let id = href.rsplit('/').next().unwrap().to_owned();
    Started { id, page: href }
}

/// A client that behaves like a browser without JavaScript, except that it does not follow redirects
/// (the tests follow them, to see each one).
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
}

/// One answer of the pages.
pub struct Page {
    pub status: u16,
    pub location: Option<String>,
    pub language: Option<String>,
    pub content_type: String,
    pub html: String,
}

async fn read(response: reqwest::Response) -> Page {
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let location = header("location");
    let language = header("content-language");
    let content_type = header("content-type").unwrap_or_default();
    Page {
        status: response.status().as_u16(),
        location,
        language,
        content_type,
        html: response.text().await.unwrap(),
    }
}

/// GET a page (a path on the sandbox or an absolute URL), optionally with Accept-Language.
pub async fn get_page(
    app: &TestApp,
    client: &reqwest::Client,
    url: &str,
    lang: Option<&str>,
) -> Page {
    let url = absolute(app, url);
    let mut request = client.get(url);
    if let Some(lang) = lang {
        request = request.header("accept-language", lang);
    }
    read(request.send().await.unwrap()).await
}

/// POSTs a urlencoded form (repeated names allowed) to `action`.
pub async fn post_form(
    app: &TestApp,
    client: &reqwest::Client,
    action: &str,
    fields: &[(&str, &str)],
) -> Page {
    read(
        client
            .post(absolute(app, action))
            .form(fields)
            .send()
            .await
            .unwrap(),
    )
    .await
}

fn absolute(app: &TestApp, url: &str) -> String {
    if url.starts_with("http") {
        url.to_owned()
    } else {
        format!("{}{url}", app.base)
    }
}

/// The (unescaped) action of the page's form for `step` (`identify`, `method`, ...).
pub fn action(html: &str, step: &str) -> String {
    html.split("action=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().replace("&amp;", "&"))
        .find(|a| a.split('?').next().unwrap().ends_with(&format!("/{step}")))
        .unwrap_or_else(|| panic!("no form for {step} in: {html}"))
}

/// The values of inputs named `name` with whether each is checked.
pub(crate) fn inputs(html: &str, name: &str) -> Vec<(String, bool)> {
    html.split("<input ")
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap())
        .filter(|tag| tag.contains(&format!("name=\"{name}\"")))
        .map(|tag| {
            let value = tag
                .split("value=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (value.replace("&amp;", "&"), tag.contains(" checked"))
        })
        .collect()
}

/// Posts a form and asserts the 303 that follows; returns where it points.
pub(crate) async fn submit(
    app: &TestApp,
    client: &reqwest::Client,
    html: &str,
    step: &str,
    fields: &[(&str, &str)],
) -> String {
    let page = post_form(app, client, &action(html, step), fields).await;
    assert_eq!(page.status, 303, "{step}: {}", page.html);
    page.location.unwrap()
}

/// The query parameters of the TPP redirect a Location names.
pub fn tpp_params(location: &str, redirect_uri: &str) -> Vec<(String, String)> {
    assert!(
        location.starts_with(redirect_uri),
        "{location} is not at the TPP"
    );
    Url::parse(location)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

pub fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn assert_uuid(value: Option<&str>) {
    let value = value.expect("a UUID parameter");
    uuid::Uuid::parse_str(value).unwrap_or_else(|_| panic!("{value} is not a UUID"));
}

/// Walks identify (Kari), method (HA2) and context (`context`), returning the consent page.
pub(crate) async fn through_context(
    app: &TestApp,
    client: &reqwest::Client,
    started: &Started,
    context: &str,
) -> Page {
    let page = get_page(app, client, &started.page, None).await;
    assert_eq!(page.status, 200, "{}", page.html);
    let next = submit(
        app,
        client,
        &page.html,
        "identify",
        &[("nationalId", &kari())],
    )
    .await;
    assert_eq!(next, format!("/sca/{}", started.id));
    let page = get_page(app, client, &next, None).await;
    let next = submit(app, client, &page.html, "method", &[("method", "HA2")]).await;
    let page = get_page(app, client, &next, None).await;
    let next = submit(app, client, &page.html, "context", &[("context", context)]).await;
    get_page(app, client, &next, None).await
}

#[tokio::test]
async fn sca_pages_take_a_private_psu_from_the_401_back_to_the_tpp_with_psu_id_and_context() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;

    let page = get_page(&app, &client, &started.page, None).await;
    assert_eq!(page.status, 200);
    assert!(
        page.content_type.starts_with("text/html"),
        "{}",
        page.content_type
    );
    assert_eq!(page.language.as_deref(), Some("en"));
    assert!(page.html.contains("xs2a-sandbox Bank"));
    assert!(
        page.html.contains(&format!(
            "<strong>{TPP_NAME}</strong> wants to read your account information"
        )),
        "{}",
        page.html
    );
    assert!(page.html.contains("id=\"nationalId\""));
    assert!(page.html.contains(&kari()), "the test customers are listed");
    assert!(page.html.contains("id=\"cancel\""));
    assert!(
        !page.html.contains("<script"),
        "the pages need no JavaScript"
    );

    let consent = through_context(&app, &client, &started, "PRIVATE").await;
    assert!(consent.html.contains("Choose accounts"), "{}", consent.html);
    assert!(consent
        .html
        .contains("Identified as <strong>Kari Nordmann</strong>"));
    let accounts = inputs(&consent.html, "account");
    assert_eq!(accounts.len(), 3, "two accounts and a card account");
    assert!(
        accounts.iter().all(|(_, checked)| !checked),
        "nothing granted yet"
    );
    let ticked: Vec<(&str, &str)> = accounts
        .iter()
        .map(|(id, _)| ("account", id.as_str()))
        .collect();
    let location = submit(&app, &client, &consent.html, "consent", &ticked).await;

    let params = tpp_params(&location, TPP_REDIRECT);
    assert_uuid(param(&params, "psu-id"));
    assert_eq!(param(&params, "tpp-session-id"), Some("s-1"));
    assert_eq!(param(&params, "context"), Some("PRIVATE"));
    assert_eq!(param(&params, "psu-corporate-id"), None);

    // A reload after finishing still lands at the TPP.
    let again = get_page(&app, &client, &started.page, None).await;
    assert_eq!(
        (again.status, again.location.as_deref()),
        (303, Some(location.as_str()))
    );
    // So does posting a step again (double submit).
    let again = post_form(&app, &client, &action(&consent.html, "consent"), &ticked).await;
    assert_eq!(
        (again.status, again.location.as_deref()),
        (303, Some(location.as_str()))
    );
}

#[tokio::test]
async fn sca_pages_in_corporate_context_send_psu_corporate_id_and_context_corporate() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
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
    let next = submit(
        &app,
        &client,
        &page.html,
        "method",
        &[("method", "BANK_ID")],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;

    let choices = inputs(&page.html, "context");
    assert_eq!(
        choices[0],
        ("PRIVATE".to_owned(), true),
        "private is preselected"
    );
    let corporate: Vec<&String> = choices
        .iter()
        .map(|(v, _)| v)
        .filter(|v| v.starts_with("CORPORATE:"))
        .collect();
    assert_eq!(corporate.len(), 2, "Kari has two agreements: {}", page.html);
    assert!(page.html.contains("Fjordkraft Testbedrift AS"));

    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", corporate[0])],
    )
    .await;
    let consent = get_page(&app, &client, &next, None).await;
    assert!(consent.html.contains("Acting for"), "{}", consent.html);
    let accounts = inputs(&consent.html, "account");
    assert!(!accounts.is_empty());
    let location = submit(
        &app,
        &client,
        &consent.html,
        "consent",
        &[("account", &accounts[0].0)],
    )
    .await;

    let params = tpp_params(&location, TPP_REDIRECT);
    assert_uuid(param(&params, "psu-id"));
    assert_uuid(param(&params, "psu-corporate-id"));
    assert_eq!(param(&params, "context"), Some("CORPORATE"));
    assert_eq!(param(&params, "tpp-session-id"), Some("s-1"));
}

#[tokio::test]
async fn sca_pages_accept_context_and_agreement_id_as_separate_fields() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("X-PSU-AuthMethod-Preferred", "HA2"),
        ],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    let agreement = inputs(&page.html, "context")
        .into_iter()
        .find_map(|(v, _)| v.strip_prefix("CORPORATE:").map(str::to_owned))
        .unwrap();
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "CORPORATE"), ("agreementId", &agreement)],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    assert!(page.html.contains("Choose accounts"), "{}", page.html);

    // CORPORATE without naming one of two agreements is refused on the same page.
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("X-PSU-AuthMethod-Preferred", "HA2"),
        ],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    let refused = post_form(
        &app,
        &client,
        &action(&page.html, "context"),
        &[("context", "CORPORATE")],
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("no such corporate agreement"),
        "{}",
        refused.html
    );
    let refused = post_form(
        &app,
        &client,
        &action(&page.html, "context"),
        &[("context", "SOMETHING")],
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .html
            .contains("Choose a private person or one of your agreements"),
        "{}",
        refused.html
    );
    assert_eq!(
        inputs(&refused.html, "context")[0],
        ("PRIVATE".to_owned(), true),
        "an unknown choice falls back to private"
    );
}

#[tokio::test]
async fn sca_pages_speak_norwegian_for_accept_language_nb_and_switch_with_lang() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;

    let page = get_page(
        &app,
        &client,
        &started.page,
        Some("nb-NO,nb;q=0.9,en;q=0.5"),
    )
    .await;
    assert_eq!(page.status, 200);
    assert_eq!(page.language.as_deref(), Some("nb"));
    assert!(page.html.contains("<html lang=\"nb\""));
    assert!(page.html.contains("Identifiser deg"), "{}", page.html);
    assert!(page.html.contains("Fødselsnummer"));
    assert!(page.html.contains(&format!(
        "<strong>{TPP_NAME}</strong> ønsker å lese kontoinformasjonen din"
    )));
    assert!(page.html.contains(">Avbryt<"));
    assert!(
        page.html
            .contains(&format!("href=\"/sca/{}?lang=en\"", started.id)),
        "a link to English"
    );

    // ?lang= wins over Accept-Language and is carried through the forms.
    let page = get_page(
        &app,
        &client,
        &format!("/sca/{}?lang=nb", started.id),
        Some("en"),
    )
    .await;
    assert_eq!(page.language.as_deref(), Some("nb"));
    let identify = action(&page.html, "identify");
    assert!(identify.ends_with("?lang=nb"), "{identify}");
    let refused = post_form(&app, &client, &identify, &[("nationalId", "123")]).await;
    assert_eq!(
        (refused.status, refused.language.as_deref()),
        (400, Some("nb"))
    );
    assert!(
        refused.html.contains("Det er ikke et gyldig fødselsnummer"),
        "{}",
        refused.html
    );
    let next = post_form(&app, &client, &identify, &[("nationalId", &kari())]).await;
    assert_eq!(
        next.location.as_deref(),
        Some(format!("/sca/{}?lang=nb", started.id).as_str())
    );

    let page = get_page(
        &app,
        &client,
        &format!("/sca/{}?lang=en", started.id),
        Some("nb"),
    )
    .await;
    assert_eq!(page.language.as_deref(), Some("en"));
    assert!(page.html.contains("Choose how to authenticate"));
}

#[tokio::test]
async fn sca_pages_skip_identify_for_x_psu_identity_and_method_for_a_preferred_method() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[("X-PSU-IDENTITY", &kari())],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    assert!(
        !page.html.contains("id=\"nationalId\""),
        "identify is skipped"
    );
    for method in AuthMethod::ALL {
        assert!(
            page.html
                .contains(&format!("value=\"{}\"", method.as_str())),
            "{}",
            page.html
        );
    }

    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("X-PSU-AuthMethod-Preferred", "HA2"),
        ],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    assert!(
        page.html.contains("Who do you act for?"),
        "identify and method are skipped: {}",
        page.html
    );
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    let accounts = inputs(&page.html, "account");
    let location = submit(
        &app,
        &client,
        &page.html,
        "consent",
        &[("account", &accounts[0].0)],
    )
    .await;
    assert_eq!(
        param(&tpp_params(&location, TPP_REDIRECT), "context"),
        Some("PRIVATE")
    );

    // A preferred method alone still asks who the PSU is, then skips the method page.
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[("X-PSU-AuthMethod-Preferred", "ENGANGSKODEAPP_BIOMETRI")],
    )
    .await;
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
    assert!(page.html.contains("Who do you act for?"), "{}", page.html);
}

#[tokio::test]
async fn sca_pages_show_the_biometric_variant_when_the_tpp_prefers_no_redirect() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("TPP-Redirect-Preferred", "false"),
            ("X-PSU-IDENTITY", &kari()),
        ],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    assert!(
        page.html.contains("Confirm with biometrics in the app"),
        "{}",
        page.html
    );
    let methods = page.html.matches("name=\"method\"").count();
    assert_eq!(methods, 1, "a single button");
    assert!(page.html.contains("value=\"ENGANGSKODEAPP_BIOMETRI\""));
    assert!(!page.html.contains("value=\"HA2\""));
    let next = submit(
        &app,
        &client,
        &page.html,
        "method",
        &[("method", "ENGANGSKODEAPP_BIOMETRI")],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    assert!(page.html.contains("Who do you act for?"));

    let state = app
        .get(&format!("/v1/sandbox/sca/{}", started.id))
        .send()
        .await;
    state.assert_ok();
    assert_eq!(state.body["method"], "ENGANGSKODEAPP_BIOMETRI");
    assert_eq!(state.body["presets"]["biometricInApp"], true);
}

#[tokio::test]
async fn sca_pages_show_a_wrong_national_id_again_with_400_and_a_message() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let page = get_page(&app, &client, &started.page, None).await;
    let identify = action(&page.html, "identify");

    let refused = post_form(&app, &client, &identify, &[("nationalId", "12345<b>")]).await;
    assert_eq!(refused.status, 400);
    assert!(refused.content_type.starts_with("text/html"));
    assert!(refused.html.contains("id=\"error\""));
    assert!(
        refused
            .html
            .contains("That is not a valid national identity number"),
        "{}",
        refused.html
    );
    assert!(
        refused.html.contains("value=\"12345&lt;b&gt;\""),
        "what was typed is kept, escaped"
    );
    assert!(!refused.html.contains("12345<b>"));

    // Valid check digits, but nobody in the sandbox has the number.
    let unknown = post_form(&app, &client, &identify, &[("nationalId", &stranger())]).await;
    assert_eq!(unknown.status, 400, "{}", unknown.html);
    assert!(
        unknown
            .html
            .contains("No sandbox customer has that national identity number"),
        "{}",
        unknown.html
    );

    let missing = post_form(&app, &client, &identify, &[]).await;
    assert_eq!(missing.status, 400);

    // A step that does not fit: the page of the current step, with 400.
    let early = post_form(
        &app,
        &client,
        &format!("/sca/{}/consent", started.id),
        &[("account", "x")],
    )
    .await;
    assert_eq!(early.status, 400);
    assert!(
        early.html.contains("id=\"nationalId\""),
        "still the identify page"
    );
    assert!(
        early
            .html
            .contains("this authorisation is at step &quot;identify&quot;"),
        "{}",
        early.html
    );

    let bogus = post_form(&app, &client, &identify, &[("nationalId", &kari())]).await;
    assert_eq!(bogus.status, 303);
    let refused = post_form(
        &app,
        &client,
        &format!("/sca/{}/method", started.id),
        &[("method", "CARRIER_PIGEON")],
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("Choose one of the methods."),
        "{}",
        refused.html
    );
}

#[tokio::test]
async fn sca_pages_cancel_sends_the_psu_back_with_sca_invalid() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(
        &app,
        "/v1/accounts",
        "https://tpp.example/cb?state=xyz",
        &[],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    let location = submit(&app, &client, &page.html, "cancel", &[]).await;
    let params = tpp_params(&location, "https://tpp.example/cb?state=xyz");
    assert_eq!(
        param(&params, "state"),
        Some("xyz"),
        "the TPP's own parameters stay"
    );
    assert_eq!(param(&params, "system"), Some(engine::SYSTEM));
    assert_eq!(param(&params, "status"), Some("401"));
    assert_eq!(param(&params, "code"), Some("SCA_INVALID"));
    assert!(param(&params, "message").is_some_and(|m| m.contains("cancelled")));
    assert_eq!(param(&params, "psu-id"), None);

    // Cancelling on a later page works the same.
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("X-PSU-AuthMethod-Preferred", "HA2"),
        ],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    let location = submit(&app, &client, &page.html, "cancel", &[]).await;
    assert_eq!(
        param(&tpp_params(&location, TPP_REDIRECT), "code"),
        Some("SCA_INVALID")
    );
}

#[tokio::test]
async fn sca_pages_preselect_accounts_granted_in_an_earlier_consent() {
    let app = spawn_app().await;
    let client = browser();
    let presets = [
        ("X-PSU-IDENTITY", kari()),
        ("X-PSU-AuthMethod-Preferred", "HA2".to_owned()),
    ];
    let presets: Vec<(&str, &str)> = presets.iter().map(|(n, v)| (*n, v.as_str())).collect();

    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &presets).await;
    let page = get_page(&app, &client, &started.page, None).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let consent = get_page(&app, &client, &next, None).await;
    let accounts = inputs(&consent.html, "account");
    let first = accounts[0].0.clone();
    submit(
        &app,
        &client,
        &consent.html,
        "consent",
        &[("account", &first)],
    )
    .await;

    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &presets).await;
    let page = get_page(&app, &client, &started.page, None).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let consent = get_page(&app, &client, &next, None).await;
    assert!(consent
        .html
        .contains("Accounts you granted before are already ticked"));
    let again = inputs(&consent.html, "account");
    assert_eq!(again.len(), accounts.len());
    for (id, checked) in &again {
        assert_eq!(*checked, *id == first, "{id}: {}", consent.html);
    }

    // An account that is not offered is refused, and the ticks sent are kept.
    let refused = post_form(
        &app,
        &client,
        &action(&consent.html, "consent"),
        &[("account", &again[1].0), ("account", "not-an-account")],
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("cannot be granted"),
        "{}",
        refused.html
    );
    let kept = inputs(&refused.html, "account");
    assert!(kept
        .iter()
        .all(|(id, checked)| *checked == (*id == again[1].0)));

    // Unticking everything revokes everything, and still ends SCA successfully.
    let location = submit(&app, &client, &consent.html, "consent", &[]).await;
    assert_eq!(
        param(&tpp_params(&location, TPP_REDIRECT), "context"),
        Some("PRIVATE")
    );
}

#[tokio::test]
async fn sca_pages_for_a_user_lookup_ask_to_let_the_tpp_identify_the_psu() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(
        &app,
        "/v1/users",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("X-PSU-AuthMethod-Preferred", "HA2"),
        ],
    )
    .await;
    let page = get_page(&app, &client, &started.page, None).await;
    assert!(
        page.html.contains(&format!(
            "<strong>{TPP_NAME}</strong> wants to identify you"
        )),
        "{}",
        page.html
    );
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let page = get_page(&app, &client, &next, None).await;
    assert!(
        page.html
            .contains(&format!("Let <strong>{TPP_NAME}</strong> identify you.")),
        "{}",
        page.html
    );
    let location = submit(&app, &client, &page.html, "confirm", &[]).await;
    let params = tpp_params(&location, TPP_REDIRECT);
    assert_uuid(param(&params, "psu-id"));
    assert_eq!(param(&params, "context"), Some("PRIVATE"));
}

#[tokio::test]
async fn sca_pages_say_when_an_authorisation_is_unknown_or_expired() {
    let app = spawn_app().await;
    let client = browser();
    let unknown = get_page(&app, &client, "/sca/no-such-id", Some("nb")).await;
    assert_eq!(unknown.status, 404);
    assert!(unknown.content_type.starts_with("text/html"));
    assert!(
        unknown.html.contains("Fant ikke autorisasjonen"),
        "{}",
        unknown.html
    );
    let posted = post_form(
        &app,
        &client,
        "/sca/no-such-id/identify",
        &[("nationalId", &kari())],
    )
    .await;
    assert_eq!(posted.status, 404);
    let cancelled = post_form(&app, &client, "/sca/no-such-id/cancel", &[]).await;
    assert_eq!(cancelled.status, 404);

    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    app.state.clock.advance(Duration::minutes(31));
    let page = get_page(&app, &client, &started.page, None).await;
    assert_eq!(page.status, 200);
    assert!(
        page.html.contains("This authorisation has expired"),
        "{}",
        page.html
    );
    assert!(page.html.contains(&format!("Back to {TPP_NAME}")));
    let refused = post_form(
        &app,
        &client,
        &format!("/sca/{}/identify", started.id),
        &[("nationalId", &kari())],
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("has expired"));
    let location = submit(&app, &client, &page.html, "cancel", &[]).await;
    let params = tpp_params(&location, TPP_REDIRECT);
    assert_eq!(param(&params, "code"), Some("SCA_EXPIRED"));
    assert_eq!(param(&params, "status"), Some("401"));
}

#[tokio::test]
async fn sca_pages_send_a_get_on_a_form_action_back_to_the_page() {
    let app = spawn_app().await;
    let client = browser();
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let page = get_page(
        &app,
        &client,
        &format!("/sca/{}/identify?lang=nb", started.id),
        None,
    )
    .await;
    assert_eq!(page.status, 303);
    assert_eq!(page.location, Some(format!("/sca/{}?lang=nb", started.id)));
}

// ---- The automation endpoint ----------------------------------------------------------------------

#[tokio::test]
async fn sca_automation_completes_every_remaining_step_and_returns_the_redirect() {
    let app = spawn_app().await;
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let path = format!("/v1/sandbox/sca/{}", started.id);
    let before = app.get(&path).send().await;
    before.assert_ok();
    assert_eq!(before.body["step"], "identify");
    assert_eq!(before.body["purpose"], "CONSENT");
    assert_eq!(before.body["tppName"], TPP_NAME);
    assert_eq!(before.body["scaRedirect"], started.page);
    assert_eq!(before.body["outcome"], serde_json::Value::Null);

    let response = app.post(&path, &json!({"nationalId": kari()})).send().await;
    response.assert_ok();
    let body = &response.body;
    assert_eq!(body["authorisationId"], started.id);
    assert_eq!(body["outcome"], "SUCCEEDED");
    assert_eq!(body["context"], "PRIVATE");
    assert_eq!(body["tppSessionId"], "s-1");
    let psu_id = body["psuId"].as_str().unwrap();
    uuid::Uuid::parse_str(psu_id).unwrap();
    assert!(body.get("psuCorporateId").is_none());
    let redirect = body["redirect"].as_str().unwrap();
    let params = tpp_params(redirect, TPP_REDIRECT);
    assert_eq!(param(&params, "psu-id"), Some(psu_id));

    let after = app.get(&path).send().await;
    assert_eq!(after.body["step"], "finished");
    assert_eq!(after.body["outcome"], "SUCCEEDED");
    assert_eq!(after.body["method"], "HA2");
    assert_eq!(after.body["redirect"], redirect);

    // Default: every account offered was granted, so a second run pre-selects them all.
    let second = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("X-PSU-AuthMethod-Preferred", "HA2"),
        ],
    )
    .await;
    let client = browser();
    let page = get_page(&app, &client, &second.page, None).await;
    let next = submit(
        &app,
        &client,
        &page.html,
        "context",
        &[("context", "PRIVATE")],
    )
    .await;
    let consent = get_page(&app, &client, &next, None).await;
    let accounts = inputs(&consent.html, "account");
    assert_eq!(accounts.len(), 3);
    assert!(
        accounts.iter().all(|(_, checked)| *checked),
        "{}",
        consent.html
    );

    // Finished: it cannot be driven again (Berlin Group's SCA_INVALID, a 400).
    app.post(&path, &json!({"nationalId": kari()}))
        .send()
        .await
        .assert_refused(400, "SCA_INVALID", None);
}

#[tokio::test]
async fn sca_automation_in_corporate_context_returns_psu_corporate_id() {
    let app = spawn_app().await;
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[("X-PSU-IDENTITY", &kari())],
    )
    .await;
    let path = format!("/v1/sandbox/sca/{}", started.id);
    let kari_id = engine::person_by_national_id(&app.state.store, &kari())
        .unwrap()
        .id;
    let agreements = engine::agreement_choices(&app.state.store, &kari_id).unwrap();

    app.post(&path, &json!({"agreementId": "no-such-agreement"}))
        .send()
        .await
        .assert_refused(400, "BAD_REQUEST", Some("agreementId"));
    // The method step before it was taken; the request can be repeated with a fix.
    app.post(&path, &json!({"context": "CORPORATE"}))
        .send()
        .await
        .assert_refused(400, "BAD_REQUEST", Some("agreementId"));
    let response = app
        .post(
            &path,
            &json!({"agreementId": agreements[1].id, "accounts": ["not-an-account"]}),
        )
        .send()
        .await;
    response.assert_refused(400, "BAD_REQUEST", Some("accounts"));
    let response = app
        .post(&path, &json!({"method": "MOBILE_EID"}))
        .send()
        .await;
    response.assert_ok();
    assert_eq!(response.body["context"], "CORPORATE");
    uuid::Uuid::parse_str(response.body["psuCorporateId"].as_str().unwrap()).unwrap();
    let state = app.get(&path).send().await;
    assert_eq!(state.body["agreementId"], agreements[1].id.as_str());
    assert_eq!(
        state.body["method"], "HA2",
        "the method step was taken by the first request"
    );
}

#[tokio::test]
async fn sca_automation_cancel_and_failure_end_with_the_failure_redirect() {
    let app = spawn_app().await;
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let response = app
        .post(
            &format!("/v1/sandbox/sca/{}", started.id),
            &json!({"outcome": "cancel"}),
        )
        .send()
        .await;
    response.assert_ok();
    assert_eq!(response.body["outcome"], "CANCELLED");
    assert_eq!(response.body["code"], "SCA_INVALID");
    assert!(response.body.get("psuId").is_none());
    assert!(response.body.get("context").is_none());
    let params = tpp_params(response.body["redirect"].as_str().unwrap(), TPP_REDIRECT);
    assert_eq!(param(&params, "status"), Some("401"));
    assert_eq!(param(&params, "system"), Some(engine::SYSTEM));

    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let response = app
        .post(
            &format!("/v1/sandbox/sca/{}", started.id),
            &json!({"nationalId": kari(), "outcome": "failure"}),
        )
        .send()
        .await;
    response.assert_ok();
    assert_eq!(response.body["outcome"], "FAILED");
    assert_eq!(response.body["code"], "PSU_CREDENTIALS_INVALID");
    let params = tpp_params(response.body["redirect"].as_str().unwrap(), TPP_REDIRECT);
    assert_eq!(param(&params, "code"), Some("PSU_CREDENTIALS_INVALID"));

    // An expired one cancels with SCA_EXPIRED, and cannot succeed.
    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let expired = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    app.state.clock.advance(Duration::minutes(31));
    app.post(
        &format!("/v1/sandbox/sca/{}", expired.id),
        &json!({"nationalId": kari()}),
    )
    .send()
    .await
    .assert_refused(401, "SCA_EXPIRED", None);
    let response = app
        .post(
            &format!("/v1/sandbox/sca/{}", started.id),
            &json!({"outcome": "cancel"}),
        )
        .send()
        .await;
    assert_eq!(response.body["code"], "SCA_EXPIRED");
}

#[tokio::test]
async fn sca_automation_refuses_unknown_ids_and_bad_bodies() {
    let app = spawn_app().await;
    app.post("/v1/sandbox/sca/no-such-id", &json!({"nationalId": kari()}))
        .send()
        .await
        .assert_refused(404, "SCA_NOT_FOUND", None);
    app.get("/v1/sandbox/sca/no-such-id")
        .send()
        .await
        .assert_refused(404, "SCA_NOT_FOUND", None);

    let started = start_sca(&app, "/v1/accounts", TPP_REDIRECT, &[]).await;
    let path = format!("/v1/sandbox/sca/{}", started.id);
    app.post(&path, &json!({"nationalId": "123"}))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("nationalId"));
    app.post(&path, &json!({"nationalId": stranger()}))
        .send()
        .await
        .assert_refused(401, "PSU_CREDENTIALS_INVALID", Some("nationalId"));
    app.post(&path, &json!({})).send().await.assert_refused(
        400,
        "FORMAT_ERROR",
        Some("nationalId"),
    );
    app.post(&path, &json!({"nationalId": kari(), "outcome": "maybe"}))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("outcome"));
    app.post(&path, &json!({"nationalId": kari(), "method": "PIGEON"}))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("method"));
    app.post(&path, &json!({"nationalId": kari(), "context": "PUBLIC"}))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("context"));
    app.post(
        &path,
        &json!({"nationalId": kari(), "context": "PRIVATE", "agreementId": "a"}),
    )
    .send()
    .await
    .assert_refused(400, "FORMAT_ERROR", Some("agreementId"));
    app.post(&path, &json!({"nationalId": kari(), "psuId": "x"}))
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", None);
    app.request(axum::http::Method::POST, &path)
        .raw_body(b"nationalId=1", "application/x-www-form-urlencoded")
        .send()
        .await
        .assert_refused(415, "FORMAT_ERROR", Some("Content-Type"));
    // None of these took a step.
    assert_eq!(app.get(&path).send().await.body["step"], "identify");
    // Like every /v1 request it must be signed.
    let unsigned = app
        .post(&path, &json!({"nationalId": kari()}))
        .unsigned()
        .send()
        .await;
    assert_eq!(unsigned.status, 400, "{}", unsigned.body);
}

#[tokio::test]
async fn sca_automation_with_presets_needs_no_body() {
    let app = spawn_app().await;
    let started = start_sca(
        &app,
        "/v1/accounts",
        TPP_REDIRECT,
        &[
            ("X-PSU-IDENTITY", &kari()),
            ("TPP-Redirect-Preferred", "false"),
        ],
    )
    .await;
    let path = format!("/v1/sandbox/sca/{}", started.id);
    let response = app.request(axum::http::Method::POST, &path).send().await;
    response.assert_ok();
    assert_eq!(response.body["outcome"], "SUCCEEDED");
    let state = app.get(&path).send().await;
    assert_eq!(
        state.body["method"], "ENGANGSKODEAPP_BIOMETRI",
        "the biometric variant's method"
    );
    assert_eq!(state.body["presets"]["nationalId"], kari());
}
