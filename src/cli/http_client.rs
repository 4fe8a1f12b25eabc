//! The smallest HTTP/1.1 client the CLI needs (replay): one request at a time over a kept-alive
//! connection to a plain-HTTP sandbox, reconnecting when the server closed it.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderMap, HOST};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;

/// A connection to one sandbox.
pub struct Client {
    authority: String,
    sender: Option<SendRequest<Full<Bytes>>>,
}

/// An answer: status and body as text (lossy for bytes that are not UTF-8).
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Client {
    /// A client for `url` (`http://host:port`, any path ignored).
    pub fn new(url: &str) -> Result<Client, String> {
        let uri: hyper::Uri = url.parse().map_err(|_| format!("'{url}' is not a URL"))?;
        if uri.scheme_str() != Some("http") {
            return Err(format!(
                "'{url}': replay speaks plain http (serve the sandbox's http port, e.g. http://127.0.0.1:8080)"
            ));
        }
        let authority = uri
            .authority()
            .ok_or_else(|| format!("'{url}' names no host"))?
            .to_string();
        Ok(Client {
            authority,
            sender: None,
        })
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

    /// Sends one request and reads the whole answer.
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
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("{path_and_query}: reading the answer: {e}"))?
            .to_bytes();
        Ok(Answer {
            status,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }
}
