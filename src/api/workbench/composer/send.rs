//! Sends a prepared request to the service's own port over TCP, exactly as an external TPP's would travel
//! (so the traffic log records it the same way), and reads the whole answer.

use super::draft::Prepared;
use crate::api::error::{ApiError, ApiResult};
use axum::body::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The largest answer the composer reads whole.
const MAX_ANSWER: usize = 16 * 1024 * 1024;
const TIMEOUT: Duration = Duration::from_secs(60);

/// What came back.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub duration: Duration,
}

/// Sends `request` to `to` and waits for the answer.
pub async fn send(to: SocketAddr, request: &Prepared) -> ApiResult<Answer> {
    let target = match to {
        SocketAddr::V4(v4) if v4.ip().is_unspecified() => {
            SocketAddr::from(([127, 0, 0, 1], v4.port()))
        }
        other => other,
    };
    let started = Instant::now();
    let exchange = async {
        let stream = tokio::net::TcpStream::connect(target).await?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(std::io::Error::other)?;
        tokio::spawn(connection);
        let mut builder = hyper::Request::builder()
            .method(request.method.as_str())
            .uri(&request.path_and_query)
            .header("host", target.to_string());
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let outgoing = builder
            .body(Full::new(Bytes::from(request.body.clone())))
            .map_err(std::io::Error::other)?;
        let response = sender
            .send_request(outgoing)
            .await
            .map_err(std::io::Error::other)?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let body = Limited::new(response.into_body(), MAX_ANSWER)
            .collect()
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?
            .to_bytes()
            .to_vec();
        Ok::<_, std::io::Error>((status, headers, body))
    };
    let (status, headers, body) = tokio::time::timeout(TIMEOUT, exchange)
        .await
        .map_err(|_| ApiError::internal("the composer's request got no answer within 60 s"))?
        .map_err(|e| ApiError::internal(format!("the composer's request failed: {e}")))?;
    Ok(Answer {
        status,
        headers,
        body,
        duration: started.elapsed(),
    })
}
