//! The PSU's browser on the bank's SCA pages, played by the workbench: a page asked for or one of its
//! forms sent to the service's own port as a browser sends them (no signature: the pages are the PSU's,
//! not the TPP's), the bank's redirects followed while they stay on the pages, and the way back to the TPP
//! reported where the bank sends the PSU there. The workbench's own callback is followed too, as the
//! browser would arrive there (so the persona learns its PSU-ID); a TPP app's own redirect URI is not
//! visited. Presentation mode shows the pages beside the diagram through it, so the PSU's steps are the
//! PSU's own requests on the traffic log, as they are from a browser window.

use crate::outbound::client::Client;
use hyper::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE, LOCATION};
use serde::{Deserialize, Serialize};
use xs2a_core::domain::refusal::{CoreResult, Refusal};

/// The workbench's callback (the TPP-Redirect-URI its personas send), relative to the service.
pub const OWN_CALLBACK: &str = "/workbench/callback";

/// Redirects followed before the browser gives up (the bank's pages use one per form).
const MAX_REDIRECTS: usize = 10;

/// The method of a page request: a link or address (GET) or a form sent (POST).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum PageMethod {
    #[default]
    Get,
    Post,
}

/// What the PSU's browser is asked to do.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageRequest {
    /// A page of the bank's SCA: its path and query (`/sca/{id}`, a form's action), or the whole URL on
    /// this service (an scaRedirect).
    pub url: String,
    #[serde(default)]
    pub method: PageMethod,
    /// The form's fields in order, `[name, value]` (a POST's body; added to the query of a GET).
    #[serde(default)]
    pub form: Vec<(String, String)>,
}

/// What the PSU's browser shows afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageVisit {
    /// The path and query of the page shown last (the callback's, when the browser arrived there).
    pub url: String,
    pub status: u16,
    /// The page, when it is HTML.
    #[schema(required = true)]
    pub html: Option<String>,
    /// Where the bank sent the PSU back to the TPP, when it did: the TPP-Redirect-URI with what the bank
    /// added (psu-id, or the failure's status and code).
    #[schema(required = true)]
    pub left_to: Option<String>,
    /// True when that was the workbench's own callback and the browser arrived there (the callback is
    /// recorded and the persona keeps the PSU-ID); false for a TPP app's redirect URI, not visited.
    pub callback_visited: bool,
}

/// `url` as a path and query on the service at `base_url` (`http://127.0.0.1:8080`), if it is one of
/// the bank's SCA pages; `at` names the field in the refusal.
pub fn page_path(url: &str, base_url: &str, at: &str) -> CoreResult<String> {
    let path = url.strip_prefix(base_url).unwrap_or(url);
    let on_pages = path
        .strip_prefix("/sca/")
        .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'));
    if !on_pages || path.contains("..") || path.contains('#') {
        return Err(Refusal::format(
            at,
            format!(
                "'{url}' is not a page of the bank's SCA: give its path (/sca/…) or its whole URL on {base_url}"
            ),
        ));
    }
    Ok(path.to_owned())
}

/// Where a redirect goes, relative to the service when it stays on it.
fn relative<'l>(location: &'l str, base_url: &str) -> &'l str {
    location.strip_prefix(base_url).unwrap_or(location)
}

fn form_text(form: &[(String, String)]) -> String {
    serde_urlencoded::to_string(form).unwrap_or_default()
}

/// Does what `request` asks, on the service at `base_url` through `client`, and answers what the browser
/// shows: each redirect on the bank's pages followed with a GET, the workbench's callback visited, a
/// TPP's own redirect URI only reported.
pub async fn visit(
    client: &mut Client,
    base_url: &str,
    request: &PageRequest,
) -> CoreResult<PageVisit> {
    let mut path = page_path(&request.url, base_url, "url")?;
    let mut method = request.method;
    let mut body = Vec::new();
    match method {
        PageMethod::Post => body = form_text(&request.form).into_bytes(),
        PageMethod::Get if !request.form.is_empty() => {
            let base = path.split('?').next().unwrap_or_default().to_owned();
            path = format!("{base}?{}", form_text(&request.form));
        }
        PageMethod::Get => {}
    }
    let mut left_to = None;
    for _ in 0..=MAX_REDIRECTS {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("text/html"));
        if method == PageMethod::Post {
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_static("application/x-www-form-urlencoded"),
            );
        }
        let verb = if method == PageMethod::Post {
            "POST"
        } else {
            "GET"
        };
        let answer = client
            .send(verb, &path, &headers, std::mem::take(&mut body))
            .await
            .map_err(|e| Refusal::internal(format!("the PSU's browser got no page: {e}")))?;
        let location = answer
            .headers
            .get(LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let (true, Some(location)) = ((300..400).contains(&answer.status), location) {
            let next = relative(&location, base_url);
            let stays = next.starts_with("/sca/");
            let own_callback = next.starts_with(OWN_CALLBACK)
                && matches!(next.as_bytes().get(OWN_CALLBACK.len()), None | Some(b'?'));
            if !stays {
                left_to = Some(location.clone());
            }
            if stays || own_callback {
                path = next.to_owned();
                method = PageMethod::Get;
                continue;
            }
            return Ok(PageVisit {
                url: path,
                status: answer.status,
                html: None,
                left_to,
                callback_visited: false,
            });
        }
        let html = answer
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.contains("html"))
            .then(|| answer.text());
        let callback_visited = left_to.is_some();
        return Ok(PageVisit {
            url: path,
            status: answer.status,
            html,
            left_to,
            callback_visited,
        });
    }
    Err(Refusal::internal(format!(
        "the bank's pages redirected more than {MAX_REDIRECTS} times from {}",
        request.url
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_banks_sca_pages_are_visited() {
        let base = "http://127.0.0.1:8080";
        assert_eq!(page_path("/sca/a1", base, "url").unwrap(), "/sca/a1");
        assert_eq!(
            page_path("http://127.0.0.1:8080/sca/a1/identify?lang=en", base, "url").unwrap(),
            "/sca/a1/identify?lang=en"
        );
        for refused in [
            "/v1/accounts",
            "/sca/",
            "/sca//x",
            "/workbench/api/personas",
            "http://elsewhere.example/sca/a1",
            "/sca/a1/../../v1/accounts",
            "sca/a1",
        ] {
            let refusal = page_path(refused, base, "url").unwrap_err();
            assert_eq!(refusal.status(), 400, "{refused}");
            assert!(
                refusal.text.contains("not a page of the bank's SCA"),
                "{refused}"
            );
        }
    }
}
