//! Sends a prepared request to the service's own port over TCP, exactly as an external TPP's would travel
//! (so the traffic log records it the same way), and reads the whole answer (through `outbound::client`).

use crate::api::error::{ApiError, ApiResult};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use xs2a_workbench::composer::draft::Prepared;
use xs2a_workbench::outbound::client::{self, Client};

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
    let failed = |e: String| ApiError::internal(format!("the composer's request failed: {e}"));
    let headers = client::header_map(&request.headers, str::to_owned).map_err(failed)?;
    let mut client = Client::to_own(to).answers_up_to(MAX_ANSWER);
    let started = Instant::now();
    let answer = tokio::time::timeout(
        TIMEOUT,
        client.send(
            request.method.as_str(),
            &request.path_and_query,
            &headers,
            request.body.clone(),
        ),
    )
    .await
    .map_err(|_| ApiError::internal("the composer's request got no answer within 60 s"))?
    .map_err(failed)?;
    Ok(Answer {
        status: answer.status,
        headers: answer.header_pairs(),
        body: answer.body.to_vec(),
        duration: started.elapsed(),
    })
}
