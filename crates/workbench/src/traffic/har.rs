//! HAR 1.2 (what browsers and HTTP tools import and export) as one typed model, and an exchange of the
//! log as one of its entries (the inspector's "copy as HAR"). Flows are written with the same model
//! (`flow::har`, `xs2a-sandbox har`); each writer adds its own fields to an entry through `X` (HAR allows
//! fields whose names start with `_`): the exchange's id here ([`ExchangeId`]), a flow's SCA step there.

use super::model::Exchange;
use serde::Serialize;
use time::format_description::well_known::Rfc3339;

/// The HTTP version every entry names (the port speaks HTTP/1.1).
const HTTP_1_1: &str = "HTTP/1.1";

/// A whole HAR file: `{"log": …}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Har<X> {
    pub log: Log<X>,
}

/// The log of a HAR file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Log<X> {
    pub version: &'static str,
    pub creator: Creator,
    pub entries: Vec<Entry<X>>,
}

/// The program that wrote the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Creator {
    pub name: &'static str,
    pub version: &'static str,
}

impl<X> Har<X> {
    /// A HAR 1.2 file of `entries`, written by this program.
    pub fn new(entries: Vec<Entry<X>>) -> Self {
        Har {
            log: Log {
                version: "1.2",
                creator: Creator {
                    name: "xs2a-sandbox",
                    version: env!("CARGO_PKG_VERSION"),
                },
                entries,
            },
        }
    }
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

/// One HAR 1.2 entry (the component `HarEntry` of the OpenAPI document describes it), with the writer's
/// own fields `X` beside HAR's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry<X> {
    pub started_date_time: String,
    pub time: u64,
    pub request: Request,
    pub response: Response,
    pub cache: Cache,
    pub timings: Timings,
    #[serde(flatten)]
    pub extra: X,
}

/// HAR's `cache`: always empty here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cache {}

/// The traffic log's own field on an entry: the exchange it was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExchangeId {
    #[serde(rename = "_xs2aExchangeId")]
    pub xs2a_exchange_id: u64,
}

/// A request line and its headers: what every entry's request starts from.
pub fn request(method: &str, url: String, headers: &[(String, String)]) -> Request {
    Request {
        method: method.to_owned(),
        url,
        http_version: HTTP_1_1,
        cookies: [],
        headers: pairs(headers),
        query_string: Vec::new(),
        headers_size: -1,
        body_size: 0,
        post_data: None,
    }
}

/// An answer's status, headers and body (`text`, `size` bytes; `encoding` `base64` for binary bodies).
pub fn response(status: u16, headers: &[(String, String)], content: Content) -> Response {
    Response {
        status,
        status_text: "",
        http_version: HTTP_1_1,
        cookies: [],
        headers: pairs(headers),
        body_size: content.size,
        content,
        redirect_url: header(headers, "location").unwrap_or_default().to_owned(),
        headers_size: -1,
    }
}

/// An entry of `request` and `response`, at `started` (RFC 3339), taking `ms` milliseconds.
pub fn entry_of<X>(
    started: String,
    ms: u64,
    request: Request,
    response: Response,
    extra: X,
) -> Entry<X> {
    Entry {
        started_date_time: started,
        time: ms,
        request,
        response,
        cache: Cache {},
        timings: Timings {
            send: 0,
            wait: ms,
            receive: 0,
        },
        extra,
    }
}

/// The value of header `name` (any case).
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

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
pub fn entry(exchange: &Exchange, base: &str) -> Entry<ExchangeId> {
    let s = &exchange.summary;
    let url = match &s.query {
        Some(q) => format!("{base}{}?{q}", s.path),
        None => format!("{base}{}", s.path),
    };
    let sent = &exchange.request;
    let mut request = request(&s.method, url, &sent.headers);
    request.query_string = s
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
    request.body_size = sent.body_bytes;
    request.post_data = sent.body.as_ref().map(|body| PostData {
        mime_type: header(&sent.headers, "content-type")
            .unwrap_or_default()
            .to_owned(),
        text: body.clone(),
        encoding: base64_if(sent.body_base64),
    });
    let answer = &exchange.response;
    let content = Content {
        size: answer.body_bytes,
        mime_type: header(&answer.headers, "content-type")
            .unwrap_or_default()
            .to_owned(),
        text: answer.body.clone().unwrap_or_default(),
        encoding: base64_if(answer.body_base64),
    };
    entry_of(
        s.at.format(&Rfc3339).unwrap_or_default(),
        s.duration_ms,
        request,
        response(s.status, &answer.headers, content),
        ExchangeId {
            xs2a_exchange_id: s.id,
        },
    )
}
