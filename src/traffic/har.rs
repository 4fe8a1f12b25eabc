//! An exchange as a HAR 1.2 entry (what browsers and HTTP tools import and export), and back: the
//! inspector's "copy as HAR", and the HAR files `replay` reads.

use super::model::{Exchange, Message};
use serde::Serialize;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;

fn content_type(message: &Message) -> String {
    message
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// A HAR `name`/`value` pair (a header or a query parameter).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

/// A request body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostData {
    pub mime_type: String,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
}

/// The request of an entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub method: String,
    pub url: String,
    pub http_version: &'static str,
    pub cookies: [NameValue; 0],
    pub headers: Vec<NameValue>,
    pub query_string: Vec<NameValue>,
    pub headers_size: i64,
    pub body_size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_data: Option<PostData>,
}

/// A response body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Content {
    pub size: usize,
    pub mime_type: String,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
}

/// The response of an entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    pub status: u16,
    pub status_text: &'static str,
    pub http_version: &'static str,
    pub cookies: [NameValue; 0],
    pub headers: Vec<NameValue>,
    pub content: Content,
    #[serde(rename = "redirectURL")]
    pub redirect_url: String,
    pub headers_size: i64,
    pub body_size: usize,
}

/// An entry's timings: the whole duration counts as waiting (the log does not see the phases).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timings {
    pub send: u64,
    pub wait: u64,
    pub receive: u64,
}

/// One HAR 1.2 entry (the component `HarEntry` of the OpenAPI document describes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub started_date_time: String,
    pub time: u64,
    pub request: Request,
    pub response: Response,
    pub cache: Cache,
    pub timings: Timings,
    #[serde(rename = "_xs2aExchangeId")]
    pub xs2a_exchange_id: u64,
}

/// HAR's `cache`: always empty here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cache {}

fn pairs(headers: &[(String, String)]) -> Vec<NameValue> {
    headers
        .iter()
        .map(|(name, value)| NameValue {
            name: name.clone(),
            value: value.clone(),
        })
        .collect()
}

fn base64_if(encoded: bool) -> Option<&'static str> {
    encoded.then_some("base64")
}

/// One HAR `entry` for an exchange on `base` (e.g. `http://127.0.0.1:8080`).
pub fn entry(exchange: &Exchange, base: &str) -> Entry {
    let s = &exchange.summary;
    let url = match &s.query {
        Some(q) => format!("{base}{}?{q}", s.path),
        None => format!("{base}{}", s.path),
    };
    let query_string = s
        .query
        .as_deref()
        .map(|q| {
            serde_urlencoded::from_str::<Vec<(String, String)>>(q)
                .unwrap_or_default()
                .into_iter()
                .map(|(name, value)| NameValue { name, value })
                .collect()
        })
        .unwrap_or_default();
    let request = Request {
        method: s.method.clone(),
        url,
        http_version: "HTTP/1.1",
        cookies: [],
        headers: pairs(&exchange.request.headers),
        query_string,
        headers_size: -1,
        body_size: exchange.request.body_bytes,
        post_data: exchange.request.body.as_ref().map(|body| PostData {
            mime_type: content_type(&exchange.request),
            text: body.clone(),
            encoding: base64_if(exchange.request.body_base64),
        }),
    };
    let response = Response {
        status: s.status,
        status_text: "",
        http_version: "HTTP/1.1",
        cookies: [],
        headers: pairs(&exchange.response.headers),
        content: Content {
            size: exchange.response.body_bytes,
            mime_type: content_type(&exchange.response),
            text: exchange.response.body.clone().unwrap_or_default(),
            encoding: base64_if(exchange.response.body_base64),
        },
        redirect_url: exchange
            .response
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("location"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        headers_size: -1,
        body_size: exchange.response.body_bytes,
    };
    Entry {
        started_date_time: s.at.format(&Rfc3339).unwrap_or_default(),
        time: s.duration_ms,
        request,
        response,
        cache: Cache {},
        timings: Timings {
            send: 0,
            wait: s.duration_ms,
            receive: 0,
        },
        xs2a_exchange_id: s.id,
    }
}

/// A whole HAR 1.2 log of entries.
pub fn log(entries: Vec<Value>) -> Value {
    json!({"log": {
        "version": "1.2",
        "creator": {"name": "xs2a-sandbox", "version": env!("CARGO_PKG_VERSION")},
        "entries": entries,
    }})
}
