//! An exchange as a HAR 1.2 entry (what browsers and HTTP tools import and export), and back: the
//! inspector's "copy as HAR", and the HAR files `replay` reads.

use super::model::{Exchange, Message};
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;

fn pairs(headers: &[(String, String)]) -> Vec<Value> {
    headers
        .iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}

fn content_type(message: &Message) -> String {
    message
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// One HAR `entry` for an exchange on `base` (e.g. `http://127.0.0.1:8080`).
pub fn entry(exchange: &Exchange, base: &str) -> Value {
    let s = &exchange.summary;
    let url = match &s.query {
        Some(q) => format!("{base}{}?{q}", s.path),
        None => format!("{base}{}", s.path),
    };
    let query: Vec<Value> = s
        .query
        .as_deref()
        .map(|q| {
            serde_urlencoded::from_str::<Vec<(String, String)>>(q)
                .unwrap_or_default()
                .into_iter()
                .map(|(name, value)| json!({"name": name, "value": value}))
                .collect()
        })
        .unwrap_or_default();
    let mut request = json!({
        "method": s.method,
        "url": url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": pairs(&exchange.request.headers),
        "queryString": query,
        "headersSize": -1,
        "bodySize": exchange.request.body_bytes,
    });
    if let Some(body) = &exchange.request.body {
        request["postData"] = json!({
            "mimeType": content_type(&exchange.request),
            "text": body,
        });
        if exchange.request.body_base64 {
            request["postData"]["encoding"] = json!("base64");
        }
    }
    let mut content = json!({
        "size": exchange.response.body_bytes,
        "mimeType": content_type(&exchange.response),
        "text": exchange.response.body.clone().unwrap_or_default(),
    });
    if exchange.response.body_base64 {
        content["encoding"] = json!("base64");
    }
    json!({
        "startedDateTime": s.at.format(&Rfc3339).unwrap_or_default(),
        "time": s.duration_ms,
        "request": request,
        "response": {
            "status": s.status,
            "statusText": "",
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": pairs(&exchange.response.headers),
            "content": content,
            "redirectURL": exchange.response.headers.iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("location")).map(|(_, v)| v.clone()).unwrap_or_default(),
            "headersSize": -1,
            "bodySize": exchange.response.body_bytes,
        },
        "cache": {},
        "timings": {"send": 0, "wait": s.duration_ms, "receive": 0},
        "_xs2aExchangeId": s.id,
    })
}

/// A whole HAR 1.2 log of entries.
pub fn log(entries: Vec<Value>) -> Value {
    json!({"log": {
        "version": "1.2",
        "creator": {"name": "xs2a-sandbox", "version": env!("CARGO_PKG_VERSION")},
        "entries": entries,
    }})
}
