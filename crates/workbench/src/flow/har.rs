//! Flows as HAR 1.2 (`xs2a-sandbox har`), and HAR files (from a browser, Postman or a TPP's own tooling)
//! as flows for `replay`. An SCA step has no HTTP form of its own: it is written as the automation call
//! it becomes on replay, marked with the custom field `_xs2aSca` (HAR allows `_` fields) so that it reads
//! back as the same step. Written with the traffic log's HAR model (`traffic::har`); read leniently from
//! JSON, since HAR files from other tools carry fields and number forms (fractional times) of their own.

use super::from_traffic::{steps_of, Recorded};
use super::model::{FlowFile, Sca, Step};
use crate::traffic::har::{self, Content, Entry, Har, PostData};
use serde::Serialize;
use serde_json::Value;

/// A flow's own field on an entry: the SCA step the entry stands for, if it is one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScaMark<'a> {
    #[serde(rename = "_xs2aSca", skip_serializing_if = "Option::is_none")]
    pub sca: Option<&'a Sca>,
}

/// A step as an entry: a flow records no times, so every entry starts at the epoch and takes no time.
fn entry<'a>(
    method: &str,
    url: String,
    headers: &[(String, String)],
    body: Option<&str>,
    status: u16,
    answer: Option<&str>,
    sca: Option<&'a Sca>,
) -> Entry<ScaMark<'a>> {
    let mut request = har::request(method, url, headers);
    request.body_size = body.map_or(0, str::len);
    request.post_data = body.map(|body| PostData {
        mime_type: har::header(headers, "content-type")
            .unwrap_or("application/json")
            .to_owned(),
        text: body.to_owned(),
        encoding: None,
    });
    let content = Content {
        size: answer.map_or(0, str::len),
        mime_type: "application/json".to_owned(),
        text: answer.unwrap_or_default().to_owned(),
        encoding: None,
    };
    har::entry_of(
        "1970-01-01T00:00:00.000Z".to_owned(),
        0,
        request,
        har::response(status, &[], content),
        ScaMark { sca },
    )
}

/// The flow as a HAR 1.2 log, its URLs under `base` (e.g. `http://127.0.0.1:8080`).
pub fn write<'a>(flow: &'a FlowFile, base: &str) -> Har<ScaMark<'a>> {
    let entries = flow
        .steps
        .iter()
        .map(|step| match step {
            Step::Exchange(e) => entry(
                &e.request.method,
                format!("{base}{}", e.request.path),
                &e.request.headers,
                e.request.body.as_deref(),
                e.response.status,
                e.response.body.as_deref(),
                None,
            ),
            Step::Sca(s) => entry(
                "POST",
                format!("{base}/v1/sandbox/sca/{}", s.authorisation_id),
                &[("Content-Type".into(), "application/json".into())],
                Some(&s.drive.to_string()),
                200,
                None,
                Some(s),
            ),
        })
        .collect();
    Har::new(entries)
}

fn text(value: &Value, pointer: &str) -> Option<String> {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// A HAR log as a flow: each entry's path and query, headers, body, status and answer.
pub fn read(bytes: &[u8]) -> Result<FlowFile, String> {
    let har: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let entries = har
        .pointer("/log/entries")
        .and_then(Value::as_array)
        .ok_or("no /log/entries")?;
    let mut steps = Vec::new();
    let mut pending = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(sca) = entry.get("_xs2aSca") {
            steps.extend(steps_of(std::mem::take(&mut pending)));
            steps.push(Step::Sca(
                serde_json::from_value(sca.clone())
                    .map_err(|e| format!("/log/entries/{i}/_xs2aSca: {e}"))?,
            ));
            continue;
        }
        let url = text(entry, "/request/url")
            .ok_or(format!("/log/entries/{i}/request/url is missing"))?;
        let (path, query) = path_and_query(&url)
            .ok_or_else(|| format!("/log/entries/{i}/request/url: '{url}' is not a URL"))?;
        let headers = entry
            .pointer("/request/headers")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|h| Some((text(h, "/name")?, text(h, "/value")?)))
                    // HTTP/2 pseudo-headers (browsers record them) are not headers to send.
                    .filter(|(n, _)| !n.starts_with(':'))
                    .collect()
            })
            .unwrap_or_default();
        let base64 = text(entry, "/response/content/encoding").as_deref() == Some("base64");
        pending.push(Recorded {
            method: text(entry, "/request/method").unwrap_or_else(|| "GET".into()),
            path,
            query,
            headers,
            body: text(entry, "/request/postData/text"),
            status: entry
                .pointer("/response/status")
                .and_then(Value::as_u64)
                .unwrap_or(0) as u16,
            response_body: if base64 {
                None
            } else {
                text(entry, "/response/content/text")
            },
            psu_id: None,
            location: entry
                .pointer("/response/redirectURL")
                .and_then(Value::as_str)
                .filter(|l| !l.is_empty())
                .map(str::to_owned),
        });
    }
    steps.extend(steps_of(pending));
    let mut flow = FlowFile::new(steps);
    flow.description = Some("read from a HAR file".into());
    Ok(flow)
}

/// The path and query of an absolute http(s) URL as a HAR file records it (`http://host:port/path?query`);
/// a fragment is not part of a request.
fn path_and_query(url: &str) -> Option<(String, Option<String>)> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    let rest = rest.split('#').next().unwrap_or_default();
    let end_of_authority = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, target) = rest.split_at(end_of_authority);
    if authority.is_empty() || authority.contains(char::is_whitespace) {
        return None;
    }
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query.to_owned())),
        None => (target, None),
    };
    let path = if path.is_empty() { "/" } else { path };
    Some((path.to_owned(), query))
}

#[cfg(test)]
mod url_tests {
    use super::path_and_query;

    #[test]
    fn a_recorded_url_gives_its_path_and_query() {
        let pq = |u: &str| path_and_query(u);
        assert_eq!(
            pq("http://127.0.0.1:8080/v1/accounts?withBalance=true"),
            Some(("/v1/accounts".into(), Some("withBalance=true".into())))
        );
        assert_eq!(
            pq("https://bank.example/v1/consents"),
            Some(("/v1/consents".into(), None))
        );
        assert_eq!(pq("http://h:1"), Some(("/".into(), None)));
        assert_eq!(
            pq("http://h:1?x=1#frag"),
            Some(("/".into(), Some("x=1".into())))
        );
        assert_eq!(pq("http://h/p#frag"), Some(("/p".into(), None)));
        assert_eq!(pq("/relative"), None);
        assert_eq!(pq("http:///nohost"), None);
    }
}
