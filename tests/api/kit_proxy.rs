//! A twin of the bank platform's TPP signing proxy (the developer kit's Node/Koa proxy, which cannot be
//! vendored or reached from CI), written from the facts in `platform-kit/README.md`: it signs the headers
//! `date digest x-request-id psu-id psu-corporate-id tpp-redirect-uri` that the request carries, in that
//! order, without `(request-target)`; adds Digest (SHA-256) only when there is a body; drops
//! accept-encoding and sets its own Host; sends the certificate as the PEM's base64 without armour; and
//! builds keyId as `SN=<upper-case hex, no leading zeros>,CA=` + the issuer's CN, O, OU, L, S, C (in that
//! order, others dropped) with the values as they are — non-ASCII letters sent as raw ISO-8859-1 bytes,
//! the way Node writes a header string, without any RFC 2047 wrapper.

use crate::helpers::TestApp;
use axum::http::{HeaderName, HeaderValue};
use base64::Engine;
use xs2a_core::signing::distinguished_name::{AttributeKind, DistinguishedName};
use xs2a_core::signing::signer::SigningCredentials;
use xs2a_core::signing::steps::SIGNING_CANDIDATES;
use xs2a_core::signing::{digest, http_date};

/// The headers the proxy signs when present, in its order, as the kit's own source states them:
/// `httpMessageSigner.options.headers.berlinGroup` in `src/configuration.js` of github:evryfs/psd2-developer
/// at commit 35cc6d7a4990134af42541e895ca975f3bfb6ae3 (the file last changed in c9e76bfc, 2019-11-28); its
/// `src/middleware/httpMessageSigner.js` signs, in this order, those the request carries. Written here as
/// a literal, not read from the sandbox, so that a change to the sandbox's list cannot move the twin.
const SIGNED: [&str; 6] = [
    "date",
    "digest",
    "x-request-id",
    "psu-id",
    "psu-corporate-id",
    "tpp-redirect-uri",
];

/// The proxy's keyId issuer: CN, O, OU, L, S, C of the certificate's issuer, values as they are.
pub fn proxy_issuer(cert_pem: &str) -> String {
    let der = xs2a_core::signing::signer::pem_to_der(cert_pem).unwrap();
    let (_, cert) = x509_parser::parse_x509_certificate(&der).unwrap();
    let issuer = DistinguishedName::from_x509(cert.issuer());
    [
        ("CN", AttributeKind::CN),
        ("O", AttributeKind::O),
        ("OU", AttributeKind::OU),
        ("L", AttributeKind::L),
        ("S", AttributeKind::ST),
        ("C", AttributeKind::C),
    ]
    .iter()
    .filter_map(|(label, kind)| issuer.first(kind).map(|v| format!("{label}={v}")))
    .collect::<Vec<_>>()
    .join(",")
}

/// The serial as the proxy formats it: upper-case hex without leading zeros.
fn proxy_serial(cert_pem: &str) -> String {
    let der = xs2a_core::signing::signer::pem_to_der(cert_pem).unwrap();
    let (_, cert) = x509_parser::parse_x509_certificate(&der).unwrap();
    let hex: String = cert
        .raw_serial()
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    hex.trim_start_matches('0').to_owned()
}

/// ISO-8859-1 bytes of a text whose characters are all below U+0100 (as Node sends header strings).
fn latin1(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).expect("an ISO-8859-1 character"))
        .collect()
}

/// A request as the proxy forwards it: the headers (name, raw value bytes) and the body.
pub struct Forwarded {
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

/// Signs a request the way the proxy does. `headers` are the client's (the kit's scripts' `--header`s).
pub fn sign(
    app: &TestApp,
    cert_pem: &str,
    key_pem: &str,
    headers: &[(String, String)],
    body: &str,
) -> Forwarded {
    let credentials = SigningCredentials::from_pem(cert_pem, key_pem).unwrap();
    let mut out: Vec<(String, Vec<u8>)> = headers
        .iter()
        .filter(|(name, _)| {
            !name.eq_ignore_ascii_case("accept-encoding") && !name.eq_ignore_ascii_case("host")
        })
        .map(|(name, value)| (name.to_ascii_lowercase(), value.as_bytes().to_vec()))
        .collect();
    let value_of = |out: &[(String, Vec<u8>)], name: &str| {
        out.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| String::from_utf8(v.clone()).unwrap())
    };
    if value_of(&out, "date").is_none() {
        let date = http_date::format(app.state.clock.now());
        out.push(("date".into(), date.into_bytes()));
    }
    if !body.is_empty() {
        out.push((
            "digest".into(),
            digest::sha256(body.as_bytes()).into_bytes(),
        ));
    }
    let names: Vec<&str> = SIGNED
        .into_iter()
        .filter(|name| value_of(&out, name).is_some())
        .collect();
    let signing_string = names
        .iter()
        .map(|name| format!("{name}: {}", value_of(&out, name).unwrap()))
        .collect::<Vec<_>>()
        .join("\n");
    let signature = base64::engine::general_purpose::STANDARD
        .encode(credentials.sign_bytes(signing_string.as_bytes()));
    let key_id = format!(
        "SN={},CA={}",
        proxy_serial(cert_pem),
        proxy_issuer(cert_pem)
    );
    let header = format!(
        "keyId=\"{key_id}\",algorithm=\"rsa-sha256\",headers=\"{}\",signature=\"{signature}\"",
        names.join(" ")
    );
    let bare_certificate: String = cert_pem
        .replace("-----BEGIN CERTIFICATE-----", "")
        .replace("-----END CERTIFICATE-----", "")
        .chars()
        .filter(|c| *c != '\n' && *c != '\r')
        .collect();
    out.push((
        "tpp-signature-certificate".into(),
        bare_certificate.into_bytes(),
    ));
    out.push(("signature".into(), latin1(&header)));
    Forwarded {
        headers: out,
        body: body.as_bytes().to_vec(),
    }
}

/// Sends a forwarded request to the app; returns status, headers and body.
pub async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    forwarded: Forwarded,
) -> crate::helpers::TestResponse {
    let mut request = app
        .client
        .request(method.parse().unwrap(), format!("{}{}", app.base, path));
    for (name, value) in &forwarded.headers {
        request = request.header(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_bytes(value).unwrap(),
        );
    }
    let response = request
        .body(forwarded.body)
        .send()
        .await
        .expect("the request reaches the server");
    crate::helpers::TestResponse::read(response).await
}

/// The kit's list and the sandbox's candidates (docs/interface.md#signing-every-request) are the same today. If they
/// part, the gate asks for headers the platform's own proxy does not sign (a request through the kit is refused
/// for an unsigned candidate) or the proxy signs headers the gate does not expect; either way the
/// sandbox no longer behaves like the platform for the kit's users, and the change must be deliberate.
#[test]
fn the_kits_signed_headers_are_the_sandboxs_candidates() {
    assert_eq!(
        SIGNED, SIGNING_CANDIDATES,
        "the developer kit's proxy signs {SIGNED:?} but the sandbox's candidates are \
         {SIGNING_CANDIDATES:?}: requests through the kit would no longer meet the gate as they do \
         on the platform"
    );
}
