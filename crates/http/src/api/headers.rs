//! Values of the common header set that the bank types (docs/reference/errors.md): UUIDs, enumerations, booleans, IP
//! addresses. Each wrong value is a 400 FORMAT_ERROR naming the header.

use crate::api::error::ApiError;
use axum::http::HeaderMap;

const UUID_HEADERS: [&str; 2] = ["PSU-ID", "PSU-Device-ID"];
const PSU_HTTP_METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const PSU_CONTEXTS: [&str; 2] = ["PRIVATE", "CORPORATE"];

/// What a developer who sent a national identity number (11 digits) as PSU-ID needs to read next: where
/// the bank's PSU-ID comes from, and the header that does carry a national identity number.
fn hint_for_uuid_header(name: &str, value: &str) -> &'static str {
    let national_id = value.len() == 11 && value.bytes().all(|b| b.is_ascii_digit());
    if name == "PSU-ID" && national_id {
        ". This looks like a national identity number: the bank's PSU-ID is the psu-id UUID the redirect \
         that ends SCA returns (GET /v1/users starts one); to name the PSU by national identity number, \
         send it as X-PSU-IDENTITY."
    } else {
        ""
    }
}

/// A header's text value, trimmed, if present, readable and not empty. An unreadable value reads as absent
/// here: the gate refused the typed headers' already ([`validate_typed_headers`]).
pub fn text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// [`text`], owned.
pub fn owned(headers: &HeaderMap, name: &str) -> Option<String> {
    text(headers, name).map(str::to_owned)
}

/// Checks every typed header the request carries.
pub fn validate_typed_headers(headers: &HeaderMap) -> Result<(), ApiError> {
    let text = |name: &str| -> Result<Option<&str>, ApiError> {
        headers
            .get(name)
            .map(|v| {
                v.to_str()
                    .map_err(|_| ApiError::format(name, format!("{name} must be visible ASCII")))
            })
            .transpose()
    };
    for name in UUID_HEADERS {
        if let Some(value) = text(name)? {
            if uuid::Uuid::try_parse(value.trim()).is_err() {
                return Err(ApiError::format(
                    name,
                    format!(
                        "{name} must be a UUID (RFC 4122); got '{value}'{}",
                        hint_for_uuid_header(name, value.trim())
                    ),
                ));
            }
        }
    }
    one_of(
        text("PSU-HTTP-Method")?,
        "PSU-HTTP-Method",
        &PSU_HTTP_METHODS,
    )?;
    one_of(text("PSU-Context")?, "PSU-Context", &PSU_CONTEXTS)?;
    one_of(
        text("TPP-Redirect-Preferred")?,
        "TPP-Redirect-Preferred",
        &["true", "false"],
    )?;
    if let Some(value) = text("PSU-IP-Address")? {
        if value.trim().parse::<std::net::IpAddr>().is_err() {
            return Err(ApiError::format(
                "PSU-IP-Address",
                format!("PSU-IP-Address must be an IPv4 or IPv6 address; got '{value}'"),
            ));
        }
    }
    if let Some(value) = text("PSU-IP-Port")? {
        if value.trim().parse::<u16>().is_err() {
            return Err(ApiError::format(
                "PSU-IP-Port",
                format!("PSU-IP-Port must be a port number; got '{value}'"),
            ));
        }
    }
    if let Some(value) = text("TPP-Redirect-URI")? {
        let ok =
            value.starts_with("https://") || value.starts_with("http://") || value.contains("://");
        if !ok {
            return Err(ApiError::format(
                "TPP-Redirect-URI",
                format!("TPP-Redirect-URI must be an absolute URI; got '{value}'"),
            ));
        }
    }
    Ok(())
}

fn one_of(value: Option<&str>, name: &str, allowed: &[&str]) -> Result<(), ApiError> {
    match value {
        Some(v) if !allowed.contains(&v.trim()) => Err(ApiError::format(
            name,
            format!("{name} must be one of {}; got '{v}'", allowed.join(", ")),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: &'static str, value: &'static str) -> HeaderMap {
        let mut map = HeaderMap::new();
        map.insert(name, value.parse().unwrap());
        map
    }

    #[test]
    fn each_typed_header_is_checked() {
        for (name, bad, good) in [
            ("psu-id", "12345", "3f1b8a48-5d5e-4a7c-9a4f-2d9c6c1e0b11"),
            (
                "psu-device-id",
                "phone",
                "3f1b8a48-5d5e-4a7c-9a4f-2d9c6c1e0b11",
            ),
            ("psu-http-method", "FETCH", "GET"),
            ("psu-context", "private", "PRIVATE"),
            ("tpp-redirect-preferred", "no", "false"),
            ("psu-ip-address", "localhost", "192.0.2.10"),
            ("psu-ip-port", "http", "443"),
            ("tpp-redirect-uri", "/back", "https://tpp.example/cb"),
        ] {
            let error = validate_typed_headers(&with(name, bad)).unwrap_err();
            assert_eq!(
                error
                    .refusal
                    .path
                    .as_deref()
                    .map(str::to_ascii_lowercase)
                    .as_deref(),
                Some(name)
            );
            assert!(
                validate_typed_headers(&with(name, good)).is_ok(),
                "{name}: {good}"
            );
        }
    }
}
