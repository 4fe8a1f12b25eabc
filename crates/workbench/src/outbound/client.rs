//! The one HTTP/1.1 client (hyper) of the sandbox's own tools: a connection to one plain-HTTP sandbox,
//! kept alive between requests and made again when the server closed it. The workbench's composer sends
//! through it to the service's own port, so that the traffic log records its requests exactly as an
//! outside TPP's; the CLI's `replay` and `conformance` send through it to a running sandbox.

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderMap, HeaderName, HeaderValue, HOST};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;

/// A connection to one sandbox.
pub struct Client {
    /// `host:port`, also the Host header sent.
    authority: String,
    sender: Option<SendRequest<Full<Bytes>>>,
    /// The largest answer body read (a longer one is an error).
    max_answer: usize,
}

/// An answer, read whole.
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// The body as text (lossy for bytes that are not UTF-8).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The headers as (name, value) pairs, in the order they came (values lossy where not UTF-8).
    pub fn header_pairs(&self) -> Vec<(String, String)> {
        self.headers
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect()
    }
}

impl Client {
    /// A client for `url` (`http://host:port`, any path ignored).
    pub fn new(url: &str) -> Result<Client, String> {
        let uri: hyper::Uri = url.parse().map_err(|_| format!("'{url}' is not a URL"))?;
        if uri.scheme_str() != Some("http") {
            return Err(format!(
                "'{url}': this speaks plain http (serve the sandbox's http port, e.g. http://127.0.0.1:8080)"
            ));
        }
        let authority = uri
            .authority()
            .ok_or_else(|| format!("'{url}' names no host"))?
            .to_string();
        Ok(Client {
            authority,
            sender: None,
            max_answer: usize::MAX,
        })
    }

    /// A client for a port this process listens on (a wildcard address is reached on 127.0.0.1).
    pub fn to_own(address: SocketAddr) -> Client {
        let address = match address {
            SocketAddr::V4(v4) if v4.ip().is_unspecified() => {
                SocketAddr::from(([127, 0, 0, 1], v4.port()))
            }
            other => other,
        };
        Client {
            authority: address.to_string(),
            sender: None,
            max_answer: usize::MAX,
        }
    }

    /// Reads answers of at most `bytes` (a longer one is an error).
    pub fn answers_up_to(mut self, bytes: usize) -> Client {
        self.max_answer = bytes;
        self
    }

    async fn connect(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, String> {
        if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
            let stream = tokio::net::TcpStream::connect(&self.authority)
                .await
                .map_err(|e| format!("cannot connect to {}: {e}", self.authority))?;
            let _ = stream.set_nodelay(true);
            let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|e| format!("cannot talk HTTP to {}: {e}", self.authority))?;
            tokio::spawn(connection);
            self.sender = Some(sender);
        }
        Ok(self.sender.as_mut().expect("set above"))
    }

    /// Sends one request (with Host set to the sandbox's) and reads the whole answer.
    pub async fn send(
        &mut self,
        method: &str,
        path_and_query: &str,
        headers: &HeaderMap,
        body: Vec<u8>,
    ) -> Result<Answer, String> {
        let method = Method::from_bytes(method.as_bytes())
            .map_err(|_| format!("'{method}' is not an HTTP method"))?;
        let mut request = Request::builder()
            .method(method)
            .uri(path_and_query)
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| format!("cannot build the request for {path_and_query}: {e}"))?;
        *request.headers_mut() = headers.clone();
        request.headers_mut().insert(
            HOST,
            self.authority.parse().map_err(|_| "bad host".to_owned())?,
        );
        let max_answer = self.max_answer;
        let sender = self.connect().await?;
        sender
            .ready()
            .await
            .map_err(|e| format!("the connection failed: {e}"))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| format!("{path_and_query}: {e}"))?;
        let status = response.status().as_u16();
        let (parts, body) = response.into_parts();
        let body = Limited::new(body, max_answer)
            .collect()
            .await
            .map_err(|e| format!("{path_and_query}: reading the answer: {e}"))?
            .to_bytes();
        Ok(Answer {
            status,
            headers: parts.headers,
            body,
        })
    }
}

/// Headers from (name, value) pairs, each value passed through `value` first (a replay puts the ids of
/// this run in); a name or value HTTP cannot carry is an error that names it.
pub fn header_map(
    pairs: &[(String, String)],
    value: impl Fn(&str) -> String,
) -> Result<HeaderMap, String> {
    let mut headers = HeaderMap::new();
    for (name, text) in pairs {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("'{name}' is not a header name"))?;
        let text = HeaderValue::from_str(&value(text))
            .map_err(|_| format!("the value of {name} is not a valid header value"))?;
        headers.append(name, text);
    }
    Ok(headers)
}
