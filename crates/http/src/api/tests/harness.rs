//! The whole service as `serve` runs it (the router with every layer, the transport's limits) over an
//! ephemeral App whose clock is frozen, asked with `tower::ServiceExt::oneshot`: no socket, no server.
//! Every request comes from a loopback peer asking for `127.0.0.1`, as the workbench's do; a TPP's
//! request to `/v1` is signed when sent, with a bundled TPP's test credentials, as a TPP signs it.

use crate::app::{App, AppConfig, ClockStart};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode};
use axum::Router;
use serde_json::Value;
use std::net::SocketAddr;
use time::macros::datetime;
use time::OffsetDateTime;
use tower::ServiceExt;
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};
use xs2a_workbench::app_state::AppState;

/// The instant the clock is frozen at.
pub const TEST_NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

/// The service, ready to be asked.
pub struct Service {
    app: App,
    service: Router,
}

impl Service {
    /// The service as the tests' configuration builds it: a temporary store, the clock frozen at
    /// [`TEST_NOW`], loopback mode.
    pub fn start() -> Service {
        Service::start_with(AppConfig {
            clock: ClockStart::FrozenAt(TEST_NOW),
            ..AppConfig::default()
        })
    }

    /// The service built from `config`, through the same `App` as `serve`.
    pub fn start_with(config: AppConfig) -> Service {
        let (limits, reach) = (config.limits, config.workbench_reach);
        let app = App::build(config).expect("the service builds");
        let router = crate::api::router(app.state().clone()).layer(axum::Extension(reach));
        let service = crate::api::limits::apply(router, limits);
        Service { app, service }
    }

    pub fn state(&self) -> &AppState {
        self.app.state()
    }

    /// A request with nothing added (but the loopback peer and host every request has).
    pub fn bare(&self, method: Method, path: &str) -> Call<'_> {
        Call {
            service: self,
            method,
            path: path.to_owned(),
            headers: HeaderMap::new(),
            body: Vec::new(),
            signed: false,
        }
    }

    /// A request to the workbench API with the operator credential.
    pub fn workbench(&self, method: Method, path: &str) -> Call<'_> {
        let token = format!("Bearer {}", self.app.operator_token());
        self.bare(method, path).header("authorization", &token)
    }

    /// A TPP's request to the bank interface, signed when sent by the bundled TPP `aisp-pisp`.
    pub fn tpp(&self, method: Method, path: &str) -> Call<'_> {
        Call {
            signed: true,
            ..self.bare(method, path)
        }
    }
}

/// One request being put together.
pub struct Call<'s> {
    service: &'s Service,
    method: Method,
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
    signed: bool,
}

impl Call<'_> {
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.insert(
            HeaderName::from_bytes(name.as_bytes()).expect("a header name"),
            HeaderValue::from_str(value).expect("a header value"),
        );
        self
    }

    /// A JSON body, declared as such.
    pub fn json(self, body: Value) -> Self {
        self.body(body.to_string().into_bytes(), "application/json")
    }

    /// A body of any bytes, declared as `content_type`.
    pub fn body(mut self, bytes: Vec<u8>, content_type: &str) -> Self {
        self.body = bytes;
        self.header("content-type", content_type)
    }

    /// Sends it through the whole service and reads the whole answer.
    pub async fn send(mut self) -> Answer {
        if self.signed {
            let now = self.service.state().clock.now();
            credentials().sign(
                self.method.as_str(),
                &self.path,
                &mut self.headers,
                &self.body,
                now,
                &SignOptions::default(),
            );
        }
        let mut request = Request::builder()
            .method(self.method)
            .uri(&self.path)
            .header("host", "127.0.0.1:8080")
            .body(Body::from(self.body))
            .expect("a request");
        request.headers_mut().extend(self.headers);
        let peer: SocketAddr = "127.0.0.1:50000".parse().expect("an address");
        request.extensions_mut().insert(ConnectInfo(peer));
        let response = self
            .service
            .service
            .clone()
            .oneshot(request)
            .await
            .expect("the router always answers");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the whole answer");
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            json,
        }
    }
}

/// The bundled TPP with every role.
fn credentials() -> SigningCredentials {
    let (_, _, cert, key) = xs2a_core::signing::test_credentials::TPP_CERTIFICATES
        .iter()
        .find(|(dir, ..)| *dir == "aisp-pisp")
        .expect("the bundled aisp-pisp TPP");
    SigningCredentials::from_pem(cert, key).expect("the bundled credentials load")
}

/// An answer, read whole.
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    /// The body as JSON; `Null` when it is empty or not JSON.
    pub json: Value,
}

impl Answer {
    /// The status, and the first message's code and path (empty when absent).
    pub fn refusal(&self) -> (u16, &str, &str) {
        let first = &self.json["tppMessages"][0];
        (
            self.status.as_u16(),
            first["code"].as_str().unwrap_or_default(),
            first["path"].as_str().unwrap_or_default(),
        )
    }

    /// The first message's text.
    pub fn text(&self) -> &str {
        self.json["tppMessages"][0]["text"]
            .as_str()
            .unwrap_or_default()
    }

    /// A header's value as text (empty when absent).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }
}
