//! A composer draft made into the exact request a TPP would send: placeholders filled from the persona
//! (`placeholders`), headers checked, then signed with the persona's certificate (Date, X-Request-ID, Digest,
//! TPP-Signature-Certificate, Signature) — what the preview shows and the send sends.

use super::placeholders::{self, Filled};
use crate::app_state::AppState;
use crate::own_state::personas::{self, StoredPersona};
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use serde::{Deserialize, Serialize};
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::signing::signer::SignOptions;

/// What the composer edits (docs/workbench-api.md, "Composer").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Draft {
    pub persona_id: String,
    pub method: String,
    /// Relative to the base URL, e.g. `/v1/accounts`.
    pub path: String,
    /// The query string without `?`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// The signed request, ready to preview or send.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Prepared {
    pub method: String,
    pub url: String,
    #[serde(skip)]
    pub path_and_query: String,
    /// Every header as it will be sent, in order.
    pub headers: Vec<(String, String)>,
    pub signed_headers: Vec<String>,
    pub signing_string: String,
    #[schema(required = true)]
    pub digest: Option<String>,
    #[serde(skip)]
    pub body: Vec<u8>,
    /// Headers of the draft that are not sent, and why.
    pub omitted: Vec<OmittedHeader>,
}

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// Headers signing makes afresh: given in a draft they are sent as given (a preview or send), but an
/// export leaves them to `xs2a-sandbox sign` so that every run has its own Date and X-Request-ID.
pub const SIGNING_HEADERS: [&str; 5] = [
    "date",
    "x-request-id",
    "digest",
    "signature",
    "tpp-signature-certificate",
];

/// A header of the draft that is not sent, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OmittedHeader {
    pub header: String,
    /// Why, and what to do about it.
    pub reason: String,
}

/// A draft with its placeholders filled: what the persona would send, before signing.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub method: String,
    /// Path and query, e.g. `/v1/accounts?withBalance=true`.
    pub path_and_query: String,
    /// In order, names as written.
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub omitted: Vec<OmittedHeader>,
}

fn unknown(at: &str, found: placeholders::Unknown) -> Refusal {
    Refusal::format(
        at,
        format!(
            "{at} holds {}, which is not a placeholder; use one of {}",
            found.0,
            placeholders::PLACEHOLDERS.join(", ")
        ),
    )
}

fn missing(at: &str, placeholder: &str, persona: &StoredPersona) -> Refusal {
    Refusal::format(
        at,
        format!(
            "{at} uses {placeholder}, which persona '{}' has no value for yet: {}",
            persona.name,
            placeholders::how_to_get(placeholder)
        ),
    )
}

/// Fills the draft's placeholders from the persona. A header whose placeholder the persona has no value
/// for yet is left out (and said so in `omitted`); a path, query or body that needs one is refused, as
/// is any `{{…}}` that is not a placeholder. `prefix` is where the draft sits in the request body
/// (`"draft."` for an export), so refusals name the field as the client sent it; `base_url` is the
/// service's, for `{{callbackUrl}}`.
pub fn resolve(
    base_url: &str,
    draft: &Draft,
    persona: &StoredPersona,
    prefix: &str,
) -> CoreResult<Resolved> {
    let method = draft.method.trim().to_ascii_uppercase();
    if !METHODS.contains(&method.as_str()) {
        return Err(Refusal::format(
            &format!("{prefix}method"),
            format!("method must be one of {}", METHODS.join(", ")),
        ));
    }
    let callback_url = format!("{base_url}/workbench/callback");
    let must_fill = |field: &str, text: &str| -> Result<String, Refusal> {
        let at = format!("{prefix}{field}");
        match placeholders::fill(text, persona, &callback_url) {
            Ok(Filled::Text(text)) => Ok(text),
            Ok(Filled::Missing(placeholder)) => Err(missing(&at, placeholder, persona)),
            Err(found) => Err(unknown(&at, found)),
        }
    };
    let path = must_fill("path", draft.path.trim())?;
    if !path.starts_with('/') || path.contains(char::is_whitespace) {
        return Err(Refusal::format(
            &format!("{prefix}path"),
            "path must start with / and hold no spaces, e.g. /v1/accounts",
        ));
    }
    let path_and_query = match draft
        .query
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
    {
        Some(query) => format!(
            "{path}?{}",
            must_fill("query", query.trim_start_matches('?'))?
        ),
        None => path,
    };
    let mut headers = Vec::new();
    let mut omitted = Vec::new();
    for (i, (name, value)) in draft.headers.iter().enumerate() {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        let at = format!("{prefix}headers[{i}]");
        match placeholders::fill(value, persona, &callback_url) {
            Ok(Filled::Text(value)) => headers.push((name.to_owned(), value.trim().to_owned())),
            Ok(Filled::Missing(placeholder)) => omitted.push(OmittedHeader {
                header: name.to_owned(),
                reason: format!(
                    "left out: persona '{}' has no {} yet ({})",
                    persona.name,
                    placeholders::label(placeholder),
                    placeholders::how_to_get(placeholder)
                ),
            }),
            Err(found) => return Err(unknown(&at, found)),
        }
    }
    let body = match &draft.body {
        Some(text) if !text.trim().is_empty() => Some(must_fill("body", text)?),
        _ => None,
    };
    Ok(Resolved {
        method,
        path_and_query,
        headers,
        body,
        omitted,
    })
}

/// The headers as they would be sent: 400 FORMAT_ERROR at `headers[i]` for a name or value HTTP cannot
/// carry.
fn header_map(headers: &[(String, String)]) -> CoreResult<HeaderMap> {
    let mut map = HeaderMap::new();
    for (i, (name, value)) in headers.iter().enumerate() {
        let at = format!("headers[{i}]");
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Refusal::format(&at, format!("'{name}' is not a header name")))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| Refusal::format(&at, "a header value must be visible ASCII"))?;
        map.append(name, value);
    }
    Ok(map)
}

/// Makes the draft into the request the persona would send now.
pub fn prepare(state: &AppState, draft: &Draft) -> CoreResult<Prepared> {
    let persona = personas::get(&state.store, &draft.persona_id)?;
    let credentials = personas::credentials(&persona)?;
    let resolved = resolve(&state.base_url(), draft, &persona, "")?;
    let mut headers = header_map(&resolved.headers)?;
    let body = resolved.body.map(String::into_bytes).unwrap_or_default();
    if !body.is_empty() && !headers.contains_key("content-type") {
        headers.insert("content-type", HeaderValue::from_static("application/json"));
    }
    let (method, path_and_query) = (resolved.method, resolved.path_and_query);
    // TPP apps sign with their own clock; the gate accepts the machine's time as well as the sandbox's.
    let signing_string = credentials.sign(
        &method,
        &path_and_query,
        &mut headers,
        &body,
        state.clock.machine_now(),
        &SignOptions::default(),
    );
    let signed_headers = signing_string
        .lines()
        .filter_map(|l| l.split_once(':').map(|(n, _)| n.to_owned()))
        .collect();
    let digest = headers
        .get("digest")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let headers = headers
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    Ok(Prepared {
        url: format!("{}{path_and_query}", state.base_url()),
        method,
        path_and_query,
        headers,
        signed_headers,
        signing_string,
        digest,
        body,
        omitted: resolved.omitted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::own_state::personas::Source;
    use xs2a_core::domain::refusal::Code;

    fn persona() -> StoredPersona {
        StoredPersona {
            id: "p1".into(),
            name: "P".into(),
            source: Source::Issued,
            certificate_pem: String::new(),
            private_key_pem: String::new(),
            psu_id: Some("psu-1".into()),
            psu_corporate_id: None,
            tpp_session_id: None,
        }
    }

    fn draft(method: &str, path: &str) -> Draft {
        Draft {
            persona_id: "p1".into(),
            method: method.into(),
            path: path.into(),
            query: None,
            headers: Vec::new(),
            body: None,
        }
    }

    /// The refusal of `draft`, as (status, code, path).
    fn refused(draft: &Draft, prefix: &str) -> (u16, Code, Option<String>) {
        let refusal = resolve("http://127.0.0.1:1", draft, &persona(), prefix).unwrap_err();
        (refusal.status(), refusal.code, refusal.path)
    }

    #[test]
    fn fills_the_draft_and_leaves_out_a_header_the_persona_cannot_fill() {
        let mut asked = draft(" get ", "/v1/accounts");
        asked.query = Some("?psu={{persona.psuId}}".into());
        asked.headers = vec![
            ("PSU-ID".into(), "{{persona.psuId}}".into()),
            ("TPP-Session-ID".into(), "{{persona.tppSessionId}}".into()),
            (" ".into(), "ignored".into()),
        ];
        let resolved = resolve("http://127.0.0.1:1", &asked, &persona(), "").unwrap();
        assert_eq!(resolved.method, "GET");
        assert_eq!(resolved.path_and_query, "/v1/accounts?psu=psu-1");
        assert_eq!(
            resolved.headers,
            vec![("PSU-ID".to_owned(), "psu-1".to_owned())]
        );
        assert_eq!(resolved.omitted[0].header, "TPP-Session-ID");
    }

    #[test]
    fn refuses_a_method_or_path_it_cannot_send() {
        let format = |at: &str| (400, Code::FormatError, Some(at.to_owned()));
        assert_eq!(
            refused(&draft("TRACE", "/v1/accounts"), ""),
            format("method")
        );
        assert_eq!(
            refused(&draft("GET", "v1/accounts"), "draft."),
            format("draft.path")
        );
        assert_eq!(refused(&draft("GET", "/v1/a b"), ""), format("path"));
    }

    #[test]
    fn refuses_an_unknown_or_unfilled_placeholder_where_it_must_be_filled() {
        let format = |at: &str| (400, Code::FormatError, Some(at.to_owned()));
        assert_eq!(refused(&draft("GET", "/v1/{{nope}}"), ""), format("path"));
        let mut asked = draft("POST", "/v1/payments/x");
        asked.body = Some("{\"c\":\"{{persona.psuCorporateId}}\"}".into());
        assert_eq!(refused(&asked, ""), format("body"));
        let mut header = draft("GET", "/v1/accounts");
        header.headers = vec![("X".into(), "{{persona.nope}}".into())];
        assert_eq!(refused(&header, ""), format("headers[0]"));
    }

    #[test]
    fn refuses_a_header_that_cannot_be_sent() {
        let refusal = header_map(&[("bad name".to_owned(), "v".to_owned())]).unwrap_err();
        assert_eq!(
            (refusal.status(), refusal.code, refusal.path.as_deref()),
            (400, Code::FormatError, Some("headers[0]"))
        );
        let refusal = header_map(&[
            ("A".to_owned(), "ok".to_owned()),
            ("B".to_owned(), "line\nbreak".to_owned()),
        ])
        .unwrap_err();
        assert_eq!(refusal.path.as_deref(), Some("headers[1]"));
        assert_eq!(refusal.text, "a header value must be visible ASCII");
    }
}
