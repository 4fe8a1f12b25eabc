//! Each tolerance of the sandbox (docs/rehearsal.md): accepted with a WARNING under the sandbox profile,
//! refused as production refuses it under the production profile, the text saying the sandbox profile
//! accepts it. And docs/rehearsal.md's table of tolerances is the one the code makes.

use crate::helpers::{spawn_app_with, test_config, tpp, TestApp, TestRequest, TestResponse};
use crate::kit_proxy;
use axum::http::HeaderValue;
use xs2a_core::bank::rehearsal::{Profile, Tolerance};
use xs2a_core::signing::issue::{tpp_request_defaults, CertificateAuthority};
use xs2a_core::signing::qc_statements::Psd2Role;
use xs2a_core::signing::signer::SignOptions;
use xs2a_core::signing::subject::parse_subject;

const CUSTOMERS: &str = "/v1/sandbox/customers";

fn key_id_parts() -> (String, String) {
    let credentials = tpp("aisp-pisp");
    let (sn, ca) = credentials
        .key_id()
        .strip_prefix("SN=")
        .unwrap()
        .split_once(",CA=")
        .unwrap();
    (sn.to_owned(), ca.to_owned())
}

/// Rewrites part of the Signature header after signing (parts the signature does not cover).
fn rewrite_signature<'a>(
    request: TestRequest<'a>,
    from: &'static str,
    to: &'static str,
) -> TestRequest<'a> {
    request.tamper(move |h| {
        let signature = h["signature"].to_str().unwrap().to_owned();
        assert!(signature.contains(from), "{signature}");
        h.insert(
            "signature",
            HeaderValue::from_str(&signature.replace(from, to)).unwrap(),
        );
    })
}

/// Sends the request that leans on `tolerance` (all but raw bytes, which [`raw_bytes`] sends).
async fn lean_on(app: &TestApp, tolerance: Tolerance) -> TestResponse {
    let (sn, ca) = key_id_parts();
    let request = app.get(CUSTOMERS);
    let request = match tolerance {
        Tolerance::KeyIdIssuerSpelling => request.options(SignOptions {
            key_id: Some(format!(
                "SN={sn},CA=C=NO, O=xs2a-sandbox, CN=xs2a-sandbox Test CA"
            )),
            ..Default::default()
        }),
        Tolerance::KeyIdSerialSpelling => request.options(SignOptions {
            key_id: Some(format!("SN=00{},CA={ca}", sn.to_lowercase())),
            ..Default::default()
        }),
        Tolerance::PemArmouredCertificate => request.tamper(|h| {
            let der = h["tpp-signature-certificate"].to_str().unwrap().to_owned();
            let pem = format!("-----BEGIN CERTIFICATE-----{der}-----END CERTIFICATE-----");
            h.insert(
                "tpp-signature-certificate",
                HeaderValue::from_str(&pem).unwrap(),
            );
        }),
        Tolerance::AlgorithmName => {
            rewrite_signature(request, "algorithm=\"rsa-sha256\"", "algorithm=\"hs2019\"")
        }
        Tolerance::SignedHeaderNameCase => {
            rewrite_signature(request, "(request-target) date", "(request-target) Date")
        }
        Tolerance::UnsignedOptionalHeader => request
            .options(SignOptions {
                signed_headers: Some(vec!["date".into(), "x-request-id".into()]),
                ..Default::default()
            })
            .header("PSU-ID", "3f1b8a48-5d5e-4a7c-9a4f-2d9c6c1e0b11"),
        // Berlin Group's signing allows no entries beyond the candidates; a client library signing
        // Accept (as one found from outside did) leans on this.
        Tolerance::SignedHeaderBeyondCandidates => request
            .options(SignOptions {
                signed_headers: Some(
                    ["(request-target)", "date", "x-request-id", "accept"]
                        .map(String::from)
                        .to_vec(),
                ),
                ..Default::default()
            })
            .header("Accept", "application/json"),
        Tolerance::RawSignatureBytes => return raw_bytes(app).await,
        // A mock-data shortcut: an account whose BBAN's check digit is wrong.
        Tolerance::MockDataApi => {
            return app
                .post(
                    "/v1/sandbox/accounts",
                    &serde_json::json!({
                        "customerNumber": crate::pis_support::KARI,
                        "bban": "12051503006",
                        "currency": "NOK"
                    }),
                )
                .send()
                .await
        }
    };
    request.send().await
}

/// A CA whose issuer has a non-ASCII letter, signed through the platform kit's proxy, which sends the
/// Signature as raw ISO-8859-1 bytes. The app must trust the CA ([`app_trusting_tromso`]).
async fn raw_bytes(app: &TestApp) -> TestResponse {
    let (_, tpp) = tromso();
    let headers = vec![
        ("accept".to_owned(), "application/json".to_owned()),
        ("x-request-id".to_owned(), uuid::Uuid::new_v4().to_string()),
    ];
    let forwarded = kit_proxy::sign(app, &tpp.0, &tpp.1, &headers, "");
    kit_proxy::send(app, "GET", CUSTOMERS, forwarded).await
}

/// The Tromsø CA and a TPP it issued (certificate and key PEM), made once per test run.
fn tromso() -> &'static (String, (String, String)) {
    static MADE: std::sync::OnceLock<(String, (String, String))> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let now = time::OffsetDateTime::now_utc();
        let ca = CertificateAuthority::generate_with_subject(
            parse_subject("CN=Testbank Issuing CA,O=Testbank ASA,L=Tromsø,C=NO").unwrap(),
            now - time::Duration::days(400),
            now + time::Duration::days(400),
        )
        .unwrap();
        let mut request =
            tpp_request_defaults("Kit TPP", vec![Psd2Role::PspAi, Psd2Role::PspPi], now);
        request.not_before = ca.not_before;
        let issued = ca.issue_tpp(&request).unwrap();
        (ca.cert_pem.clone(), (issued.cert_pem, issued.key_pem))
    })
}

async fn app_trusting_tromso(profile: Profile) -> TestApp {
    let mut config = test_config();
    config.profile = Some(profile);
    config.trust_ca_pems = vec![tromso().0.clone()];
    spawn_app_with(config).await
}

#[tokio::test]
async fn every_tolerance_is_a_warning_under_the_sandbox_profile() {
    let app = app_trusting_tromso(Profile::Sandbox).await;
    for tolerance in Tolerance::ALL {
        let response = lean_on(&app, tolerance).await;
        response.assert_ok();
        assert!(
            !response.warnings().is_empty(),
            "{}: no WARNING",
            tolerance.id()
        );
    }
}

#[tokio::test]
async fn every_tolerance_is_refused_under_the_production_profile() {
    let app = app_trusting_tromso(Profile::Production).await;
    for tolerance in Tolerance::ALL {
        let response = lean_on(&app, tolerance).await;
        let code = tolerance.refusal_code();
        let status = xs2a_http::api::error::status_of(code).as_u16();
        assert_eq!(
            response.status,
            status,
            "{}: {}",
            tolerance.id(),
            response.text()
        );
        assert_eq!(response.code(), code.as_str(), "{}", tolerance.id());
        let text = response.text();
        assert!(
            text.contains(tolerance.id()) && text.contains("The sandbox profile accepts it."),
            "{}: {text}",
            tolerance.id()
        );
    }
}

#[test]
fn the_docs_table_of_tolerances_is_the_codes() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rehearsal.md")).unwrap();
    let table = xs2a_http::api::rehearsal::tolerance_table();
    assert!(
        docs.contains(&table),
        "docs/rehearsal.md must hold the table of tolerances as the code makes it:\n{table}"
    );
}

#[tokio::test]
async fn a_signed_header_beyond_the_candidates_is_named_in_its_warning() {
    let app = app_trusting_tromso(Profile::Sandbox).await;
    let response = app
        .get(CUSTOMERS)
        .options(SignOptions {
            signed_headers: Some(
                ["(request-target)", "date", "x-request-id", "psu-ip-address"]
                    .map(String::from)
                    .to_vec(),
            ),
            ..Default::default()
        })
        .header("PSU-IP-Address", "192.0.2.10")
        .send()
        .await;
    response.assert_ok();
    let warnings = response.warnings();
    assert!(
        warnings.iter().any(|w| w.contains("psu-ip-address")
            && w.contains("outside the headers the interface names for signing")),
        "{warnings:?}"
    );
    // Only the extra entry is named: the candidates and (request-target) are not.
    assert!(
        !warnings
            .iter()
            .any(|w| w.contains("lists (request-target)")),
        "{warnings:?}"
    );
}
