//! Splits the cost of one signed GET /v1/sandbox/customers into gate and handler, in-process.
//! Run: `cargo run --release --example profile_request_path`.

use std::time::Instant;
use xs2a_core::domain::clock::Clock;
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};
use xs2a_core::signing::trust::TrustStore;
use xs2a_core::signing::verifier::{RequestToVerify, Verifier};
use xs2a_core::store::Store;

fn per_call(name: &str, iterations: u32, mut f: impl FnMut()) {
    let started = Instant::now();
    for _ in 0..iterations {
        f();
    }
    println!(
        "{name:<40} {:>8.2} µs",
        started.elapsed().as_secs_f64() * 1e6 / iterations as f64
    );
}

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp-pisp");
    let credentials = SigningCredentials::from_dir(&dir).unwrap();
    let clock = Clock::real();
    let mut headers = axum::http::HeaderMap::new();
    credentials.sign(
        "GET",
        "/v1/sandbox/customers",
        &mut headers,
        b"",
        clock.now(),
        &SignOptions::default(),
    );
    let verifier = Verifier::new(TrustStore::with_bundled_test_ca());
    let request = RequestToVerify {
        method: "GET",
        path_and_query: "/v1/sandbox/customers",
        headers: &headers,
        body: b"",
    };
    verifier.verify(&request, &clock, true).unwrap();
    per_call("gate: verify (cached certificate)", 20_000, || {
        verifier.verify(&request, &clock, true).unwrap();
    });
    let store = Store::temporary().unwrap();
    xs2a_core::bank::mock::seed::initialize(&store, clock.now().date()).unwrap();
    gate_parts();
    per_call("handler: list customers", 20_000, || {
        let list = xs2a_core::bank::mock::customers::list(&store).unwrap();
        std::hint::black_box(serde_json::to_vec(&list).unwrap());
    });
}

#[allow(dead_code)]
fn gate_parts() {
    use xs2a_core::signing::*;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp-pisp");
    let credentials = SigningCredentials::from_dir(&dir).unwrap();
    let mut headers = axum::http::HeaderMap::new();
    credentials.sign(
        "GET",
        "/v1/sandbox/customers",
        &mut headers,
        b"",
        time::OffsetDateTime::now_utc(),
        &SignOptions::default(),
    );
    let cert_header = headers["tpp-signature-certificate"]
        .to_str()
        .unwrap()
        .to_owned();
    let signature = headers["signature"].to_str().unwrap().to_owned();
    let date = headers["date"].to_str().unwrap().to_owned();
    let decoded = certificate::decode_certificate_header(&cert_header).unwrap();
    let tpp = certificate::TppCertificate::from_der(&decoded.der).unwrap();
    let params = signature_header::parse(&signature).unwrap();
    let key_id = key_id::parse_key_id(&params.key_id).unwrap();
    per_call("  decode certificate header", 20_000, || {
        std::hint::black_box(certificate::decode_certificate_header(&cert_header).unwrap());
    });
    per_call("  sha256 of DER", 20_000, || {
        std::hint::black_box(<sha2::Sha256 as sha2::Digest>::digest(&decoded.der));
    });
    per_call("  parse Signature header", 20_000, || {
        std::hint::black_box(signature_header::parse(&signature).unwrap());
    });
    per_call("  compare serial", 20_000, || {
        std::hint::black_box(key_id::serial::compare_serial(key_id.serial, &tpp.serial));
    });
    per_call("  compare issuer", 20_000, || {
        std::hint::black_box(key_id::issuer::compare_issuer(key_id.issuer, &tpp.issuer));
    });
    per_call("  parse Date", 20_000, || {
        std::hint::black_box(http_date::parse(&date).unwrap());
    });
    per_call("  build signing string", 20_000, || {
        std::hint::black_box(
            signing_string::build(&params.headers, "GET", "/v1/sandbox/customers", &headers)
                .unwrap(),
        );
    });
}
