//! Transport and content negotiation: HTTPS with TLS 1.2/1.3, gzip on request, Content-Language, and
//! response bodies signed by the bank when that setting is on.

use crate::helpers::{fixture_dir, spawn_app, spawn_app_with, test_config, tpp};
use axum::http::HeaderMap;
use base64::Engine;
use xs2a_http::app::AppConfig;

#[tokio::test]
async fn gzip_is_used_when_the_client_asks_for_it() {
    let app = spawn_app().await;
    let response = app
        .get("/v1/sandbox/customers")
        .header("Accept-Encoding", "gzip")
        .send()
        .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.headers["content-encoding"], "gzip");
    let plain = app.get("/v1/sandbox/customers").send().await;
    assert!(plain.headers.get("content-encoding").is_none());
}

#[tokio::test]
async fn content_language_answers_accept_language() {
    let app = spawn_app().await;
    let response = app
        .get("/v1/sandbox/customers")
        .header("Accept-Language", "nb-NO, en;q=0.8")
        .send()
        .await;
    // API messages exist in English only; the header says so truthfully.
    assert_eq!(response.headers["content-language"], "en");
    // The bank's pages speak Norwegian when asked.
    let page = app
        .client
        .get(format!("{}/sca/no-such-authorisation", app.base))
        .header("Accept-Language", "nb-NO, en;q=0.8")
        .send()
        .await
        .unwrap();
    assert_eq!(page.headers()["content-language"], "nb");
}

#[tokio::test]
async fn responses_are_signed_by_the_bank_when_enabled() {
    let app = spawn_app_with(AppConfig {
        sign_responses: true,
        ..test_config()
    })
    .await;
    let response = app
        .get("/v1/sandbox/customers")
        .header("X-Request-ID", "req-42")
        .send()
        .await;
    assert_eq!(response.status, 200);
    let headers: &HeaderMap = &response.headers;
    assert_eq!(headers["x-request-id"], "req-42");
    assert_eq!(
        headers["digest"].to_str().unwrap(),
        xs2a_core::signing::digest::sha256(&response.bytes)
    );
    let signature =
        xs2a_core::signing::signature_header::parse(headers["signature"].to_str().unwrap())
            .unwrap();
    assert_eq!(signature.headers, ["digest", "x-request-id", "date"]);
    let signing_string =
        xs2a_core::signing::signing_string::build(&signature.headers, "", "", headers).unwrap();
    let der = base64::engine::general_purpose::STANDARD
        .decode(headers["aspsp-signature-certificate"].to_str().unwrap())
        .unwrap();
    let bank = xs2a_core::signing::certificate::TppCertificate::from_der(&der).unwrap();
    let key = ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        bank.rsa_public_key.unwrap(),
    );
    key.verify(signing_string.as_bytes(), &signature.signature)
        .expect("the bank's signature verifies");
}

#[tokio::test]
async fn responses_are_unsigned_by_default() {
    let app = spawn_app().await;
    let response = app.get("/v1/sandbox/customers").send().await;
    assert!(response.headers.get("signature").is_none());
}

#[tokio::test]
async fn https_serves_the_same_api_with_tls_1_2_and_1_3_only() {
    let app = spawn_app().await;
    let config = xs2a_http::api::server::tls_config(
        xs2a_core::signing::test_credentials::SERVER_CERT_PEM,
        xs2a_core::signing::test_credentials::SERVER_KEY_PEM,
    )
    .unwrap();
    assert!(
        config.alpn_protocols.is_empty()
            || config.alpn_protocols.iter().all(|p| p.starts_with(b"h"))
    );
    let port = app.serve_tls().await;

    let ca = std::fs::read(fixture_dir("ca").join("cert.pem")).unwrap();
    for version in [
        reqwest::tls::Version::TLS_1_2,
        reqwest::tls::Version::TLS_1_3,
    ] {
        let client = reqwest::Client::builder()
            .add_root_certificate(reqwest::Certificate::from_pem(&ca).unwrap())
            .min_tls_version(version)
            .max_tls_version(version)
            .build()
            .unwrap();
        let mut headers = HeaderMap::new();
        tpp("aisp-pisp").sign(
            "GET",
            "/v1/sandbox/customers",
            &mut headers,
            b"",
            app.state.clock.now(),
            &Default::default(),
        );
        let response = client
            .get(format!("https://localhost:{port}/v1/sandbox/customers"))
            .headers(headers)
            .send()
            .await
            .expect("TLS handshake and request succeed");
        assert_eq!(response.status(), 200, "over {version:?}");
    }
    // TLS 1.1 and older are refused at the handshake.
    if let Ok(old) = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&ca).unwrap())
        .max_tls_version(reqwest::tls::Version::TLS_1_1)
        .build()
    {
        let attempt = old
            .get(format!("https://localhost:{port}/health"))
            .send()
            .await;
        assert!(attempt.is_err(), "a TLS 1.1 handshake must fail");
    }
}
