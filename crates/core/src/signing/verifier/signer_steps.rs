//! The steps that read the Signature header: its parts, the keyId naming the certificate (serial and
//! issuer, tolerating what real clients write with a warning) and the algorithm matching the key.

use super::run::Run;
use crate::domain::refusal::{Code, Refusal};
use crate::domain::tolerance::Tolerance;
use crate::signing::certificate::TppCertificate;
use crate::signing::key_id::issuer::{compare_issuer, IssuerMatch};
use crate::signing::key_id::parse_key_id;
use crate::signing::key_id::serial::{compare_serial, SerialMatch};
use crate::signing::signature_header::{self, SignatureParams};
use crate::signing::steps::Step;

/// The Signature header's four parts, in any order, RFC 2047-wrapped or not.
pub(super) fn signature_header(value: &str, run: &mut Run) -> Result<SignatureParams, Refusal> {
    let params =
        signature_header::parse(value).map_err(|reason| Refusal::format("Signature", reason))?;
    run.pass(Step::SignatureHeader, || {
        format!(
            "keyId, algorithm, headers and signature present{}",
            if params.was_wrapped {
                " (RFC 2047 wrapped)"
            } else {
                ""
            }
        )
    });
    Ok(params)
}

/// keyId names the certificate: its serial and its issuer.
pub(super) fn key_id(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    check_key_id(params, tpp, run)?;
    run.pass(Step::KeyId, || "serial and issuer match the certificate");
    Ok(())
}

/// algorithm names the certificate's, rsa-sha256 (other names for it tolerated with a warning).
pub(super) fn algorithm(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    check_algorithm(params, tpp, run)?;
    run.pass(Step::Algorithm, || params.algorithm.clone());
    Ok(())
}

fn check_key_id(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    let key_id = parse_key_id(&params.key_id).map_err(|r| Refusal::format("Signature", r))?;
    // What well-behaved clients send is compared with the texts the certificate's entry holds, written
    // once; only a keyId that differs is read closely.
    let serial = if key_id.serial == tpp.serial_hex {
        SerialMatch::Exact
    } else {
        compare_serial(key_id.serial, &tpp.serial)
    };
    match serial {
        SerialMatch::Exact => {}
        SerialMatch::Tolerated(notes) => notes
            .into_iter()
            .for_each(|n| run.tolerate(Tolerance::KeyIdSerialSpelling, "Signature", n)),
        SerialMatch::Mismatch(reason) => {
            return Err(Refusal::new(
                Code::BadRequest,
                Some("Signature"),
                format!("keyId SN does not name the certificate: {reason}"),
            ))
        }
    }
    let issuer = if key_id.issuer == tpp.issuer_rfc2253 {
        IssuerMatch::Exact
    } else {
        compare_issuer(key_id.issuer, &tpp.issuer)
    };
    match issuer {
        IssuerMatch::Exact => Ok(()),
        IssuerMatch::Tolerated(notes) => {
            notes
                .into_iter()
                .for_each(|n| run.tolerate(Tolerance::KeyIdIssuerSpelling, "Signature", n));
            Ok(())
        }
        IssuerMatch::Mismatch(reason) => Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            format!("keyId CA does not name the certificate's issuer: {reason}"),
        )),
    }
}

fn check_algorithm(
    params: &SignatureParams,
    tpp: &TppCertificate,
    run: &mut Run,
) -> Result<(), Refusal> {
    if tpp.rsa_public_key.is_none() {
        return Err(Refusal::new(
            Code::BadRequest,
            Some("TPP-Signature-Certificate"),
            format!(
                "The certificate's key is {}; this sandbox verifies RSA keys (rsa-sha256) only.",
                tpp.key_algorithm
            ),
        ));
    }
    match params.algorithm.to_ascii_lowercase().as_str() {
        "rsa-sha256" => {
            if params.algorithm != "rsa-sha256" {
                run.tolerate(
                    Tolerance::AlgorithmName,
                    "Signature",
                    format!(
                        "algorithm '{}' should be written 'rsa-sha256'.",
                        params.algorithm
                    ),
                );
            }
            Ok(())
        }
        // Other names of RSA with SHA-256: Berlin Group's hash name (`SHA-256`), Java's, and hs2019 (whose
        // algorithm the key decides). One rule for all of them: the tolerance (docs/rehearsal.md).
        "hs2019" | "sha256withrsa" | "sha-256" => {
            run.tolerate(
                Tolerance::AlgorithmName,
                "Signature",
                format!("algorithm '{}' was read as rsa-sha256 for this RSA certificate; the interface asks for 'rsa-sha256' and production may refuse other names.", params.algorithm),
            );
            Ok(())
        }
        "sha-512" | "rsa-sha512" | "sha512withrsa" => Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            format!(
                "algorithm '{}' names SHA-512; the bank verifies RSA with SHA-256 only: sign with rsa-sha256.",
                params.algorithm
            ),
        )),
        _ => Err(Refusal::new(
            Code::BadRequest,
            Some("Signature"),
            format!(
                "algorithm '{}' is not the certificate's algorithm; use rsa-sha256.",
                params.algorithm
            ),
        )),
    }
}
