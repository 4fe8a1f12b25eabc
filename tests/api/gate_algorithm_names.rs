//! One rule for every other name of RSA with SHA-256 (issue 32): `sha-256` (Berlin Group's hash name),
//! `SHA256withRSA`, `hs2019` and `RSA-SHA256` are each the `algorithm-name` tolerance — accepted with a
//! WARNING under the sandbox profile, refused with 400 under production — and SHA-512 is refused in both.

use crate::helpers::{spawn_app, spawn_app_with, test_config, TestApp};
use xs2a_core::bank::rehearsal::Profile;

const CUSTOMERS: &str = "/v1/sandbox/customers";
const OTHER_NAMES: [&str; 5] = [
    "sha-256",
    "SHA-256",
    "SHA256withRSA",
    "hs2019",
    "RSA-SHA256",
];

async fn named(app: &TestApp, algorithm: &'static str) -> crate::helpers::TestResponse {
    app.get(CUSTOMERS)
        .tamper(move |headers| {
            let signature = headers["signature"].to_str().unwrap().to_owned();
            let renamed = signature.replace(
                "algorithm=\"rsa-sha256\"",
                &format!("algorithm=\"{algorithm}\""),
            );
            assert_ne!(signature, renamed);
            headers.insert("signature", renamed.parse().unwrap());
        })
        .send()
        .await
}

#[tokio::test]
async fn every_other_name_of_rsa_sha256_is_a_warning_under_the_sandbox_profile() {
    let app = spawn_app().await;
    for algorithm in OTHER_NAMES {
        let response = named(&app, algorithm).await;
        assert_eq!(response.status, 200, "{algorithm}: {}", response.body);
        let warnings = response.warnings();
        assert!(
            warnings
                .iter()
                .any(|w| w.contains(&format!("algorithm '{algorithm}'"))),
            "{algorithm}: {warnings:?}"
        );
    }
}

#[tokio::test]
async fn every_other_name_is_refused_under_the_production_profile() {
    let mut config = test_config();
    config.profile = Some(Profile::Production);
    let app = spawn_app_with(config).await;
    for algorithm in OTHER_NAMES {
        let response = named(&app, algorithm).await;
        assert_eq!(response.status, 400, "{algorithm}: {}", response.body);
        assert!(
            response.text().contains("algorithm-name"),
            "{algorithm}: {}",
            response.body
        );
    }
}

#[tokio::test]
async fn sha_512_is_refused_at_the_algorithm_step_in_both_profiles() {
    for app in [spawn_app().await, {
        let mut config = test_config();
        config.profile = Some(Profile::Production);
        spawn_app_with(config).await
    }] {
        let response = named(&app, "rsa-sha512").await;
        response.assert_refused(400, "BAD_REQUEST", Some("Signature"));
        assert!(
            response.text().contains("step 'algorithm'"),
            "{}",
            response.body
        );
        assert!(response.text().contains("SHA-512"), "{}", response.body);
    }
}
