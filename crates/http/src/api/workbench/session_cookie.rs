//! The workbench's session kept for its own origin, so that a second tab or window opens authorised
//! (docs/reference/access.md): opening the tokenised URL (`/workbench/?token=…`) with the right token
//! sets a cookie for `/workbench` — HttpOnly (no script reads it), SameSite=Strict (no other site's page
//! sends it) — holding a value derived from the token, not the token. The API takes it in place of
//! `Authorization: Bearer` only on a request the browser marks as same-origin (`Sec-Fetch-Site:
//! same-origin`, or, from a browser that does not send that header, an Origin that is the service's
//! own): a page on another port of this machine is the same *site*, so SameSite alone would let it send
//! the cookie. Every other rule of the workbench (a loopback peer, a loopback Host, exact origins) holds
//! as before, in `access`.

use crate::api::operator::same_token;
use axum::http::header::{COOKIE, HOST, ORIGIN};
use axum::http::{HeaderMap, HeaderValue};

/// The cookie's name: one per port, as cookies do not tell ports apart and two sandboxes may run side by
/// side on one machine.
fn cookie_name(headers: &HeaderMap) -> String {
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let port = match host.rsplit_once(':') {
        Some((name, port)) if !name.ends_with(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            port
        }
        _ => "80",
    };
    format!("xs2a-workbench-{port}")
}

/// The cookie's value for `token`: a digest, so that the cookie jar never holds the operator token.
fn session_value(token: &str) -> String {
    let named =
        xs2a_core::signing::digest::sha256(format!("xs2a-workbench-session\n{token}").as_bytes());
    named.trim_start_matches("SHA-256=").to_owned()
}

/// The `Set-Cookie` for a page opened with `?token=` naming the operator token; none otherwise.
pub fn on_opening(headers: &HeaderMap, query: Option<&str>, token: &str) -> Option<HeaderValue> {
    let no_headers = HeaderMap::new();
    let presented = crate::api::operator::presented_token(&no_headers, query)?;
    if !same_token(presented, token) {
        return None;
    }
    HeaderValue::from_str(&format!(
        "{}={}; Path=/workbench; HttpOnly; SameSite=Strict",
        cookie_name(headers),
        session_value(token)
    ))
    .ok()
}

/// Whether a workbench API request is authorised by the session cookie: the right value, on a request the
/// browser made from the workbench's own origin.
pub fn admits(headers: &HeaderMap, token: &str) -> bool {
    let name = cookie_name(headers);
    let expected = session_value(token);
    let carried = headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(n, v)| n == name && same_token(v, &expected));
    carried && from_own_origin(headers)
}

/// The browser says the request comes from a page of this very origin.
fn from_own_origin(headers: &HeaderMap) -> bool {
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some(site) => site == "same-origin",
        None => {
            let own = headers
                .get(HOST)
                .and_then(|h| h.to_str().ok())
                .map(|host| format!("http://{host}"));
            let origin = headers.get(ORIGIN).and_then(|o| o.to_str().ok());
            origin.is_some() && origin == own.as_deref()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn the_cookie_is_set_only_for_the_right_token_and_never_holds_it() {
        let host = headers(&[("host", "127.0.0.1:8080")]);
        let set = on_opening(&host, Some("token=secret"), "secret").unwrap();
        let set = set.to_str().unwrap();
        assert!(set.starts_with("xs2a-workbench-8080="), "{set}");
        assert!(
            set.ends_with("; Path=/workbench; HttpOnly; SameSite=Strict"),
            "{set}"
        );
        assert!(!set.contains("secret"), "{set}");
        assert!(on_opening(&host, Some("token=wrong"), "secret").is_none());
        assert!(on_opening(&host, None, "secret").is_none());
    }

    #[test]
    fn the_cookie_counts_only_from_the_same_origin() {
        let value = session_value("secret");
        let cookie = format!("other=1; xs2a-workbench-8080={value}");
        let with = |extra: &[(&'static str, &str)]| {
            let mut pairs = vec![("host", "127.0.0.1:8080"), ("cookie", cookie.as_str())];
            pairs.extend_from_slice(extra);
            admits(&headers(&pairs), "secret")
        };
        assert!(with(&[("sec-fetch-site", "same-origin")]));
        assert!(
            !with(&[("sec-fetch-site", "same-site")]),
            "another port of this machine"
        );
        assert!(!with(&[("sec-fetch-site", "cross-site")]));
        assert!(with(&[("origin", "http://127.0.0.1:8080")]));
        assert!(!with(&[("origin", "http://127.0.0.1:3000")]));
        assert!(!with(&[]), "no sign of where it came from");
        assert!(
            !admits(
                &headers(&[
                    ("host", "127.0.0.1:9090"),
                    ("cookie", &cookie),
                    ("sec-fetch-site", "same-origin")
                ]),
                "secret"
            ),
            "another sandbox's port"
        );
        assert!(!admits(
            &headers(&[
                ("host", "127.0.0.1:8080"),
                ("cookie", &cookie),
                ("sec-fetch-site", "same-origin")
            ]),
            "another token"
        ));
    }

    #[test]
    fn ports_name_the_cookie() {
        assert_eq!(
            cookie_name(&headers(&[("host", "[::1]:9000")])),
            "xs2a-workbench-9000"
        );
        assert_eq!(
            cookie_name(&headers(&[("host", "localhost")])),
            "xs2a-workbench-80"
        );
    }
}
