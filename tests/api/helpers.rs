//! The test harness: the real service on 127.0.0.1:0 with a temporary store and a frozen clock, and a
//! request builder that signs with the fixture certificates exactly as a TPP would.

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use time::macros::datetime;
use time::OffsetDateTime;
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};
use xs2a_http::app::{App, AppConfig, ClockStart};
use xs2a_workbench::app_state::AppState;

/// The instant the test clock starts at.
pub const TEST_NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

pub struct TestApp {
    pub base: String,
    pub state: AppState,
    pub app: Arc<App>,
    pub client: reqwest::Client,
    _shutdown: tokio::sync::oneshot::Sender<()>,
}

/// Where the fixture certificates live.
pub fn fixture_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/certs")
        .join(name)
}

/// Credentials of a fixture TPP: aisp, pisp, aisp-pisp, expired, untrusted, no-roles.
pub fn tpp(name: &str) -> SigningCredentials {
    SigningCredentials::from_dir(&fixture_dir(name)).expect("fixture credentials load")
}

/// The configuration tests start from: a temporary store and the clock frozen at [`TEST_NOW`].
pub fn test_config() -> AppConfig {
    AppConfig {
        clock: ClockStart::FrozenAt(TEST_NOW),
        ..AppConfig::default()
    }
}

/// Starts the service with the test configuration.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(test_config()).await
}

/// Starts the service, through the same `App` as the CLI, with `config`.
pub async fn spawn_app_with(config: AppConfig) -> TestApp {
    // A data directory an app of this test closed just before is waited for, not raced.
    let app = Arc::new(build_when_free(|| config.clone()).await);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let serving = app.clone();
    tokio::spawn(async move {
        serving
            .serve(listener, async {
                let _ = rx.await;
            })
            .await
    });
    TestApp {
        base,
        state: app.state().clone(),
        app,
        client: reqwest::Client::builder().no_gzip().build().unwrap(),
        _shutdown: tx,
    }
}

impl TestApp {
    /// Also serves the app over TLS (the bundled localhost certificate) on a port of its own; returns it.
    pub async fn serve_tls(&self) -> u16 {
        let config = xs2a_http::api::server::tls_config(
            xs2a_core::signing::test_credentials::SERVER_CERT_PEM,
            xs2a_core::signing::test_credentials::SERVER_KEY_PEM,
        )
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let serving = self.app.clone();
        tokio::spawn(async move {
            serving
                .serve_tls(listener, config, std::future::pending())
                .await
        });
        port
    }

    /// A request signed by the aisp-pisp fixture TPP unless told otherwise.
    pub fn request(&self, method: Method, path: &str) -> TestRequest<'_> {
        TestRequest {
            app: self,
            method,
            path: path.to_owned(),
            headers: HeaderMap::new(),
            body: Vec::new(),
            credentials: Some(tpp("aisp-pisp")),
            options: SignOptions::default(),
            at: None,
            tamper: None,
            body_after_signing: None,
        }
    }

    pub fn get(&self, path: &str) -> TestRequest<'_> {
        self.request(Method::GET, path)
    }

    pub fn post(&self, path: &str, body: &Value) -> TestRequest<'_> {
        self.request(Method::POST, path).json(body)
    }

    pub fn put(&self, path: &str, body: &Value) -> TestRequest<'_> {
        self.request(Method::PUT, path).json(body)
    }

    pub fn delete(&self, path: &str) -> TestRequest<'_> {
        self.request(Method::DELETE, path)
    }
}

type Tamper = Box<dyn FnOnce(&mut HeaderMap) + Send>;

pub struct TestRequest<'a> {
    app: &'a TestApp,
    method: Method,
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
    credentials: Option<SigningCredentials>,
    options: SignOptions,
    at: Option<OffsetDateTime>,
    tamper: Option<Tamper>,
    body_after_signing: Option<Vec<u8>>,
}

impl<'a> TestRequest<'a> {
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.append(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
        self
    }

    pub fn json(mut self, body: &Value) -> Self {
        self.body = serde_json::to_vec(body).unwrap();
        self.headers
            .insert("content-type", HeaderValue::from_static("application/json"));
        self
    }

    pub fn raw_body(mut self, body: &[u8], content_type: &str) -> Self {
        self.body = body.to_vec();
        self.headers
            .insert("content-type", HeaderValue::from_str(content_type).unwrap());
        self
    }

    /// Signs with another fixture TPP.
    pub fn signed_by(mut self, name: &str) -> Self {
        self.credentials = Some(tpp(name));
        self
    }

    /// Signs with these credentials.
    pub fn with_signer(mut self, credentials: SigningCredentials) -> Self {
        self.credentials = Some(credentials);
        self
    }

    /// Sends no signing headers at all.
    pub fn unsigned(mut self) -> Self {
        self.credentials = None;
        self
    }

    pub fn options(mut self, options: SignOptions) -> Self {
        self.options = options;
        self
    }

    /// Signs as of another time than the sandbox clock's.
    pub fn signed_at(mut self, at: OffsetDateTime) -> Self {
        self.at = Some(at);
        self
    }

    /// Changes headers after signing (to break or vary what was signed).
    pub fn tamper(mut self, change: impl FnOnce(&mut HeaderMap) + Send + 'static) -> Self {
        self.tamper = Some(Box::new(change));
        self
    }

    /// Sends other body bytes than the ones signed.
    pub fn with_body_after_signing(mut self, body: &[u8]) -> Self {
        self.body_after_signing = Some(body.to_vec());
        self
    }

    pub async fn send(self) -> TestResponse {
        self.try_send()
            .await
            .expect("the request reaches the server and is answered")
    }

    /// [`TestRequest::send`] for a request whose connection may break (a fault plan's reset).
    pub async fn try_send(self) -> Result<TestResponse, reqwest::Error> {
        let mut headers = self.headers;
        if let Some(credentials) = &self.credentials {
            let at = self.at.unwrap_or_else(|| self.app.state.clock.now());
            credentials.sign(
                self.method.as_str(),
                &self.path,
                &mut headers,
                &self.body,
                at,
                &self.options,
            );
        }
        if let Some(change) = self.tamper {
            change(&mut headers);
        }
        let method = self.method.clone();
        let sent = self
            .body_after_signing
            .clone()
            .unwrap_or_else(|| self.body.clone());
        let response = self
            .app
            .client
            .request(self.method, format!("{}{}", self.app.base, self.path))
            .headers(headers)
            .body(self.body_after_signing.unwrap_or(self.body))
            .send()
            .await?;
        let response = TestResponse::try_read(response).await?;
        response.check_documented(method.as_str(), &self.path);
        crate::openapi_check::check_accepted_request(
            method.as_str(),
            &self.path,
            response.status,
            &sent,
        );
        Ok(response)
    }
}

pub struct TestResponse {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    pub bytes: Vec<u8>,
}

impl TestResponse {
    /// Reads an answer whole; a body that is not JSON is `Null` in `body` (its bytes stay in `bytes`).
    pub async fn read(response: reqwest::Response) -> TestResponse {
        Self::try_read(response).await.unwrap()
    }

    /// [`TestResponse::read`], the body's failure returned.
    pub async fn try_read(response: reqwest::Response) -> Result<TestResponse, reqwest::Error> {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await?.to_vec();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(TestResponse {
            status,
            headers,
            body,
            bytes,
        })
    }

    /// Checks the answer against the OpenAPI document (every answer the helpers read goes through this).
    pub fn check_documented(&self, method: &str, path: &str) {
        let content_type = self
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok());
        let encoded = self.headers.contains_key("content-encoding");
        crate::openapi_check::check_encoded(
            method,
            path,
            self.status,
            content_type,
            &self.bytes,
            encoded,
        );
    }

    /// The first tppMessage's code.
    pub fn code(&self) -> &str {
        self.body["tppMessages"][0]["code"]
            .as_str()
            .unwrap_or("(no code)")
    }

    pub fn path(&self) -> &str {
        self.body["tppMessages"][0]["path"]
            .as_str()
            .unwrap_or("(no path)")
    }

    pub fn text(&self) -> String {
        self.body["tppMessages"]
            .as_array()
            .map(|m| {
                m.iter()
                    .filter_map(|m| m["text"].as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .unwrap_or_default()
    }

    /// Asserts status, code and (when given) path, showing the body when they differ.
    #[track_caller]
    pub fn assert_refused(&self, status: u16, code: &str, path: Option<&str>) {
        assert_eq!(
            (self.status, self.code()),
            (status, code),
            "body: {}",
            serde_json::to_string_pretty(&self.body).unwrap()
        );
        if let Some(path) = path {
            assert_eq!(self.path(), path, "body: {}", self.body);
        }
    }

    /// Warnings, from tppMessages or Sandbox-Warning headers.
    pub fn warnings(&self) -> Vec<String> {
        let mut out: Vec<String> = self.body["tppMessages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["category"] == "WARNING")
            .map(|m| m["text"].as_str().unwrap_or_default().to_owned())
            .collect();
        out.extend(
            self.headers
                .get_all("sandbox-warning")
                .iter()
                .map(|v| v.to_str().unwrap().to_owned()),
        );
        out
    }

    #[track_caller]
    pub fn assert_ok(&self) {
        assert!(
            (200..300).contains(&self.status),
            "expected success, got {}: {}",
            self.status,
            serde_json::to_string_pretty(&self.body).unwrap()
        );
    }
}

/// Where the account information tests send the PSU back to.
pub const AIS_REDIRECT: &str = "https://tpp.example/callback";

/// What a TPP keeps between calls for one PSU (account information journeys): its session id, the
/// psu-id and psu-corporate-id from the SCA redirect, whether the PSU is present, and which fixture
/// certificate it signs with (None: the default aisp-pisp).
#[derive(Clone, Default)]
pub struct TppState {
    pub session: String,
    pub psu_id: Option<String>,
    pub corporate_id: Option<String>,
    pub present: bool,
    pub certificate: Option<&'static str>,
}

impl TppState {
    pub fn new(session: &str) -> Self {
        TppState {
            session: session.into(),
            present: true,
            ..Default::default()
        }
    }

    /// The same TPP state, signing with another fixture certificate.
    pub fn signing_as(mut self, certificate: &'static str) -> Self {
        self.certificate = Some(certificate);
        self
    }

    fn with_headers<'a>(&self, mut request: TestRequest<'a>) -> TestRequest<'a> {
        request = request
            .header("TPP-Session-ID", &self.session)
            .header("TPP-Redirect-URI", AIS_REDIRECT);
        if let Some(certificate) = self.certificate {
            request = request.signed_by(certificate);
        }
        if self.present {
            request = request.header("PSU-IP-Address", "192.0.2.10");
        }
        if let Some(psu_id) = &self.psu_id {
            request = request.header("PSU-ID", psu_id);
        }
        if let Some(corporate_id) = &self.corporate_id {
            request = request.header("PSU-Corporate-ID", corporate_id);
        }
        request
    }

    pub fn get<'a>(&self, app: &'a TestApp, path: &str) -> TestRequest<'a> {
        self.with_headers(app.get(path))
    }

    pub fn post<'a>(&self, app: &'a TestApp, path: &str, body: &Value) -> TestRequest<'a> {
        self.with_headers(app.post(path, body))
    }
}

/// The scaRedirect of a 401, asserting its shape.
#[track_caller]
pub fn sca_redirect(response: &TestResponse) -> String {
    assert_eq!(response.status, 401, "{}", response.body);
    let link = &response.body["_links"]["scaRedirect"];
    assert_eq!(
        link["verbs"],
        serde_json::json!(["GET"]),
        "{}",
        response.body
    );
    link["href"].as_str().expect("scaRedirect href").to_owned()
}

/// The authorisation id at the end of a scaRedirect.
pub fn authorisation_id(href: &str) -> &str {
    href.rsplit('/').next().unwrap()
}

/// Completes the SCA behind a scaRedirect through POST /v1/sandbox/sca/{id}, as the default TPP.
pub async fn complete_sca(app: &TestApp, href: &str, body: Value) -> Value {
    complete_sca_as(app, None, href, body).await
}

/// Completes the SCA behind a scaRedirect as the TPP with this fixture certificate (the one that
/// started it; to any other TPP it does not exist).
pub async fn complete_sca_as(
    app: &TestApp,
    certificate: Option<&'static str>,
    href: &str,
    body: Value,
) -> Value {
    let mut request = app.post(
        &format!("/v1/sandbox/sca/{}", authorisation_id(href)),
        &body,
    );
    if let Some(certificate) = certificate {
        request = request.signed_by(certificate);
    }
    let response = request.send().await;
    response.assert_ok();
    response.body
}

/// A call to the workbench API (`/workbench/api{path}`) with the operator credential and a JSON body as
/// bytes, exactly as given (refused files are sent as they are); the answer's status and its JSON (or its
/// text as a JSON string).
pub async fn workbench_api_raw(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Vec<u8>>,
) -> (reqwest::StatusCode, Value) {
    let method_name = method.clone();
    let sent = body.clone().unwrap_or_default();
    let mut request = app
        .client
        .request(method, format!("{}/workbench/api{path}", app.base))
        .bearer_auth(app.app.operator_token());
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let text = response.text().await.unwrap();
    crate::openapi_check::check(
        method_name.as_str(),
        &format!("/workbench/api{path}"),
        status.as_u16(),
        content_type.as_deref(),
        text.as_bytes(),
    );
    crate::openapi_check::check_accepted_request(
        method_name.as_str(),
        &format!("/workbench/api{path}"),
        status.as_u16(),
        &sent,
    );
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// [`workbench_api_raw`] with a JSON value for the body.
pub async fn workbench_api(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (reqwest::StatusCode, Value) {
    let body = body.map(|b| serde_json::to_vec(&b).expect("JSON serialises"));
    workbench_api_raw(app, method, path, body).await
}

/// Builds the app on a data directory another app of this process has just closed: the closed one's
/// threads and tasks let go of the directory shortly after (a stopped server's scheduler ends when next
/// polled), so a build that finds it still locked is tried again. Waits for the release, however long it
/// takes, rather than for a set time; any other error fails at once.
pub async fn build_when_free(config: impl Fn() -> AppConfig) -> App {
    loop {
        match App::build(config()) {
            Ok(app) => return app,
            // A pause between tries so as not to spin; it bounds nothing.
            Err(error)
                if error.contains("holds the data directory")
                    || error.contains("already running") =>
            {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await
            }
            Err(error) => panic!("the service does not build: {error}"),
        }
    }
}
