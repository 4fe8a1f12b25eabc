//! A composer draft made into the exact request a TPP would send: placeholders filled from the persona,
//! headers checked, then signed with the persona's certificate (Date, X-Request-ID, Digest,
//! TPP-Signature-Certificate, Signature) — what the preview shows and the send sends.

use crate::api::error::ApiResult;
use crate::refusal::Refusal;
use crate::signing::signer::SignOptions;
use crate::state::AppState;
use crate::workbench::personas::{self, StoredPersona};
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use serde::{Deserialize, Serialize};

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
    pub digest: Option<String>,
    #[serde(skip)]
    pub body: Vec<u8>,
}

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// Fills `{{persona.id}}`, `{{persona.psuId}}`, `{{persona.psuCorporateId}}`, `{{persona.tppSessionId}}`,
/// `{{callbackUrl}}` and `{{uuid}}`; `None` when a placeholder has no value (the header is then left out).
fn fill(text: &str, persona: &StoredPersona, callback_url: &str) -> Option<String> {
    if !text.contains("{{") {
        return Some(text.to_owned());
    }
    let mut out = text.to_owned();
    let values: [(&str, Option<String>); 6] = [
        ("{{persona.id}}", Some(persona.id.clone())),
        ("{{persona.psuId}}", persona.psu_id.clone()),
        (
            "{{persona.psuCorporateId}}",
            persona.psu_corporate_id.clone(),
        ),
        ("{{persona.tppSessionId}}", persona.tpp_session_id.clone()),
        ("{{callbackUrl}}", Some(callback_url.to_owned())),
        ("{{uuid}}", Some(uuid::Uuid::new_v4().to_string())),
    ];
    for (placeholder, value) in values {
        if out.contains(placeholder) {
            out = out.replace(placeholder, value.as_deref()?);
        }
    }
    Some(out)
}

/// Makes the draft into the request the persona would send now.
pub fn prepare(state: &AppState, draft: &Draft) -> ApiResult<Prepared> {
    let persona = personas::get(&state.store, &draft.persona_id)?;
    let credentials = personas::credentials(&persona)?;
    let method = draft.method.trim().to_ascii_uppercase();
    if !METHODS.contains(&method.as_str()) {
        return Err(Refusal::format(
            "method",
            format!("method must be one of {}", METHODS.join(", ")),
        )
        .into());
    }
    let callback_url = format!("{}/workbench/callback", state.base_url());
    let path = fill(draft.path.trim(), &persona, &callback_url).ok_or_else(|| {
        Refusal::format(
            "path",
            "the path names a value the persona does not have yet",
        )
    })?;
    if !path.starts_with('/') || path.contains(char::is_whitespace) {
        return Err(Refusal::format(
            "path",
            "path must start with / and hold no spaces, e.g. /v1/accounts",
        )
        .into());
    }
    let path_and_query = match draft
        .query
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
    {
        Some(query) => format!("{path}?{}", query.trim_start_matches('?')),
        None => path,
    };
    let mut headers = HeaderMap::new();
    for (i, (name, value)) in draft.headers.iter().enumerate() {
        if name.trim().is_empty() {
            continue;
        }
        let Some(value) = fill(value, &persona, &callback_url) else {
            continue;
        };
        let at = format!("headers[{i}]");
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| Refusal::format(&at, format!("'{name}' is not a header name")))?;
        let value = HeaderValue::from_str(value.trim())
            .map_err(|_| Refusal::format(&at, "a header value must be visible ASCII"))?;
        headers.append(name, value);
    }
    let body = match &draft.body {
        Some(text) if !text.trim().is_empty() => {
            let body = fill(text, &persona, &callback_url).ok_or_else(|| {
                Refusal::format(
                    "body",
                    "the body names a value the persona does not have yet",
                )
            })?;
            if !headers.contains_key("content-type") {
                headers.insert("content-type", HeaderValue::from_static("application/json"));
            }
            body.into_bytes()
        }
        _ => Vec::new(),
    };
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbench::personas::Source;

    fn persona() -> StoredPersona {
        StoredPersona {
            id: "p1".into(),
            name: "P".into(),
            source: Source::Issued,
            certificate_pem: String::new(),
            private_key_pem: String::new(),
            psu_id: Some("psu-1".into()),
            psu_corporate_id: None,
            tpp_session_id: Some("s-1".into()),
        }
    }

    #[test]
    fn placeholders_are_filled_and_an_empty_one_leaves_the_header_out() {
        let p = persona();
        assert_eq!(
            fill("{{persona.psuId}}", &p, "http://x/cb").as_deref(),
            Some("psu-1")
        );
        assert_eq!(
            fill("{{callbackUrl}}?persona={{persona.id}}", &p, "http://x/cb").as_deref(),
            Some("http://x/cb?persona=p1")
        );
        assert_eq!(fill("{{persona.psuCorporateId}}", &p, "http://x/cb"), None);
        assert_eq!(fill("plain", &p, "").as_deref(), Some("plain"));
    }
}
